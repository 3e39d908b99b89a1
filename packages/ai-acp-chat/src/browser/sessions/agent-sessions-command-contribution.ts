import { inject, injectable } from '@theia/core/shared/inversify';
import { CommandContribution, CommandRegistry } from '@theia/core/lib/common/command';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { QuickInputService, QuickPickItem } from '@theia/core/lib/common/quick-pick-service';
import { ChatAgentLocation, ChatService, MutableChatModel } from '@theia/ai-chat';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { WorkspaceTrustGate } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { AcpAgentSessionPage, AcpChatBackend } from '../../common/acp-chat-protocol';
import { ACP_ADOPTED_SESSIONS_SETTING, ACP_SESSION_IDS_SETTING, AcpChatAgent } from '../acp-chat-agent';
import { AcpChatAgentsContribution } from '../acp-chat-agents-contribution';
import { AcpChatCommands } from '../acp-chat-command-contribution';
import { showChat } from './show-chat';

type Listed = AcpAgentSessionPage['sessions'][number];

type SessionItem = QuickPickItem & ({ readonly session: Listed } | { readonly more: string });

/**
 * *Browse Agent Sessions…*: an agent's own sessions of the first workspace folder (ACP session/list, page by page),
 * one of which opens as a new chat whose first message continues it (session/resume where the agent offers it).
 */
@injectable()
export class AgentSessionsCommandContribution implements CommandContribution {
    @inject(AcpChatAgentsContribution) protected readonly agents: AcpChatAgentsContribution;
    @inject(AcpChatBackend) protected readonly backend: AcpChatBackend;
    @inject(ChatService) protected readonly chats: ChatService;
    @inject(CommandRegistry) protected readonly commands: CommandRegistry;
    @inject(QuickInputService) protected readonly quickInput: QuickInputService;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;
    @inject(WorkspaceTrustGate) protected readonly trustGate: WorkspaceTrustGate;

    registerCommands(registry: CommandRegistry): void {
        registry.registerCommand(AcpChatCommands.BROWSE_SESSIONS, {
            isEnabled: () => this.agents.acpAgents.length > 0 && this.workspace.tryGetRoots().length > 0,
            execute: () => this.browse()
        });
    }

    protected async browse(): Promise<void> {
        const agent = await this.pickAgent();
        const roots = this.workspace.tryGetRoots().map(root => root.resource.path.fsPath());
        if (!agent || !roots.length || !await this.trustGate.mayStart(agent.name)) {
            return;
        }
        const picked = await this.pickSession(agent, roots[0], roots);
        if (picked) {
            await this.open(agent, picked);
        }
    }

    protected async pickAgent(): Promise<AcpChatAgent | undefined> {
        const agents = this.agents.acpAgents;
        const picked = agents.length === 1 ? { agent: agents[0] } : await this.quickInput.pick(agents.map(agent => ({ label: agent.name, description: agent.description, agent })),
            { placeHolder: nls.localize('theia-cli-companion/acp-chat/pickSessionAgent', 'Whose sessions?') });
        return picked?.agent;
    }

    /** The sessions page by page: the last item of a page loads the next. */
    protected async pickSession(agent: AcpChatAgent, cwd: string, roots: string[]): Promise<Listed | undefined> {
        const listed: Listed[] = [];
        let cursor: string | undefined;
        for (; ;) {
            let page: AcpAgentSessionPage;
            try {
                page = await this.backend.listAgentSessions({ agent: agent.definition, cwd, roots, ...(cursor ? { cursor } : {}) });
            } catch (error) {
                this.messages.error(nls.localize('theia-cli-companion/acp-chat/listFailed', '{0} could not list its sessions: {1}', agent.name,
                    error instanceof Error ? error.message : String(error)));
                return undefined;
            }
            if (!page.supported) {
                this.messages.info(nls.localize('theia-cli-companion/acp-chat/listUnsupported', '{0} does not list its sessions.', agent.name));
                return undefined;
            }
            listed.push(...page.sessions);
            const items: SessionItem[] = listed.map(session => ({
                label: session.title ?? session.sessionId, description: session.cwd,
                detail: session.updatedAt ? new Date(session.updatedAt).toLocaleString() : undefined, session
            }));
            if (page.nextCursor) {
                items.push({ label: nls.localize('theia-cli-companion/acp-chat/moreSessions', 'More sessions…'), more: page.nextCursor });
            }
            const picked = await this.quickInput.pick(items, {
                placeHolder: listed.length ? nls.localize('theia-cli-companion/acp-chat/pickSession', 'A session of {0} to continue in a new chat', agent.name)
                    : nls.localize('theia-cli-companion/acp-chat/noSessions', '{0} has no sessions in this folder', agent.name)
            });
            if (!picked || 'session' in picked) {
                return picked?.session;
            }
            cursor = picked.more;
        }
    }

    /**
     * A new chat with the agent, its session id stored as a reopened chat's is: the first message continues it. A session
     * a chat of this window already holds is shown there instead (two chats driving one session would mix their turns).
     */
    protected async open(agent: AcpChatAgent, listed: Listed): Promise<void> {
        const holder = this.chats.getSessions().find(chat => {
            const ids = chat.model.settings?.[ACP_SESSION_IDS_SETTING];
            return !!ids && typeof ids === 'object' && Object.values(ids).includes(listed.sessionId);
        });
        if (holder) {
            await this.show(holder.id);
            return;
        }
        const session = this.chats.createSession(ChatAgentLocation.Panel, { focus: true }, agent);
        const model = session.model as MutableChatModel;
        model.setSettings({
            ...model.settings, [ACP_SESSION_IDS_SETTING]: { [agent.name]: listed.sessionId }, [ACP_ADOPTED_SESSIONS_SETTING]: { [agent.name]: listed.sessionId }
        });
        await this.chats.renameSession(session.id, listed.title ?? listed.sessionId);
        await this.show(session.id);
    }

    protected show(chatId: string): Promise<void> {
        return showChat(this.chats, this.commands, chatId);
    }
}
