import { inject, injectable } from '@theia/core/shared/inversify';
import { ApplicationServer } from '@theia/core/lib/common/application-protocol';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { CLI_FLAVOUR_IDS, CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { IdeCompanionBackend, KeepAwakeBackend, KeepAwakeState, flavourPreference, ideCompanionPreferenceSchema } from '@theia-cli-companion/ai-cli-core/lib/common';
import { buildDiagnosticReport, cliCommandLine } from '@theia-cli-companion/ide-companion-server/lib/common';
import { CompanionOutput, EditorContextTracker, KeepAwakeClientImpl, WindowServerService } from '@theia-cli-companion/ai-cli-core/lib/browser';

const REPORTED_PACKAGES = ['@theia-cli-companion/ai-cli-ide-companion', '@theia-cli-companion/ai-cli-ide-protocol', '@theia/core'];

/** Gathers what a bug report about IDE mode needs from this window; nothing secret is ever part of it. */
@injectable()
export class DiagnosticReportService {

    @inject(WindowServerService) protected readonly companion: WindowServerService;
    @inject(IdeCompanionBackend) protected readonly backend: IdeCompanionBackend;
    @inject(ApplicationServer) protected readonly applicationServer: ApplicationServer;
    @inject(PreferenceService) protected readonly preferences: PreferenceService;
    @inject(CompanionOutput) protected readonly output: CompanionOutput;
    @inject(EditorContextTracker) protected readonly tracker: EditorContextTracker;
    @inject(KeepAwakeBackend) protected readonly keepAwakeBackend: KeepAwakeBackend;
    @inject(KeepAwakeClientImpl) protected readonly keepAwakeWindow: KeepAwakeClientImpl;

    async build(): Promise<string> {
        const state = this.companion.state;
        const [extensions, backendOs, executables, keepAwake] = await Promise.all([
            this.applicationServer.getExtensionsInfos().catch(() => []),
            this.applicationServer.getBackendOS().then(String).catch(() => 'unknown'),
            this.findExecutables(),
            this.keepAwakeBackend.state().catch(() => undefined)
        ]);
        const versions: Record<string, string> = {};
        for (const name of REPORTED_PACKAGES) {
            versions[name] = extensions.find(extension => extension.name === name)?.version ?? 'not found';
        }
        const preferences: Record<string, unknown> = {};
        for (const name of Object.keys(ideCompanionPreferenceSchema.properties)) {
            preferences[name] = this.preferences.get(name);
        }
        return buildDiagnosticReport({
            generatedAt: new Date(),
            state: state.kind === 'failed' ? `failed: ${state.error}` : state.kind,
            status: this.companion.status,
            versions,
            browser: navigator.userAgent,
            backendOs,
            executables,
            preferences,
            events: this.output.events,
            tracking: this.tracker.stats,
            keepAwake: keepAwake && this.keepAwakeReport(keepAwake)
        });
    }

    protected keepAwakeReport(state: KeepAwakeState): NonNullable<Parameters<typeof buildDiagnosticReport>[0]['keepAwake']> {
        const last = state.lastReportAt === undefined ? undefined
            : `${new Date(state.lastReportAt).toISOString()} through ${state.mechanisms.join(', ') || 'nothing'}${state.problem ? ` (${state.problem})` : ''}`;
        return {
            work: state.work,
            mechanisms: [...state.backendMechanisms, ...this.keepAwakeWindow.availableMechanisms()],
            intervalSeconds: state.intervalSeconds,
            ...last ? { lastReport: last } : {}
        };
    }

    protected async findExecutables(): Promise<Partial<Record<CliFlavourId, string>>> {
        const found: Partial<Record<CliFlavourId, string>> = {};
        await Promise.all(CLI_FLAVOUR_IDS.map(async id => {
            const [command] = cliCommandLine(id, this.preferences.get(flavourPreference(id, 'command')), []);
            found[id] = await this.backend.findExecutable(command).catch(() => undefined) ?? `"${command}" not found`;
        }));
        return found;
    }
}
