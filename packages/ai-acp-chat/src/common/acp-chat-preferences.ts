import { interfaces } from '@theia/core/shared/inversify';
import { nls } from '@theia/core/lib/common/nls';
import { PreferenceContribution, PreferenceSchema } from '@theia/core/lib/common/preferences/preference-schema';
import { createPreferenceProxy, PreferenceProxy } from '@theia/core/lib/common/preferences/preference-proxy';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { PreferenceScope } from '@theia/core/lib/common/preferences/preference-scope';
import { ACP_REGISTRY_URL } from '@theia-cli-companion/acp-client/lib/common';
import { CHECKPOINT_MAX_STORAGE_PREF, CHECKPOINT_RETENTION_BOUNDS, CHECKPOINT_TURNS_PER_CHAT_PREF, DEFAULT_CHECKPOINT_RETENTION } from './checkpoint-retention';

export const ACP_AGENTS_PREF = 'aiCliCompanion.acp.agents';
export const ACP_BUILT_IN_AGENTS_PREF = 'aiCliCompanion.acp.builtInAgents';
export const ACP_SHARE_MCP_SERVERS_PREF = 'aiCliCompanion.acp.shareMcpServers';
export const ACP_FOLLOW_AGENT_PREF = 'aiCliCompanion.acp.followAgent';
export const ACP_REGISTRY_URL_PREF = 'aiCliCompanion.acp.registryUrl';

export const acpChatPreferenceSchema: PreferenceSchema = {
    properties: {
        [ACP_AGENTS_PREF]: {
            type: 'array',
            // What runs is the user's choice alone: ExecutionSettings ignores workspace and folder values.
            scope: PreferenceScope.User,
            default: [],
            items: {
                type: 'object',
                required: ['name', 'command'],
                additionalProperties: false,
                properties: {
                    name: { type: 'string', description: nls.localize('theia-cli-companion/acp-chat/agentName',
                        'How you address the agent in the chat: @name (letters, digits, "_", "-", ".").') },
                    command: { type: 'string', description: nls.localize('theia-cli-companion/acp-chat/agentCommand',
                        'The executable that speaks ACP on its stdio: a name on the PATH or an absolute path.') },
                    args: { type: 'array', items: { type: 'string' } },
                    env: { type: 'object', additionalProperties: { type: 'string' } },
                    description: { type: 'string' },
                    installCommand: { type: 'string' }
                }
            },
            description: nls.localize('theia-cli-companion/acp-chat/agents',
                // eslint-disable-next-line @stylistic/max-len -- an nls default text is one string literal
                'More Agent Client Protocol agents for the AI chat, each {"name", "command", "args", "env"}, with names of their own (a built-in agent cannot be replaced). User settings only: a workspace cannot add agents.')
        },
        [ACP_BUILT_IN_AGENTS_PREF]: {
            type: 'boolean',
            // Which agents run is the user's choice alone: AcpAgentSettings reads it through ExecutionSettings.
            scope: PreferenceScope.User,
            default: true,
            description: nls.localize('theia-cli-companion/acp-chat/builtIns',
                // eslint-disable-next-line @stylistic/max-len -- an nls default text is one string literal
                'Offer Gemini CLI (gemini --acp), Qwen Code (qwen --acp), Claude Code (claude-agent-acp), Codex (codex-acp), OpenCode (opencode acp) and GitHub Copilot CLI (copilot --acp) as chat agents. User settings only.')
        },
        [ACP_SHARE_MCP_SERVERS_PREF]: {
            type: 'object',
            // Who gets the user's MCP servers (their tokens included) is the user's choice alone: Theia would merge a workspace's keys over the user's.
            scope: PreferenceScope.User,
            default: {},
            additionalProperties: { type: 'boolean' },
            description: nls.localize('theia-cli-companion/acp-chat/shareMcpServers',
                // eslint-disable-next-line @stylistic/max-len -- an nls default text is one string literal
                'Whether a chat agent is given the MCP servers you configured for Theia AI (ai-features.mcp.mcpServers, read from your user settings only), by agent name; "*" for every agent not named. All get them by default. Example: {"Codex": false}. User settings only: a workspace cannot set it.')
        },
        [ACP_REGISTRY_URL_PREF]: {
            type: 'string',
            // Which registry's agents can be installed is the user's choice alone, as what runs is.
            scope: PreferenceScope.User,
            default: ACP_REGISTRY_URL,
            description: nls.localize('theia-cli-companion/acp-chat/registryUrl',
                'The ACP Registry that Add Agent from ACP Registry… lists agents from (its registry.json; https). User settings only.')
        },
        [ACP_FOLLOW_AGENT_PREF]: {
            type: 'boolean',
            default: false,
            description: nls.localize('theia-cli-companion/acp-chat/followAgentPref',
                'Follow the agent: show the file and line the agent of the chat in view reads or edits, without taking the focus from where you type.')
        },
        [CHECKPOINT_TURNS_PER_CHAT_PREF]: {
            type: 'integer',
            // How much of the user's history is kept is theirs alone: a repository must not be able to wipe it or fill the disk.
            scope: PreferenceScope.User,
            default: DEFAULT_CHECKPOINT_RETENTION.turnsPerChat,
            ...CHECKPOINT_RETENTION_BOUNDS.turnsPerChat,
            description: nls.localize('theia-cli-companion/acp-chat/checkpointTurnsPerChat',
                'How many of a chat\'s latest turns keep their checkpoint (what they changed, for Restore); older turns\' checkpoints are removed. User settings only.')
        },
        [CHECKPOINT_MAX_STORAGE_PREF]: {
            type: 'integer',
            scope: PreferenceScope.User,
            default: DEFAULT_CHECKPOINT_RETENTION.maxStorageMegabytes,
            ...CHECKPOINT_RETENTION_BOUNDS.maxStorageMegabytes,
            description: nls.localize('theia-cli-companion/acp-chat/checkpointMaxStorage',
                // eslint-disable-next-line @stylistic/max-len -- an nls default text is one string literal
                'The most disk space (MiB) the chat turns\' checkpoints take, every chat of every workspace together: beyond it, the oldest turns of the chats used least recently lose their checkpoint first. User settings only.')
        }
    }
};

export interface AcpChatConfiguration {
    [ACP_AGENTS_PREF]: unknown[];
    [ACP_BUILT_IN_AGENTS_PREF]: boolean;
    [ACP_SHARE_MCP_SERVERS_PREF]: Record<string, unknown>;
    [ACP_FOLLOW_AGENT_PREF]: boolean;
    [ACP_REGISTRY_URL_PREF]: string;
    [CHECKPOINT_TURNS_PER_CHAT_PREF]: number;
    [CHECKPOINT_MAX_STORAGE_PREF]: number;
}

export const AcpChatPreferences = Symbol('AcpChatPreferences');
export type AcpChatPreferences = PreferenceProxy<AcpChatConfiguration>;

export function bindAcpChatPreferences(bind: interfaces.Bind): void {
    bind(AcpChatPreferences).toDynamicValue(ctx => createPreferenceProxy(ctx.container.get<PreferenceService>(PreferenceService), acpChatPreferenceSchema)).inSingletonScope();
    bind(PreferenceContribution).toConstantValue({ schema: acpChatPreferenceSchema });
}
