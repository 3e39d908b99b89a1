import * as fs from 'fs';
import * as path from 'path';
import { geminiDiscoveryDirectory, Sandbox } from '../support/sandbox';

/**
 * A Gemini CLI discovery file for the same window server (port, folders, token) as the official
 * VS Code companion writes it: no `ideInfo` (the IDE is left to TERM_PROGRAM) and no `stdio` relay,
 * unless `keep` lists what to take over from ours, so that one difference is shown at a time. It goes
 * to a TMPDIR of its own; returns the environment under which a CLI finds it instead of ours.
 */
export function officialGeminiDiscovery(sandbox: Sandbox, terminalEnv: Record<string, string>, keep: ('stdio')[] = []): Record<string, string> {
    const name = `gemini-ide-server-${terminalEnv.GEMINI_CLI_IDE_PID}-${terminalEnv.GEMINI_CLI_IDE_SERVER_PORT}.json`;
    const ours = JSON.parse(fs.readFileSync(path.join(geminiDiscoveryDirectory(sandbox), name), 'utf8'));
    const tmp = path.join(sandbox.root, `official-tmp-${keep.join('-') || 'plain'}`);
    fs.mkdirSync(path.join(tmp, 'gemini', 'ide'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(tmp, 'gemini', 'ide', name), JSON.stringify({
        port: ours.port, workspacePath: ours.workspacePath, authToken: ours.authToken,
        ...(keep.includes('stdio') ? { stdio: ours.stdio } : {})
    }), { mode: 0o600 });
    return { ...terminalEnv, TMPDIR: tmp };
}
