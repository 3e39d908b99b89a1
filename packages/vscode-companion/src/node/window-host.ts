import { randomUUID } from 'crypto';
import * as vscode from 'vscode';
import { CLI_FLAVOUR_DISPLAY_NAMES, ClaudeAtMentioned, IdeInfo, StdioConfig, THEIA_IDE_INFO } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { WindowEvent } from '@theia-cli-companion/ide-companion-server/lib/common';
import { IDE_MODE_FLAVOURS, removeStaleDiscoveryFiles } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import type { WindowLogger, WindowServer } from '@theia-cli-companion/ide-companion-server/lib/node';
import { createWindowServer, claudeWindowModule } from '@theia-cli-companion/ide-companion-server/lib/node/window';
import { AppliedChanges } from './applied-changes';
import type { CompanionSettings } from './companion-settings';
import type { CompanionStatusBar } from './companion-status-bar';
import { DiffReview } from './diff-review';
import { EditorStateTracker } from './editor-state-tracker';
import { HostWindowClient } from './host-window-client';
import type { TerminalEnvironment } from './terminal-environment';

/**
 * This window's companion server, for as long as the extension host runs and the user keeps it on:
 * one server per window (each window has an extension host of its own), advertising the CLIs the
 * settings turn on, for the window's `file:` folders. Settings, folders and trust are followed live.
 */
export class WindowHost implements vscode.Disposable {
    protected companion?: WindowServer;
    protected starting?: Promise<void>;
    protected tracker?: EditorStateTracker;
    readonly diffs: DiffReview;
    /** Changes applied without a review (pace "accept automatically"), for Undo while the server runs. */
    readonly applied: AppliedChanges;
    protected readonly toDispose: vscode.Disposable[] = [];
    protected readonly toDisposeOnStop: { dispose(): unknown }[] = [];
    /** The process may end without deactivate: the discovery files go anyway. */
    protected readonly removeFilesOnExit = (): void => this.companion?.removeDiscoveryFilesSync();

    constructor(
        protected readonly settings: CompanionSettings,
        protected readonly logger: WindowLogger,
        protected readonly terminals: TerminalEnvironment,
        protected readonly statusBar: CompanionStatusBar,
        protected readonly bridgeScript: string
    ) {
        this.applied = new AppliedChanges(() => this.companion?.applied, logger);
        this.diffs = new DiffReview((id, outcome) => this.requireCompanion().diffs.resolve(id, outcome), logger, settings, this.applied);
        this.toDispose.push(this.diffs, this.applied,
            this.diffs.onDidChangePending(pending => this.statusBar.update(this.companion?.status, pending)),
            vscode.workspace.onDidChangeWorkspaceFolders(() => this.run(async companion => companion.setRoots(this.roots))),
            vscode.workspace.onDidChangeConfiguration(event => {
                if (this.settings.affects(event, 'enabled')) {
                    void (this.settings.enabled ? this.start() : this.stop());
                } else if (['gemini', 'qwen', 'claude'].some(id => this.settings.affects(event, `${id}.enabled`))) {
                    this.run(companion => companion.setFlavours(this.settings.flavours));
                }
            }));
        process.on('exit', this.removeFilesOnExit);
    }

    get status(): WindowServer['status'] | undefined {
        return this.companion?.status;
    }

    /** The window's recent events, as its log shows them (never a token or file contents). */
    get events(): WindowEvent[] {
        return this.companion?.log.recent ?? [];
    }

    /** "Send Selection to Claude Code": answers how many Claude Code sessions got the mention. */
    sendAtMention(mention: ClaudeAtMentioned): Promise<number> {
        return this.requireCompanion().sendAtMention(mention);
    }

    protected get roots(): string[] {
        return (vscode.workspace.workspaceFolders ?? []).filter(folder => folder.uri.scheme === 'file').map(folder => folder.uri.fsPath);
    }

    /** Starts the window's server if the settings say so; resolves once its discovery files are on disk. */
    start(): Promise<void> {
        if (!this.settings.enabled || this.companion) {
            return this.starting ?? Promise.resolve();
        }
        return this.starting ??= this.doStart().finally(() => this.starting = undefined);
    }

    protected async doStart(): Promise<void> {
        const flavours = Object.values(IDE_MODE_FLAVOURS);
        for (const flavour of flavours) {
            try {
                const { removed } = await removeStaleDiscoveryFiles(flavour);
                removed.forEach(({ file, reason }) => this.logger.info(`Removed stale ${flavour.displayName} discovery file ${file}: ${reason}`));
            } catch (error) {
                this.logger.warn(`Could not scan ${flavour.displayName} discovery files: ${describeError(error)}`);
            }
        }
        const companion = createWindowServer({
            windowId: randomUUID(),
            flavours,
            logger: this.logger,
            serverPid: process.pid,
            stdioFor: discoveryFile => this.stdioFor(discoveryFile),
            ideInfo: hostIdeInfo()
        }, undefined, [claudeWindowModule]);
        const client = new HostWindowClient(this.diffs, status => this.onStatus(status));
        this.toDisposeOnStop.push(companion.attachFrontend(client), companion.onDidChangeStatus(status => this.onStatus(status)));
        try {
            await companion.start(this.roots, this.settings.flavours);
        } catch (error) {
            this.toDisposeOnStop.splice(0).forEach(disposable => disposable.dispose());
            await companion.stop().catch(() => undefined);
            this.logger.error(`The companion server did not start: ${describeError(error)}`);
            void vscode.window.showErrorMessage(vscode.l10n.t('AI CLI Companion could not start its server: {0}', describeError(error)));
            return;
        }
        this.companion = companion;
        this.tracker = new EditorStateTracker(this.settings, state => companion.setEditorState(state),
            error => this.logger.warn(`Could not send the editor state: ${describeError(error)}`));
        this.toDisposeOnStop.push(this.tracker);
        this.tracker.sendNow();
        this.onStatus(companion.status);
        this.logger.info(`Serving ${companion.status.flavours.map(id => CLI_FLAVOUR_DISPLAY_NAMES[id]).join(', ') || 'no CLI'} on 127.0.0.1:${companion.status.port}`);
    }

    /** Stops the server: its discovery files go, its CLIs disconnect, open proposals close unanswered. */
    async stop(): Promise<void> {
        await this.starting;
        const companion = this.companion;
        this.companion = undefined;
        this.tracker = undefined;
        this.toDisposeOnStop.splice(0).forEach(disposable => disposable.dispose());
        this.terminals.clear();
        this.statusBar.update(undefined);
        this.applied.clear();
        if (companion) {
            await this.diffs.clear();
            await companion.stop();
        }
    }

    async dispose(): Promise<void> {
        process.off('exit', this.removeFilesOnExit);
        this.toDispose.splice(0).forEach(disposable => disposable.dispose());
        await this.stop();
    }

    protected onStatus(status: WindowServer['status']): void {
        this.terminals.apply(status.terminalEnvironment);
        this.statusBar.update(status, this.diffs.pending.length);
    }

    /** The discovery files' `stdio` entry: the relay bundled with the extension, run by the host's Node. */
    protected stdioFor(discoveryFile: string): StdioConfig {
        return { command: process.execPath, args: [this.bridgeScript, '--discovery', discoveryFile] };
    }

    protected run(change: (companion: WindowServer) => Promise<void>): void {
        const companion = this.companion;
        if (companion) {
            change(companion).catch(error => this.logger.warn(`Could not update the companion server: ${describeError(error)}`));
        }
    }

    protected requireCompanion(): WindowServer {
        if (!this.companion) {
            throw new Error('The companion server of this window is not running');
        }
        return this.companion;
    }
}

/**
 * How the window names itself to the CLIs: the host's application name (code-server, OpenVSCode
 * Server, the Theia IDE). Never `vscode`: the Gemini CLI would try to install its own companion.
 */
export function hostIdeInfo(appName = vscode.env.appName): IdeInfo {
    if (/theia/i.test(appName)) {
        return { ...THEIA_IDE_INFO };
    }
    const name = appName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'vscode-api-host';
    return { name: name === 'vscode' ? 'vscode-api-host' : name, displayName: appName || 'VS Code-API host' };
}
