import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { DisposableCollection } from '@theia/core/lib/common/disposable';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { nls } from '@theia/core/lib/common/nls';
import { KeepAwakeBackend, KeepAwakeState } from '../../common/keep-awake-protocol';
import { StatusViewRow, StatusViewSection, StatusViewSectionContent } from '../status-view/status-view-section';
import { KeepAwakeClientImpl } from './keep-awake-client-impl';

/** *Show Status*: whether the workspace is kept awake now, for which agents' work, and how the platform hears of it. */
@injectable()
export class KeepAwakeStatusSection implements StatusViewSection {
    readonly id = 'keep-awake';
    @inject(KeepAwakeBackend) protected readonly backend: KeepAwakeBackend;
    @inject(KeepAwakeClientImpl) protected readonly client: KeepAwakeClientImpl;
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;
    protected readonly toDispose = new DisposableCollection(this.onDidChangeEmitter);
    protected state?: KeepAwakeState;

    @postConstruct()
    protected init(): void {
        this.toDispose.push(this.client.onDidChangeState(state => this.show(state)));
        void this.backend.state().then(state => this.show(state), () => undefined);
    }

    content(): StatusViewSectionContent {
        return {
            heading: nls.localize('theia-cli-companion/cli-core/keepAwakeHeading', 'Keeping the workspace awake'),
            empty: nls.localize('theia-cli-companion/cli-core/keepAwakeIdle', 'No agent is working: nothing is reported, so the platform may put an idle workspace to sleep.'),
            rows: this.state ? describeKeepAwake(this.state) : []
        };
    }

    protected show(state: KeepAwakeState): void {
        this.state = state;
        this.onDidChangeEmitter.fire();
    }

    dispose(): void {
        this.toDispose.dispose();
    }
}

/** The rows for a state: one per work, and how the platform is told (or why it is not). */
export function describeKeepAwake(state: KeepAwakeState): StatusViewRow[] {
    if (!state.work.length) {
        return [];
    }
    const how = state.mechanisms.length
        ? nls.localize('theia-cli-companion/cli-core/keepAwakeHow', 'Activity reported every {0} s through: {1}', state.intervalSeconds, state.mechanisms.join(', '))
        : state.lastReportAt === undefined
            ? nls.localize('theia-cli-companion/cli-core/keepAwakeStarting', 'Reporting activity every {0} s', state.intervalSeconds)
            : nls.localize('theia-cli-companion/cli-core/keepAwakeNoMechanism',
                'No way to tell the platform was found here: no Theia Cloud monitor or service, and aiCliCompanion.keepAwake.command names no command of this window.');
    return [
        ...state.work.map((work, index): StatusViewRow => ({
            id: `work-${index}`,
            label: nls.localize('theia-cli-companion/cli-core/keepAwakeFor', 'Keeping the workspace awake for {0}', work),
            detail: how
        })),
        ...state.problem ? [{ id: 'problem', label: nls.localize('theia-cli-companion/cli-core/keepAwakeProblem', 'Last report'), detail: state.problem }] : []
    ];
}
