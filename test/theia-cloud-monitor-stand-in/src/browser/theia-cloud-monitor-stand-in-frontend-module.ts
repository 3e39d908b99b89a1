import { ContainerModule, injectable } from '@theia/core/shared/inversify';
import { CommandContribution, CommandRegistry } from '@theia/core/lib/common/command';

/** One call of the monitor's command, as the test reads it from the page. */
export interface MonitorReport {
    readonly at: number;
    readonly reason?: unknown;
}

/**
 * Test only: what Theia Cloud's monitor extension offers other extensions, its activity command
 * (theia-cloud `node/monitor` and `theia/extensions/monitor-theia`: `theia.cloud.monitor.activity.report`,
 * one optional reason). Instead of telling an operator, each call is kept in `window.theiaCloudMonitorReports`.
 */
@injectable()
class MonitorCommandStandIn implements CommandContribution {
    registerCommands(commands: CommandRegistry): void {
        const reports: MonitorReport[] = [];
        (window as unknown as { theiaCloudMonitorReports: MonitorReport[] }).theiaCloudMonitorReports = reports;
        commands.registerCommand({ id: 'theia.cloud.monitor.activity.report' }, {
            execute: (reason?: unknown) => {
                reports.push({ at: Date.now(), reason });
            }
        });
    }
}

export default new ContainerModule(bind => {
    bind(CommandContribution).to(MonitorCommandStandIn).inSingletonScope();
});
