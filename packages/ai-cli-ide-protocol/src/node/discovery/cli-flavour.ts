import type { IdeTransport } from '@theia-cli-companion/cli-process/lib/common';
import { CliFlavourId } from '../../common/cli-flavour-id';
import { DiscoveryFileWriter, IdeInfo, StdioConfig } from '../../common/discovery-files';

/** What a discovery file advertises about one running window server. */
export interface DiscoveryEndpoint {
    readonly port: number;
    readonly authToken: string;
    /** Absolute, realpath'd workspace roots; empty when the window has no folder open. */
    readonly workspaceRoots: readonly string[];
    /** The PID that names the server to the CLI: the process that owns the socket (Theia's backend, a VS Code extension host). */
    readonly serverPid: number;
    /** How the IDE names itself to the CLI (`ideInfo`, `ideName`); Eclipse Theia's when absent. */
    readonly ideInfo?: IdeInfo;
}

/** A discovery file found on disk that this companion (any instance of it) wrote. */
export interface OwnedDiscoveryFile {
    /** The PID the file names to the CLI. */
    readonly pid: number;
    readonly port: number;
    /** Who wrote it; absent in files of versions that did not record it. */
    readonly writer?: DiscoveryFileWriter;
}

/**
 * Everything that differs between the CLIs that speak the IDE-mode contract: where and how their
 * discovery file is written, and which terminal variables point them at a window.
 */
export interface CliFlavour {
    readonly id: CliFlavourId;
    readonly displayName: string;
    /** Which of the window's endpoints the CLI connects to. */
    readonly transport: IdeTransport;
    /** Resolved from the process environment at call time: the backend's terminals inherit it. */
    discoveryDirectory(): string;
    /** Why the files are where they are, when that is a choice (Gemini CLI's standard or private directory), for the status. */
    describeDiscoveryDirectory?(): string;
    discoveryFileName(endpoint: DiscoveryEndpoint): string;
    /**
     * The body of the discovery file, already validated against the flavour's schema. `stdio` is how
     * a CLI that cannot reach the port (inside a container) reaches the server instead. Our flavours
     * also record the writing process (`theiaCompanion`), which the stale-file cleaner relies on.
     */
    discoveryFileContent(endpoint: DiscoveryEndpoint, stdio?: StdioConfig): object;
    terminalEnvironment(endpoint: DiscoveryEndpoint): Record<string, string>;
    /** For a file in the discovery directory: who wrote it, if it was a companion of ours. */
    ownedFile(fileName: string, content: string): OwnedDiscoveryFile | undefined;
}
