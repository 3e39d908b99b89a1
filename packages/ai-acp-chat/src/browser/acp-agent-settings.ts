import type { ExecutionSettings } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { ACP_BUILT_IN_AGENTS_PREF, ACP_SHARE_MCP_SERVERS_PREF } from '../common/acp-chat-preferences';

/**
 * The chat's settings that decide which agents run and what they are given, from the user's settings
 * only (ExecutionSettings): Theia merges an object setting's keys from every scope, so a repository's
 * `{"Codex": true}` would hand the user's MCP servers, their tokens included, to an agent the user
 * excluded, and its `builtInAgents` would bring back agents the user turned off.
 */
export class AcpAgentSettings {

    constructor(protected readonly settings: Pick<ExecutionSettings, 'get'>) { }

    /** Whether the built-in agents (Gemini CLI, Qwen Code, Claude Code…) are offered; anything but a boolean is the default, yes. */
    get builtInAgents(): boolean {
        return this.settings.get<boolean>(ACP_BUILT_IN_AGENTS_PREF) !== false;
    }

    /** Whether the agent of this name may have the user's MCP servers: its own entry, else `"*"`, else yes. */
    sharesMcpServersWith(agentName: string): boolean {
        const share = this.settings.get<Record<string, boolean>>(ACP_SHARE_MCP_SERVERS_PREF, 'sharing');
        if (typeof share !== 'object' || share === null || Array.isArray(share)) {
            return true;
        }
        const allowed = Object.hasOwn(share, agentName) ? share[agentName] : share['*'];
        return allowed !== false;
    }
}
