import * as os from 'os';
import * as vscode from 'vscode';
import { CLI_FLAVOUR_IDS, CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { buildDiagnosticReport } from '@theia-cli-companion/ide-companion-server/lib/common';
import { findExecutable } from '@theia-cli-companion/cli-process/lib/node';
import { CompanionSettings, SECTION } from './companion-settings';
import type { WindowHost } from './window-host';

/**
 * The diagnostic report of this window, built by the same function as the Theia host's: the server's
 * status (ports, paths, sessions; never a token), the settings, where each CLI's command resolves, and
 * the window's recent events (which never hold a token or file contents).
 */
export async function hostDiagnosticReport(host: WindowHost, settings: CompanionSettings, extension: vscode.Extension<unknown>): Promise<string> {
    const executables: Partial<Record<CliFlavourId, string>> = {};
    await Promise.all(CLI_FLAVOUR_IDS.map(async id => {
        const [command] = settings.commandLine(id);
        executables[id] = await findExecutable(command).catch(() => undefined) ?? `"${command}" not found`;
    }));
    const configuration = vscode.workspace.getConfiguration(SECTION);
    const properties: Record<string, unknown> = extension.packageJSON?.contributes?.configuration?.properties ?? {};
    const preferences: Record<string, unknown> = {};
    for (const name of Object.keys(properties)) {
        preferences[name] = configuration.get(name.slice(SECTION.length + 1));
    }
    return buildDiagnosticReport({
        generatedAt: new Date(),
        state: host.status ? 'running' : settings.enabled ? 'not running' : 'disabled',
        status: host.status,
        versions: { [extension.id]: String(extension.packageJSON?.version ?? 'unknown'), [vscode.env.appName]: vscode.version },
        browser: `${vscode.env.appHost} (${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'})`,
        backendOs: `${os.type()} ${os.release()} ${os.arch()}`,
        executables,
        preferences,
        events: host.events
    });
}
