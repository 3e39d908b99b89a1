import * as crypto from 'crypto';
import * as path from 'path';

/**
 * The variables an agent gets on top of the backend's and the definition's own. OpenCode in `acp` mode
 * also serves its whole HTTP API on 127.0.0.1 (port 4096 first), with no authentication unless
 * `OPENCODE_SERVER_PASSWORD` is set: another account on the machine could read its configuration, API
 * keys included, or drive its sessions. Its ACP side does not need that server from outside, so every
 * launch gets a password nobody is told. A password the user set is kept.
 */
export function agentLaunchEnvironment(command: string, environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    if (path.basename(command) === 'opencode' && !environment.OPENCODE_SERVER_PASSWORD) {
        return { ...environment, OPENCODE_SERVER_PASSWORD: crypto.randomBytes(32).toString('hex') };
    }
    return environment;
}
