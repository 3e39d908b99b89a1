import * as dns from 'dns';
import * as fs from 'fs';

/** This machine is a container as the CLIs tell (cloud workspaces are; a self-hosted Theia on a Linux box is not). */
export const IN_CONTAINER = fs.existsSync('/.dockerenv') || fs.existsSync('/run/.containerenv');

/**
 * The transport each real client takes from a terminal's environment. Gemini CLI dials
 * host.docker.internal inside a container (unless an SSH or dev-container session says otherwise),
 * which has no route to the backend's loopback, and then starts the discovery file's stdio relay;
 * elsewhere it dials 127.0.0.1. Qwen Code dials host.docker.internal only when that name resolves,
 * 127.0.0.1 otherwise (see ../shared/reference/ide-mode-contract.md).
 */
export async function expectedTransport(flavour: 'gemini' | 'qwen', env: NodeJS.ProcessEnv): Promise<'http' | 'stdio'> {
    if (!IN_CONTAINER) {
        return 'http';
    }
    if (flavour === 'gemini') {
        return env.SSH_CONNECTION || env.REMOTE_CONTAINERS || env.VSCODE_REMOTE_CONTAINERS_SESSION ? 'http' : 'stdio';
    }
    const resolvable = await dns.promises.lookup('host.docker.internal').then(() => true, () => false);
    // A resolvable host.docker.internal is another machine's loopback: the CLI fails there and starts the lock file's relay.
    return resolvable ? 'stdio' : 'http';
}
