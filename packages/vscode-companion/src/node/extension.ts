// inversify reads the decorators' metadata: the polyfill comes before anything of the window's graph loads.
import 'reflect-metadata';
import * as vscode from 'vscode';
import { CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { CliLauncher } from './cli-launcher';
import { CompanionSettings } from './companion-settings';
import { CompanionStatusBar, SHOW_STATUS_COMMAND } from './companion-status-bar';
import { OutputChannelLogger } from './output-channel-logger';
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
    const launcher = new CliLauncher(settings, logger);
    const windowHost = host;
    const run = (flavour: CliFlavourId) => () => launcher.run(flavour);
    context.subscriptions.push(channel, statusBar, { dispose: () => void windowHost.dispose() },
        vscode.commands.registerCommand('aiCliCompanion.acceptDiff', (uri?: vscode.Uri) => windowHost.diffs.accept(uri)),
        vscode.commands.registerCommand('aiCliCompanion.rejectDiff', (uri?: vscode.Uri) => windowHost.diffs.reject(uri)),
        vscode.commands.registerCommand('aiCliCompanion.reviewPending', () => windowHost.diffs.showPending()),
        vscode.commands.registerCommand(SHOW_STATUS_COMMAND, () => showStatus(windowHost, channel)),
        vscode.commands.registerCommand('aiCliCompanion.runGemini', run('gemini')),
        vscode.commands.registerCommand('aiCliCompanion.runQwen', run('qwen')),
        vscode.commands.registerCommand('aiCliCompanion.runClaude', run('claude')));
    await host.start();
}

/** The host awaits this: the server stops and its discovery files go. */
export async function deactivate(): Promise<void> {
    await host?.dispose();
    host = undefined;
}
