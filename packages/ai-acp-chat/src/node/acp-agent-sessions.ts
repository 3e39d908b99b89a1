import type * as acp from '@agentclientprotocol/sdk';
import type { AcpAgent, AcpSession } from '@theia-cli-companion/acp-client/lib/node';
import { randomUUID } from 'crypto';
import * as path from 'path';
import type { AcpAgentDefinition } from '@theia-cli-companion/acp-client/lib/common';
import type { AcpAgentSessionPage } from '../common/acp-chat-protocol';
import type { AcpAgentLauncher } from './acp-agent-launcher';
import { realRoots } from './acp-chat-backend-input';

/** What became of an agent's session when its chat was deleted. */
export type SessionEnd = 'deleted' | 'closed' | 'kept';

/**
 * Reopens a stored session: `session/resume` where the agent offers it (no replay: the chat has its own history),
 * else `session/load`; undefined when the agent can do neither.
 */
export async function reopenSession(agent: AcpAgent, params: acp.LoadSessionRequest): Promise<{ session: AcpSession; how: 'resumed' | 'loaded' } | undefined> {
    if (agent.sessionCapabilities.resume) {
        return { session: await agent.resumeSession(params), how: 'resumed' };
    }
    if (agent.canLoadSessions) {
        return { session: await agent.loadSession(params), how: 'loaded' };
    }
    return undefined;
}

/** How long a deleted chat's agent may take to end its session, and to list its sessions, before it is stopped anyway. */
export const SESSION_END_TIMEOUT_MS = 5000;
export const SESSION_LIST_TIMEOUT_MS = 30000;

/**
 * Ends a deleted chat's session in the agent, its running turn cancelled first: deleted from the agent's history where
 * it can and `mayDelete` (the chat started the session: one it took from the agent's list is only closed), else
 * closed, else kept (and said so). An agent that does not answer in time keeps it: the caller stops the agent anyway.
 */
export async function endSession(agent: AcpAgent, session: AcpSession, mayDelete: boolean): Promise<SessionEnd> {
    if (agent.connection.hasExited) {
        return 'kept';
    }
    await session.cancel().catch(() => undefined);
    const ending = (async (): Promise<SessionEnd> => {
        if (mayDelete && agent.sessionCapabilities.delete) {
            await agent.deleteSession(session.sessionId);
            return 'deleted';
        }
        if (agent.sessionCapabilities.close) {
            await agent.closeSession(session.sessionId);
            return 'closed';
        }
        return 'kept';
    })();
    return Promise.race([ending, delay(SESSION_END_TIMEOUT_MS).then((): SessionEnd => 'kept')]);
}

function delay(ms: number): Promise<void> {
    return new Promise(resolve => setTimeout(resolve, ms).unref());
}

const MAX_TITLE = 300;

/** One page of the agent's sessions in `cwd`, as the window shows them (titles bounded); `supported: false` when it lists none. */
export async function listSessionPage(agent: AcpAgent, cwd: string, cursor: string | undefined): Promise<AcpAgentSessionPage> {
    if (!agent.sessionCapabilities.list) {
        return { supported: false, sessions: [] };
    }
    const page = await agent.listSessions({ cwd, ...(cursor ? { cursor } : {}) });
    return {
        supported: true,
        sessions: page.sessions.slice(0, 1000).map(session => ({
            sessionId: String(session.sessionId),
            cwd: String(session.cwd),
            ...(typeof session.title === 'string' ? { title: session.title.slice(0, MAX_TITLE) } : {}),
            ...(typeof session.updatedAt === 'string' ? { updatedAt: session.updatedAt } : {})
        })),
        ...(typeof page.nextCursor === 'string' ? { nextCursor: page.nextCursor } : {})
    };
}

/**
 * Lists the agent's sessions with an agent process of its own, stopped again: listing asks nothing of the window and
 * disturbs no chat's agent. `cwd` must be one of `roots`, the window's workspace folders.
 */
export async function listAgentSessions(launcher: AcpAgentLauncher, clientInfo: Parameters<AcpAgent['initialize']>[0],
    request: { agent: AcpAgentDefinition; cwd: string; roots: readonly string[]; cursor?: string }): Promise<AcpAgentSessionPage> {
    if (!path.isAbsolute(request.cwd) || !request.roots.includes(request.cwd)) {
        throw new Error(`The folder must be one of the workspace folders, got ${request.cwd}`);
    }
    const roots = await realRoots(request.roots);
    const agent = launcher.launch({ chatSessionId: `list-${randomUUID()}`, agent: request.agent, cwd: request.cwd, roots }, {
        client: () => undefined, isCurrent: () => false,
        files: { openEditorText: async () => undefined, editedContentFor: async () => undefined, didWriteTextFile: async () => undefined },
        checkCurrent: () => {
            throw new Error('An agent listing its sessions reaches nothing of the workspace');
        }
    });
    try {
        const listing = agent.initialize(clientInfo).then(() => listSessionPage(agent, request.cwd, request.cursor));
        return await Promise.race([listing, delay(SESSION_LIST_TIMEOUT_MS).then(() => {
            throw new Error(`${request.agent.name} did not list its sessions within ${SESSION_LIST_TIMEOUT_MS / 1000} s`);
        })]);
    } finally {
        await agent.dispose();
    }
}
