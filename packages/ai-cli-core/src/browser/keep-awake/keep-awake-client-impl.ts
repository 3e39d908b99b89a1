import { inject, injectable, named } from '@theia/core/shared/inversify';
import { CommandRegistry } from '@theia/core/lib/common/command';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { ILogger } from '@theia/core/lib/common/logger';
import { KEEP_AWAKE_COMMAND_PREF } from '../../common/ide-companion-preferences';
import { KeepAwakeClient, KeepAwakeState, THEIA_CLOUD_ACTIVITY_COMMAND } from '../../common/keep-awake-protocol';
import { ExecutionSettings } from '../untrusted-workspace/execution-settings';

/** The name the status view and the diagnostic report give Theia Cloud's monitor command. */
export const THEIA_CLOUD_MONITOR_MECHANISM = 'Theia Cloud monitor command';

/**
 * This window's part in keeping the workspace awake: when the backend reports activity (an agent works),
 * it runs Theia Cloud's monitor command if an extension registered it here, and the command the user's
 * settings name (never one a workspace names), and says which ran.
 */
@injectable()
export class KeepAwakeClientImpl implements KeepAwakeClient {
    @inject(CommandRegistry) protected readonly commands: CommandRegistry;
    @inject(ExecutionSettings) protected readonly settings: ExecutionSettings;
    @inject(ILogger) @named('ai-cli-core:keep-awake') protected readonly logger: ILogger;

    protected readonly onDidChangeStateEmitter = new Emitter<KeepAwakeState>();
    readonly onDidChangeState: Event<KeepAwakeState> = this.onDidChangeStateEmitter.event;
    protected readonly warned = new Set<string>();

    /** The activity commands this window would run now. */
    availableMechanisms(): string[] {
        const userCommand = this.settings.get<string>(KEEP_AWAKE_COMMAND_PREF)?.trim();
        return [
            ...this.commands.getCommand(THEIA_CLOUD_ACTIVITY_COMMAND) ? [THEIA_CLOUD_MONITOR_MECHANISM] : [],
            ...userCommand && userCommand !== THEIA_CLOUD_ACTIVITY_COMMAND && this.commands.getCommand(userCommand) ? [`the command ${userCommand}`] : []
        ];
    }

    async reportActivity(reason: string): Promise<string[]> {
        const ran: string[] = [];
        if (this.commands.getCommand(THEIA_CLOUD_ACTIVITY_COMMAND) && await this.run(THEIA_CLOUD_ACTIVITY_COMMAND, reason)) {
            ran.push(THEIA_CLOUD_MONITOR_MECHANISM);
        }
        const userCommand = this.settings.get<string>(KEEP_AWAKE_COMMAND_PREF)?.trim();
        if (userCommand && userCommand !== THEIA_CLOUD_ACTIVITY_COMMAND) {
            if (!this.commands.getCommand(userCommand)) {
                this.warnOnce(userCommand, `${KEEP_AWAKE_COMMAND_PREF} names "${userCommand}", which no extension of this window registered`);
            } else if (await this.run(userCommand, reason)) {
                ran.push(`the command ${userCommand}`);
            }
        }
        return ran;
    }

    protected async run(command: string, reason: string): Promise<boolean> {
        try {
            await this.commands.executeCommand(command, reason);
            return true;
        } catch (error) {
            this.warnOnce(command, `the activity command "${command}" failed: ${error}`);
            return false;
        }
    }

    stateChanged(state: KeepAwakeState): void {
        this.onDidChangeStateEmitter.fire(state);
    }

    protected warnOnce(key: string, message: string): void {
        if (!this.warned.has(key)) {
            this.warned.add(key);
            this.logger.warn(`Keeping the workspace awake: ${message}`);
        }
    }
}
