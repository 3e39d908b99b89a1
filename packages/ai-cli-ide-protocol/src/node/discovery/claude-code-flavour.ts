import * as os from 'os';
import * as path from 'path';
import { isCompanionFile, THEIA_IDE_INFO } from '../../common/companion-identity';
import { CLAUDE_CODE_PORT_VARIABLE, ClaudeLockFileSchema } from '../../common/claude-code-ide';
import { CLI_CATALOGUE } from '@theia-cli-companion/cli-process/lib/common';
import { CliFlavour, DiscoveryEndpoint, OwnedDiscoveryFile } from './cli-flavour';
import { currentProcessIdentity } from '@theia-cli-companion/cli-process/lib/node';
import { safeJson } from '../../common/safe-json';

const FILE_NAME = /^(\d+)\.lock$/;

/**
 * Claude Code: a lock file named after the port of the window's WebSocket endpoint (not its HTTP
 * one), with the folders and the secret; `CLAUDE_CODE_SSE_PORT` in the terminals. No stdio relay:
 * the CLI dials 127.0.0.1 inside containers too.
 */
export const ClaudeCodeFlavour: CliFlavour = Object.freeze({
    id: 'claude',
    displayName: CLI_CATALOGUE.claude.displayName,
    transport: CLI_CATALOGUE.claude.ideMode.transport,

    discoveryDirectory(): string {
        return path.join(claudeConfigDir(process.env), 'ide');
    },

    discoveryFileName(endpoint: DiscoveryEndpoint): string {
        return `${endpoint.port}.lock`;
    },

    discoveryFileContent(endpoint: DiscoveryEndpoint): object {
        return ClaudeLockFileSchema.parse({
            // The CLI deletes locks whose pid is not alive: the backend serves the socket.
            pid: endpoint.serverPid,
            workspaceFolders: [...endpoint.workspaceRoots],
            ideName: (endpoint.ideInfo ?? THEIA_IDE_INFO).displayName,
            transport: 'ws',
            authToken: endpoint.authToken,
            runningInWindows: process.platform === 'win32',
            theiaCompanion: currentProcessIdentity()
        });
    },

    terminalEnvironment(endpoint: DiscoveryEndpoint): Record<string, string> {
        return { [CLAUDE_CODE_PORT_VARIABLE]: String(endpoint.port) };
    },

    ownedFile(fileName: string, content: string): OwnedDiscoveryFile | undefined {
        const match = FILE_NAME.exec(fileName);
        if (!match) {
            return undefined;
        }
        const parsed = ClaudeLockFileSchema.safeParse(safeJson(content));
        if (!parsed.success || !isCompanionFile(parsed.data.ideName, parsed.data.theiaCompanion)) {
            return undefined;
        }
        return { pid: parsed.data.pid, port: Number(match[1]), writer: parsed.data.theiaCompanion };
    }
});

/** `${CLAUDE_CONFIG_DIR:-~/.claude}`, where Claude Code keeps its settings and `ide/` lock files. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
    if (env.CLAUDE_CONFIG_DIR) {
        return path.resolve(env.CLAUDE_CONFIG_DIR);
    }
    return path.join(env.HOME || os.homedir() || os.tmpdir(), '.claude');
}
