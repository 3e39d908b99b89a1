import * as React from '@theia/core/shared/react';
import { inject, injectable, named, postConstruct } from '@theia/core/shared/inversify';
import { ContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { codicon } from '@theia/core/lib/browser/widgets/widget';
import { ReactWidget } from '@theia/core/lib/browser/widgets/react-widget';
import { CommandService } from '@theia/core/lib/common/command';
import { nls } from '@theia/core/lib/common/nls';
import { CLI_FLAVOUR_DISPLAY_NAMES, CLI_FLAVOUR_IDS } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { StorageUsage, StorageUsageService, WindowServerStatus } from '@theia-cli-companion/ai-cli-core/lib/common';
import { CompanionCommands } from '../companion-commands';
import '../../../src/browser/style/companion-status.css';
import { DiffReviewService, StatusViewSection, WindowServerService, WindowServerState } from '@theia-cli-companion/ai-cli-core/lib/browser';

/** "CLI Companion: Show Status": what this window's server is, who is connected, what waits for review. */
@injectable()
export class CompanionStatusWidget extends ReactWidget {
    static readonly ID = 'ai-cli-companion-status';
    static readonly LABEL = nls.localize('theia-cli-companion/ide-companion/statusViewTitle', 'CLI Companion');

    @inject(WindowServerService) protected readonly companion: WindowServerService;
    @inject(DiffReviewService) protected readonly diffs: DiffReviewService;
    @inject(CommandService) protected readonly commands: CommandService;
    @inject(StorageUsageService) protected readonly storageUsage: StorageUsageService;
    @inject(ContributionProvider) @named(StatusViewSection) protected readonly sections: ContributionProvider<StatusViewSection>;

    /** The stores' sizes as last asked (on opening the view and on Refresh), or why they could not be read. */
    protected storage?: StorageUsage[] | { error: string };

    @postConstruct()
    protected init(): void {
        this.id = CompanionStatusWidget.ID;
        this.title.label = CompanionStatusWidget.LABEL;
        this.title.caption = CompanionStatusWidget.LABEL;
        this.title.iconClass = codicon('plug');
        this.title.closable = true;
        this.addClass('ai-cli-companion-status');
        this.toDispose.push(this.companion.onDidChangeState(() => this.update()));
        this.toDispose.push(this.diffs.onDidChange(() => this.update()));
        this.sections.getContributions().forEach(section => this.toDispose.push(section.onDidChange(() => this.update())));
        this.update();
        void this.refreshStorage();
    }

    protected async refreshStorage(): Promise<void> {
        try {
            this.storage = await this.storageUsage.usage();
        } catch (error) {
            this.storage = { error: error instanceof Error ? error.message : String(error) };
        }
        this.update();
    }

    protected render(): React.ReactNode {
        const state = this.companion.state;
        return <div className='ai-cli-companion-status-body' style={{ padding: '8px 16px', overflow: 'auto', height: '100%', boxSizing: 'border-box' }}>
            <h2>{nls.localize('theia-cli-companion/ide-companion/statusHeading', 'CLI Companion for this window')}</h2>
            <p className='ai-cli-companion-state'>{this.describeState(state)}</p>
            {this.renderActions(state)}
            {state.kind === 'running' && this.renderStatus(state.status)}
            {this.sections.getContributions().map(section => this.renderSection(section))}
            {this.renderStorage()}
        </div>;
    }

    protected describeState(state: WindowServerState): string {
        switch (state.kind) {
            case 'running': return nls.localize('theia-cli-companion/ide-companion/stateRunning', 'Running on 127.0.0.1:{0}', String(state.status.port));
            case 'starting': return nls.localize('theia-cli-companion/ide-companion/stateStarting', 'Starting…');
            case 'disabled': return nls.localize('theia-cli-companion/ide-companion/stateDisabled',
                'Turned off in the preferences (aiCliCompanion.enabled, or every CLI turned off): CLIs in this window\'s terminals run without IDE mode.');
            case 'failed': return nls.localize('theia-cli-companion/ide-companion/stateFailed', 'Could not start: {0}', state.error);
        }
    }

    protected renderActions(state: WindowServerState): React.ReactNode {
        const button = (id: string, label: string, primary = false) =>
            <button key={id} className={`theia-button${primary ? '' : ' secondary'}`} data-command={id} onClick={() => this.commands.executeCommand(id)}>{label}</button>;
        return <div className='ai-cli-companion-actions' style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
            {CLI_FLAVOUR_IDS.map(id => button(CompanionCommands.RUN[id].id, CompanionCommands.RUN[id].label!, true))}
            {button(CompanionCommands.COPY_DIAGNOSTICS.id, CompanionCommands.COPY_DIAGNOSTICS.label!)}
            {button(CompanionCommands.SHOW_LOG.id, CompanionCommands.SHOW_LOG.label!)}
            {button(CompanionCommands.OPEN_SETTINGS.id, CompanionCommands.OPEN_SETTINGS.label!)}
            {state.kind === 'running'
                ? button(CompanionCommands.TURN_OFF.id, CompanionCommands.TURN_OFF.label!)
                : state.kind !== 'starting' && button(CompanionCommands.TURN_ON.id, CompanionCommands.TURN_ON.label!)}
        </div>;
    }

    /** A section another extension adds (StatusViewSection): its heading, and a row per item with its action. */
    protected renderSection(section: StatusViewSection): React.ReactNode {
        const { heading, rows, empty } = section.content();
        return <section key={section.id} className='ai-cli-companion-section' data-section={section.id}>
            <h3>{heading}</h3>
            {rows.length === 0
                ? <p>{empty}</p>
                : <table><tbody>{rows.map(row => <tr key={row.id} data-row={row.id}>
                    <th>{row.label}</th>
                    <td>{row.detail}</td>
                    <td>{row.action && <button className='theia-button secondary' onClick={() => row.action!.run()}>{row.action.label}</button>}</td>
                </tr>)}</tbody></table>}
        </section>;
    }

    protected renderStorage(): React.ReactNode {
        const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
        const labels: Record<string, string> = {
            'acp-checkpoints': nls.localize('theia-cli-companion/ide-companion/storeCheckpoints', 'Chat turn checkpoints'),
            'agent-tasks': nls.localize('theia-cli-companion/ide-companion/storeAgentTasks', 'Agent tasks')
        };
        const storage = this.storage;
        return <>
            <h3>{nls.localize('theia-cli-companion/ide-companion/storageHeading', 'Disk space used')}
                {' '}<button className='theia-button secondary ai-cli-companion-storage-refresh' onClick={() => this.refreshStorage()}>
                    {nls.localize('theia-cli-companion/ide-companion/refresh', 'Refresh')}</button></h3>
            {!storage
                ? <p>{nls.localize('theia-cli-companion/ide-companion/storageMeasuring', 'Measuring…')}</p>
                : 'error' in storage
                    ? <p>{nls.localize('theia-cli-companion/ide-companion/storageFailed', 'Could not be measured: {0}', storage.error)}</p>
                    : <table className='ai-cli-companion-storage'><tbody>{storage.map(store => <tr key={store.id} data-store={store.id} title={store.path}>
                        <th>{labels[store.id] ?? store.label}</th>
                        <td className='ai-cli-companion-storage-total'>{mib(store.bytes)}</td>
                        <td>{store.parts.map(part => `${part.name} ${mib(part.bytes)}`).join(', ')}
                            {store.limit && ` · ${nls.localize('theia-cli-companion/ide-companion/storageLimit', '{0} of at most {1} ({2})',
                                mib(store.parts.filter(part => store.limit!.counts.includes(part.name)).reduce((sum, part) => sum + part.bytes, 0)),
                                mib(store.limit.bytes), store.limit.counts.join(' + '))}`}</td>
                    </tr>)}</tbody></table>}
        </>;
    }

    protected renderStatus(status: WindowServerStatus): React.ReactNode {
        const time = (millis: number) => new Date(millis).toLocaleTimeString();
        return <>
            <h3>{nls.localize('theia-cli-companion/ide-companion/serverHeading', 'Server')}</h3>
            <table className='ai-cli-companion-server'><tbody>
                <tr><th>{nls.localize('theia-cli-companion/ide-companion/address', 'Address')}</th><td>127.0.0.1:{status.port}</td></tr>
                <tr><th>{nls.localize('theia-cli-companion/ide-companion/workspace', 'Workspace')}</th>
                    <td>{status.workspaceRoots.length
                        ? status.workspaceRoots.join(', ')
                        : nls.localize('theia-cli-companion/ide-companion/noFolderOpen', 'No folder open: CLIs will ask you to open one')}</td></tr>
                {CLI_FLAVOUR_IDS.map(id => {
                    const file = status.discoveryFiles.find(candidate => candidate.flavour === id);
                    return <tr key={id} className='ai-cli-companion-flavour' data-flavour={id}>
                        <th>{CLI_FLAVOUR_DISPLAY_NAMES[id]}</th>
                        <td>{file
                            ? nls.localize('theia-cli-companion/ide-companion/advertisedIn', 'Advertised in {0}', file.path)
                            : nls.localize('theia-cli-companion/ide-companion/notAdvertised', 'Not advertised (turned off in the preferences)')}
                        {file?.placement && <div className='ai-cli-companion-placement'>
                            {nls.localize('theia-cli-companion/ide-companion/placement', 'In {0}', file.placement)}
                        </div>}</td>
                    </tr>;
                })}
            </tbody></table>
            <h3>{nls.localize('theia-cli-companion/ide-companion/sessionsHeading', 'Connected CLI sessions ({0})', String(status.sessions.length))}</h3>
            {status.sessions.length === 0
                ? <p>{nls.localize('theia-cli-companion/ide-companion/noSessionsHint',
                    'None. Run a CLI from the buttons above, or run `gemini` / `qwen` in a terminal of this window and enter `/ide enable`.')}</p>
                : <table className='ai-cli-companion-sessions'>
                    <thead><tr>
                        <th>{nls.localize('theia-cli-companion/ide-companion/cli', 'CLI')}</th>
                        <th>{nls.localize('theia-cli-companion/ide-companion/client', 'Client')}</th>
                        <th>{nls.localize('theia-cli-companion/ide-companion/connectedSince', 'Connected since')}</th>
                        <th>{nls.localize('theia-cli-companion/ide-companion/pendingDiffs', 'Diffs waiting')}</th>
                    </tr></thead>
                    <tbody>{status.sessions.map(session => <tr key={session.sessionId} className='ai-cli-companion-session' title={session.sessionId}>
                        <td>{session.clientLabel}</td>
                        <td>{session.clientName} {session.clientVersion}</td>
                        <td>{time(session.connectedAt)}</td>
                        <td>{status.pendingDiffs.filter(diff => diff.sessionId === session.sessionId).length}</td>
                    </tr>)}</tbody>
                </table>}
            <h3>{nls.localize('theia-cli-companion/ide-companion/diffsHeading', 'Diffs waiting for review ({0})', String(status.pendingDiffs.length))}</h3>
            {status.pendingDiffs.length === 0
                ? <p>{nls.localize('theia-cli-companion/ide-companion/noDiffs', 'None.')}</p>
                : <ul className='ai-cli-companion-diffs'>{status.pendingDiffs.map(diff => <li key={diff.id}>
                    <a href='#' onClick={event => { event.preventDefault(); this.diffs.reveal(diff.id); }}>{diff.filePath}</a>
                    {' '}{nls.localize('theia-cli-companion/ide-companion/since', 'since {0}', time(diff.openedAt))}
                </li>)}</ul>}
            <h3>{nls.localize('theia-cli-companion/ide-companion/terminalVariables', 'Variables of this window\'s terminals')}</h3>
            <pre className='ai-cli-companion-env' style={{ whiteSpace: 'pre-wrap' }}>
                {Object.entries(status.terminalEnvironment).map(([name, value]) => `${name}=${value}`).join('\n')}
            </pre>
        </>;
    }
}
