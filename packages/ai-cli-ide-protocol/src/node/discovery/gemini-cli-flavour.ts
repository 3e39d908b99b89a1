import * as path from 'path';
import { isCompanionFile, THEIA_IDE_INFO } from '../../common/companion-identity';
import { GeminiDiscoveryFileSchema, StdioConfig } from '../../common/discovery-files';
import { joinWorkspacePaths } from '../../common/workspace-path';
import { safeJson } from '../../common/safe-json';
import { CLI_CATALOGUE } from '@theia-cli-companion/cli-process/lib/common';
import { CliFlavour, DiscoveryEndpoint, OwnedDiscoveryFile } from './cli-flavour';
import { geminiDiscoveryLocation } from '../gemini-discovery-location';
import { currentProcessIdentity } from '@theia-cli-companion/cli-process/lib/node';

/** The pattern the Gemini CLI scans for (`ide-connection-utils.ts`); the legacy `-<PID>.json` name is never written. */
const FILE_NAME = /^gemini-ide-server-(\d+)-(\d+)\.json$/;

export const GeminiCliFlavour: CliFlavour = Object.freeze({
    id: 'gemini',
    displayName: CLI_CATALOGUE.gemini.displayName,
    transport: CLI_CATALOGUE.gemini.ideMode.transport,

    discoveryDirectory(): string {
        // The CLI looks under os.tmpdir(): the standard <tmpdir>/gemini/ide when it is this user's alone.
        return geminiDiscoveryLocation().directory;
    },

    describeDiscoveryDirectory(): string {
        return geminiDiscoveryLocation().reason;
    },

    discoveryFileName(endpoint: DiscoveryEndpoint): string {
        return `gemini-ide-server-${endpoint.serverPid}-${endpoint.port}.json`;
    },

    discoveryFileContent(endpoint: DiscoveryEndpoint, stdio?: StdioConfig): object {
        return GeminiDiscoveryFileSchema.parse({
            port: endpoint.port,
            workspacePath: joinWorkspacePaths(endpoint.workspaceRoots, path.delimiter),
            authToken: endpoint.authToken,
            ideInfo: { ...(endpoint.ideInfo ?? THEIA_IDE_INFO) },
            ...(stdio ? { stdio } : {}),
            theiaCompanion: currentProcessIdentity()
        });
    },

    terminalEnvironment(endpoint: DiscoveryEndpoint): Record<string, string> {
        const { terminalTmpdir } = geminiDiscoveryLocation();
        return {
            GEMINI_CLI_IDE_SERVER_PORT: String(endpoint.port),
            GEMINI_CLI_IDE_WORKSPACE_PATH: joinWorkspacePaths(endpoint.workspaceRoots, path.delimiter),
            // The CLI would otherwise walk the process tree to the shell's grandparent, which in Theia
            // is whatever launched the backend, not the backend that named the file.
            GEMINI_CLI_IDE_PID: String(endpoint.serverPid),
            // Only where the file is in the private directory: the standard one is where the CLI looks anyway.
            ...(terminalTmpdir ? { TMPDIR: terminalTmpdir } : {})
        };
    },

    ownedFile(fileName: string, content: string): OwnedDiscoveryFile | undefined {
        const match = FILE_NAME.exec(fileName);
        if (!match) {
            return undefined;
        }
        const parsed = GeminiDiscoveryFileSchema.safeParse(safeJson(content));
        if (!parsed.success || !isCompanionFile(parsed.data.ideInfo.name, parsed.data.theiaCompanion)) {
            return undefined;
        }
        return { pid: Number(match[1]), port: parsed.data.port, writer: parsed.data.theiaCompanion };
    }
});

