// inversify reads the decorators' metadata: the polyfill comes before anything of the window's graph loads.
import 'reflect-metadata';
import * as vscode from 'vscode';
import { CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { ChangeReview } from './change-review';
import { sendToClaude } from './claude-mention';
import { CliLauncher } from './cli-launcher';
import { showCompanionMenu } from './companion-menu';
import { CompanionSettings } from './companion-settings';
import { CompanionStatusBar, SHOW_MENU_COMMAND, SHOW_STATUS_COMMAND } from './companion-status-bar';
import { hostDiagnosticReport } from './host-diagnostic-report';
import { OutputChannelLogger } from './output-channel-logger';
import { PendingChangesNode, PendingChangesView } from './pending-changes-view';
import { pickReviewPace } from './review-pace-picker';
import { showStatus } from './show-status';
import { TerminalEnvironment } from './terminal-environment';
import { WindowHost } from './window-host';

let host: WindowHost | undefined;

/** Builds the window's companion and registers its commands; resolves once its server is serving. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const channel = vscode.window.createOutputChannel(vscode.l10n.t('AI CLI Companion'), { log: true });
    const logger = new OutputChannelLogger(channel);
    const settings = new CompanionSettings(logger);
    const statusBar = new CompanionStatusBar();
    host = new WindowHost(settings, logger, new TerminalEnvironment(context.environmentVariableCollection), statusBar,
        context.asAbsolutePath('dist/stdio-bridge.js'));
    const windowHost = host;
    const { diffs, applied } = windowHost;
    const launcher = new CliLauncher(settings, logger);
    const changes = new ChangeReview(diffs);
    const pendingView = new PendingChangesView(diffs, applied);
    const run = (flavour: CliFlavourId) => () => launcher.run(flavour);
    /** A review command's target: a Pending Changes row, a diff side (the editor title's action), or the active editor. */
    const reviewOf = (arg: unknown): vscode.Uri | string | undefined =>
        PendingChangesNode.is(arg) ? (arg.kind === 'proposal' ? arg.id : undefined) : arg instanceof vscode.Uri ? arg : undefined;
    const groupOf = (arg: unknown): string | undefined => PendingChangesNode.is(arg) && arg.kind === 'session' ? arg.groupId : undefined;
    const register = (id: string, handler: (...args: unknown[]) => unknown) => vscode.commands.registerCommand(`aiCliCompanion.${id}`, handler);
    context.subscriptions.push(channel, statusBar, changes, pendingView, { dispose: () => void windowHost.dispose() },
        register('acceptDiff', arg => diffs.accept(reviewOf(arg))),
        register('rejectDiff', arg => diffs.reject(reviewOf(arg))),
        register('acceptAllDiffs', arg => diffs.acceptAll(groupOf(arg))),
        register('rejectAllDiffs', arg => diffs.rejectAll(groupOf(arg))),
        register('closeAllDiffs', () => diffs.rejectAll()),
        register('acceptChange', () => changes.acceptChange()),
        register('rejectChange', () => changes.rejectChange()),
        register('nextChange', () => changes.next()),
        register('previousChange', () => changes.previous()),
        register('reviewPending', () => diffs.showPending()),
        register('openPendingChange', id => typeof id === 'string' ? diffs.showReview(id) : undefined),
        register('showPendingChanges', () => pendingView.reveal()),
        register('undoAppliedChange', arg => PendingChangesNode.is(arg) && arg.kind === 'applied' ? applied.undo(arg.id) : undefined),
        register('setReviewPace', () => pickReviewPace(settings)),
        register('sendToClaude', (uri, selected) => sendToClaude(windowHost, uri instanceof vscode.Uri ? uri : undefined,
            Array.isArray(selected) ? selected.filter((item): item is vscode.Uri => item instanceof vscode.Uri) : undefined)),
        vscode.commands.registerCommand(SHOW_STATUS_COMMAND, () => showStatus(windowHost, channel)),
        vscode.commands.registerCommand(SHOW_MENU_COMMAND, () => showCompanionMenu(windowHost)),
        register('showLog', () => channel.show(true)),
        register('copyDiagnosticReport', async () => {
            await vscode.env.clipboard.writeText(await hostDiagnosticReport(windowHost, settings, context.extension));
            void vscode.window.showInformationMessage(vscode.l10n.t('The diagnostic report is on the clipboard. It holds no token or file content.'));
        }),
        register('runGemini', run('gemini')),
        register('runQwen', run('qwen')),
        register('runClaude', run('claude')));
    await host.start();
}

/** The host awaits this: the server stops and its discovery files go. */
export async function deactivate(): Promise<void> {
    await host?.dispose();
    host = undefined;
}
