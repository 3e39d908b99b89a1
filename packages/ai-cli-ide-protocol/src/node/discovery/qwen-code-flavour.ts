import * as os from 'os';
import * as path from 'path';
import { isCompanionFile, THEIA_IDE_INFO } from '../../common/companion-identity';
import { QwenLockFileSchema, StdioConfig } from '../../common/discovery-files';
import { joinWorkspacePaths } from '../../common/workspace-path';
import { CLI_CATALOGUE } from '@theia-cli-companion/cli-process/lib/common';
import { CliFlavour, DiscoveryEndpoint, OwnedDiscoveryFile } from './cli-flavour';
import { geminiDiscoveryLocation } from '../gemini-discovery-location';
import { currentProcessIdentity } from '@theia-cli-companion/cli-process/lib/node';
import { safeJson } from '../../common/safe-json';

const FILE_NAME = /^(\d+)\.lock$/;

export const QwenCodeFlavour: CliFlavour = Object.freeze({
    id: 'qwen',
    displayName: CLI_CATALOGUE.qwen.displayName,
    transport: CLI_CATALOGUE.qwen.ideMode.transport,

    discoveryDirectory(): string {
        return path.join(qwenHome(process.env), 'ide');
    },

    discoveryFileName(endpoint: DiscoveryEndpoint): string {
        return `${endpoint.port}.lock`;
    },

    discoveryFileContent(endpoint: DiscoveryEndpoint, stdio?: StdioConfig): object {
        return QwenLockFileSchema.parse({
            port: endpoint.port,
            workspacePath: joinWorkspacePaths(endpoint.workspaceRoots, path.delimiter),
            authToken: endpoint.authToken,
            // Qwen deletes any lock whose ppid is dead while it scans: the backend lives as long as the server.
            ppid: endpoint.serverPid,
            ideName: (endpoint.ideInfo ?? THEIA_IDE_INFO).displayName,
            ideInfo: { ...(endpoint.ideInfo ?? THEIA_IDE_INFO) },
            ...(stdio ? { stdio } : {}),
            theiaCompanion: currentProcessIdentity()
        });
    },

    terminalEnvironment(endpoint: DiscoveryEndpoint): Record<string, string> {
        const { terminalTmpdir } = geminiDiscoveryLocation();
        return {
            QWEN_CODE_IDE_SERVER_PORT: String(endpoint.port),
            QWEN_CODE_IDE_WORKSPACE_PATH: joinWorkspacePaths(endpoint.workspaceRoots, path.delimiter),
            // Its fallback reads os.tmpdir()/qwen-code-ide-server-<pid|port>.json: where another account
            // holds <tmpdir>/gemini, the terminals' TMPDIR is the private directory, for Qwen Code too.
            ...(terminalTmpdir ? { TMPDIR: terminalTmpdir } : {})
        };
    },

    ownedFile(fileName: string, content: string): OwnedDiscoveryFile | undefined {
        if (!FILE_NAME.test(fileName)) {
            return undefined;
        }
        const parsed = QwenLockFileSchema.safeParse(safeJson(content));
        if (!parsed.success || !isCompanionFile(parsed.data.ideInfo.name, parsed.data.theiaCompanion)) {
            return undefined;
        }
        return { pid: parsed.data.ppid, port: parsed.data.port, writer: parsed.data.theiaCompanion };
    }
});

/** `${QWEN_HOME:-~/.qwen}` as Qwen Code's `Storage.getGlobalQwenDir()` resolves it. */
export function qwenHome(env: NodeJS.ProcessEnv): string {
    const configured = env.QWEN_HOME;
    if (configured) {
        const expanded = configured === '~' || configured.startsWith('~/')
            ? path.join(homeOf(env), configured.slice(1))
            : configured;
        return path.resolve(expanded);
    }
    return path.join(homeOf(env), '.qwen');
}

function homeOf(env: NodeJS.ProcessEnv): string {
    return env.HOME || os.homedir() || os.tmpdir();
}
