import type * as acp from '@agentclientprotocol/sdk';
import { inject, injectable, named } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { ILogger } from '@theia/core/lib/common/logger';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { ChatAgentService, ChatService } from '@theia/ai-chat';
import { isSessionDeletedEvent } from '@theia/ai-chat/lib/common/chat-service';
import { AgentService, PromptService } from '@theia/ai-core';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { KeyStoreService } from '@theia/core/lib/common/key-store';
import { QuickInputService } from '@theia/core/lib/common/quick-pick-service';
import { DiffReviewService, ExecutionSettings, SnapshotIncludeSettings, WorkspaceTrustGate } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { BUILT_IN_ACP_AGENTS, parseAgentDefinitions } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatBackend } from '../common/acp-chat-protocol';
import { ACP_AGENTS_PREF, ACP_BUILT_IN_AGENTS_PREF, AcpChatPreferences } from '../common/acp-chat-preferences';
import { SharedMcpServer, sharedMcpServersOf, THEIA_MCP_SERVERS_PREF } from '../common/theia-mcp-servers';
import { AcpTurnChanges } from './checkpoints/acp-turn-changes';
import { AcpPromptAttachments } from './prompt/acp-prompt-attachments';
import { AcpChatAgent } from './acp-chat-agent';
import { isOfferableCommandName } from './offerable-command-name';
import { AcpAgentSettings } from './acp-agent-settings';
import { AcpChatClientImpl } from './acp-chat-client-impl';
import { AcpChatSessionStates } from './acp-chat-session-states';
import { AcpChatSettings } from './session-bar/acp-chat-settings';
import { AcpMessageQueue } from './queue/acp-message-queue';
import { AcpRegistryAgents } from './registry/acp-registry-agents';
import { registryAgentDefinitions } from './registry/registry-agent-definitions';

/**
 * Keeps Theia AI's chat agents in step with the configured ACP agents (the built-ins and the
 * `aiCliCompanion.acp.agents` of the user's settings), and offers each agent's slash commands in the chat input.
 */
@injectable()
export class AcpChatAgentsContribution implements FrontendApplicationContribution {

    @inject(ChatAgentService) protected readonly chatAgents: ChatAgentService;
    @inject(AgentService) protected readonly agentService: AgentService;
    @inject(PromptService) protected readonly prompts: PromptService;
    @inject(AcpChatBackend) protected readonly backend: AcpChatBackend;
    @inject(AcpChatClientImpl) protected readonly client: AcpChatClientImpl;
    @inject(AcpChatSessionStates) protected readonly sessionStates: AcpChatSessionStates;
    @inject(AcpChatSettings) protected readonly settingsOfChats: AcpChatSettings;
    @inject(AcpMessageQueue) protected readonly queue: AcpMessageQueue;
    @inject(DiffReviewService) protected readonly diffs: DiffReviewService;
    @inject(AcpPromptAttachments) protected readonly attachments: AcpPromptAttachments;
    @inject(AcpTurnChanges) protected readonly turnChanges: AcpTurnChanges;
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;
    @inject(AcpChatPreferences) protected readonly preferences: AcpChatPreferences;
    @inject(ExecutionSettings) protected readonly settings: ExecutionSettings;
    @inject(WorkspaceTrustGate) protected readonly trustGate: WorkspaceTrustGate;
    @inject(SnapshotIncludeSettings) protected readonly snapshotInclude: SnapshotIncludeSettings;
    @inject(MessageService) protected readonly messages: MessageService;
    /** Problems of the MCP server setting already told: once each per window. */
    protected readonly toldMcpProblems = new Set<string>();
    @inject(KeyStoreService) protected readonly keyStore: KeyStoreService;
    @inject(QuickInputService) protected readonly quickInput: QuickInputService;
    @inject(ChatService) protected readonly chats: ChatService;
    @inject(AcpRegistryAgents) protected readonly registryAgents: AcpRegistryAgents;
    /** Registry agents the chat could not offer, already told: once each per window. */
    protected readonly toldRegistryProblems = new Set<string>();
    @inject(ILogger) @named('ai-acp-chat:AcpChatAgents') protected readonly logger: ILogger;

    protected registered: AcpChatAgent[] = [];
    protected readonly commandFragments = new Map<string, string[]>();
    /** The command list (as the agent sent it) each agent's fragments were made from. */
    protected readonly offeredCommands = new Map<string, readonly acp.AvailableCommand[]>();
    /** Set once Theia AI's chat refused what the ACP chat registers with it: told once, then nothing more is tried. */
    protected incompatibility?: string;

    /** Which agents run and who gets the MCP servers, from the user's settings only. */
    protected get agentSettings(): AcpAgentSettings {
        return new AcpAgentSettings(this.settings);
    }

    /** The ACP agents the chat offers now. */
    get acpAgents(): readonly AcpChatAgent[] {
        return this.registered;
    }

    /** Whether the chat agent of this id is one of the ACP agents. */
    isAcpAgent(agentId: string | undefined): boolean {
        return this.registered.some(agent => agent.id === agentId);
    }

    /** The agent that runs the ACP session of this chat, if any. */
    agentOf(chatId: string): AcpChatAgent | undefined {
        return this.registered.find(agent => agent.sessionOf(chatId));
    }

    onStart(): void {
        this.withTheiaAi(() => this.chats.onSessionEvent(event => this.withTheiaAi(() => {
            if (isSessionDeletedEvent(event)) {
                this.registered.forEach(agent => agent.forget(event.sessionId).then(end => {
                    if (end === 'kept') {
                        this.messages.info(nls.localize('theia-cli-companion/acp-chat/sessionKept',
                            'The chat is deleted; its session stays in the history of {0} (which cannot delete or close it, or did not answer).', agent.name));
                    }
                }));
                this.sessionStates.forget(event.sessionId);
                this.queue.forget(event.sessionId);
            }
        })));
        // The agent's commands, whenever it announces them (codex-acp does before its session answers): each list replaces the last.
        this.sessionStates.onDidChangeCommands(chatId => {
            const { agentName, commands } = this.sessionStates.of(chatId);
            const agent = this.registered.find(candidate => candidate.name === agentName);
            if (agent) {
                this.offerCommands(agent, commands);
            }
        });
        void this.preferences.ready.then(() => {
            this.withTheiaAi(() => this.update());
            this.preferences.onPreferenceChanged(change => {
                if (change.preferenceName === ACP_AGENTS_PREF || change.preferenceName === ACP_BUILT_IN_AGENTS_PREF) {
                    this.withTheiaAi(() => this.update());
                }
            });
            // Installed, updated or removed from the ACP Registry (in this window or listed anew).
            this.registryAgents.onDidChange(() => this.withTheiaAi(() => this.update()));
        });
    }

    /**
     * Runs what talks to Theia AI's chat API. The packages accept every Theia 1.x from 1.72 on, so a
     * newer Theia may have renamed or removed what the ACP chat uses: then the chat's agents are
     * missing and the user is told why, once, while the rest of the IDE starts as usual.
     */
    protected withTheiaAi(action: () => void): void {
        if (this.incompatibility) {
            return;
        }
        try {
            action();
        } catch (error) {
            this.incompatibility = error instanceof Error ? error.message : String(error);
            this.logger.error(`Theia AI's chat refused the ACP chat's agents: ${this.incompatibility}`);
            this.messages.error(nls.localize('theia-cli-companion/acp-chat/theiaAiIncompatible',
                'The ACP chat could not add its agents to Theia AI\'s chat ({0}): this Theia\'s AI chat API is not one it supports. IDE mode and agent tasks work.',
                this.incompatibility));
        }
    }

    protected update(): void {
        // Which agents run, and what they are given, come from the user's settings only, never from the workspace's.
        const builtIns = this.agentSettings.builtInAgents ? BUILT_IN_ACP_AGENTS : [];
        const { definitions: configured, problems } = parseAgentDefinitions(this.settings.get(ACP_AGENTS_PREF), builtIns);
        problems.forEach(problem => {
            this.logger.warn(problem);
            this.messages.warn(nls.localize('theia-cli-companion/acp-chat/badAgent', 'Setting {0}: {1}', ACP_AGENTS_PREF, problem));
        });
        const registry = registryAgentDefinitions(this.registryAgents.installed, configured);
        registry.problems.filter(problem => !this.toldRegistryProblems.has(problem)).forEach(problem => {
            this.toldRegistryProblems.add(problem);
            this.logger.warn(problem);
            this.messages.warn(problem);
        });
        const definitions = [...configured, ...registry.definitions];
        this.registered.forEach(agent => {
            this.chatAgents.unregisterChatAgent(agent.id);
            this.agentService.unregisterAgent(agent.id);
        });
        this.registered = definitions.map(definition => this.iconed(definition.name, registry.registryIds, new AcpChatAgent(definition, {
            backend: this.backend, client: this.client, diffs: this.diffs, keyStore: this.keyStore, quickInput: this.quickInput, attachments: this.attachments,
            turnChanges: this.turnChanges,
            workspace: async () => {
                const folders = await this.workspace.roots;
                const roots = folders.map(root => root.resource.path.fsPath());
                return roots.length ? { cwd: roots[0], roots, snapshotInclude: this.snapshotInclude.get() } : undefined;
            },
            mcpServers: agentName => this.mcpServersFor(agentName),
            mayStart: agentName => this.trustGate.mayStart(agentName),
            sessionStarted: (request, session, agentName) => this.settingsOfChats.restore(request.session, session, agentName)
        })));
        this.registered.forEach(agent => {
            this.agentService.registerAgent(agent);
            this.chatAgents.registerChatAgent(agent);
        });
    }

    /** An agent from the ACP Registry is shown with the registry's icon, once it was fetched. */
    protected iconed(name: string, registryIds: Map<string, string>, agent: AcpChatAgent): AcpChatAgent {
        const registryId = registryIds.get(name);
        const iconClass = registryId && this.registryAgents.iconClassOf(registryId);
        if (iconClass) {
            agent.iconClass = iconClass;
        }
        return agent;
    }

    /**
     * The MCP servers the user configured for Theia AI, for an agent that may have them. They name
     * commands to run, so they come from the user's settings only, like the agents themselves.
     */
    protected mcpServersFor(agentName: string): SharedMcpServer[] {
        if (!this.agentSettings.sharesMcpServersWith(agentName)) {
            return [];
        }
        const { servers, problems } = sharedMcpServersOf(this.settings.get(THEIA_MCP_SERVERS_PREF));
        problems.filter(problem => !this.toldMcpProblems.has(problem)).forEach(problem => {
            this.toldMcpProblems.add(problem);
            this.logger.warn(problem);
            this.messages.warn(nls.localize('theia-cli-companion/acp-chat/badMcpServer', 'Setting {0}: {1}', THEIA_MCP_SERVERS_PREF, problem));
        });
        return servers;
    }

    /** The agent's own commands (Gemini CLI: /memory, /init, …) complete after "/" when it is addressed. */
    protected offerCommands(agent: AcpChatAgent, commands: readonly acp.AvailableCommand[]): void {
        // Each list the agent sends is offered anew (Theia may have dropped the fragments since); the same list again is not.
        if (this.offeredCommands.get(agent.id) === commands) {
            return;
        }
        this.offeredCommands.set(agent.id, commands);
        (this.commandFragments.get(agent.id) ?? []).forEach(id => this.prompts.removePromptFragment(id));
        const ids = commands.filter(command => isOfferableCommandName(command.name)).map(command => {
            const id = `acp-${agent.id}-command-${encodeURIComponent(command.name)}`;
            this.prompts.addBuiltInPromptFragment({
                id, template: `/${command.name}`, isCommand: true, commandName: command.name, commandDescription: command.description,
                commandArgumentHint: command.input?.hint ?? undefined, commandAgents: [agent.id]
            });
            return id;
        });
        this.commandFragments.set(agent.id, ids);
    }
}

