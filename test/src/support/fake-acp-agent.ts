import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from '../hosts/theia-backend';

/** The scripted ACP agent (acp-client's test agent): the first word of a prompt picks what it does. */
export const FAKE_AGENT = path.join(REPO_ROOT, 'packages', 'acp-client', 'lib', 'node', 'test', 'fake-acp-agent-main.js');

/** An entry of `aiCliCompanion.acp.agents` that runs the scripted agent as `name`, logging what it is sent to `log`. */
export function fakeAgent(name: string, log: string, env: Record<string, string> = {}): { name: string; command: string; args: string[]; env: Record<string, string> } {
    return { name, command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_LOG: log, ...env } };
}

/** One request or notification the scripted agent got, as it logged it. */
export interface FakeAgentCall {
    readonly kind: 'request' | 'notification';
    readonly method: string;
    // The logged params are whatever the client sent: tests read the fields they check.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    readonly params: any;
    readonly at: number;
}

/** What the scripted agent writing `log` was sent so far, oldest first (nothing before it started). */
export function fakeAgentCalls(log: string): FakeAgentCall[] {
    return fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map(line => JSON.parse(line)) : [];
}
