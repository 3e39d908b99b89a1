import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { CommandRegistry } from '@theia/core/lib/common/command';
import { DisposableCollection } from '@theia/core/lib/common/disposable';
import { Emitter, Event } from '@theia/core/lib/common/event';
import { nls } from '@theia/core/lib/common/nls';
import { ChatService } from '@theia/ai-chat';
import type { StatusViewRow, StatusViewSection, StatusViewSectionContent } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { AcpChatSessionStates } from '../acp-chat-session-states';
import { describeUsage, formatCost, SessionUsage } from '../session-bar/session-usage';
import { showChat } from '../sessions/show-chat';

/** *CLI Companion: Show Status*: each chat of this window that has an ACP agent's session, with its usage, and the cost so far. */
@injectable()
export class AgentChatsStatusSection implements StatusViewSection {
    readonly id = 'acp-chats';
    @inject(AcpChatSessionStates) protected readonly states: AcpChatSessionStates;
    @inject(ChatService) protected readonly chats: ChatService;
    @inject(CommandRegistry) protected readonly commands: CommandRegistry;
    protected readonly onDidChangeEmitter = new Emitter<void>();
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;
    protected readonly toDispose = new DisposableCollection(this.onDidChangeEmitter);

    @postConstruct()
    protected init(): void {
        this.toDispose.push(this.states.onDidChange(() => this.onDidChangeEmitter.fire()));
    }

    content(): StatusViewSectionContent {
        const sessions = this.states.all().filter(([, state]) => state.agentName !== undefined);
        const rows: StatusViewRow[] = sessions.map(([chatId, state]) => ({
            id: chatId,
            label: `${this.chats.getSession(chatId)?.title || nls.localize('theia-cli-companion/acp-chat/untitledChat', 'Untitled chat')} — ${state.agentName}`,
            detail: state.usage ? describeUsage(state.usage) : nls.localize('theia-cli-companion/acp-chat/noUsageYet', 'No usage reported yet'),
            action: { label: nls.localize('theia-cli-companion/acp-chat/openChat', 'Open'), run: () => showChat(this.chats, this.commands, chatId) }
        }));
        const costs = totalCosts(sessions.map(([, state]) => state.usage));
        if (costs.length) {
            rows.push({ id: 'total-cost', label: nls.localize('theia-cli-companion/acp-chat/totalCost', 'Cost of these chats'), detail: costs.map(formatCost).join(' + ') });
        }
        return {
            heading: nls.localize('theia-cli-companion/acp-chat/statusHeading', 'Chats with ACP agents ({0})', sessions.length),
            empty: nls.localize('theia-cli-companion/acp-chat/statusEmpty', 'None in this window yet.'),
            rows
        };
    }

    dispose(): void {
        this.toDispose.dispose();
    }
}

/** The costs the agents reported, added up per currency (agents may bill in different ones). */
export function totalCosts(usages: readonly (SessionUsage | undefined)[]): { amount: number; currency: string }[] {
    const totals = new Map<string, number>();
    for (const cost of usages.map(usage => usage?.cost)) {
        if (cost) {
            const currency = cost.currency.toUpperCase();
            totals.set(currency, (totals.get(currency) ?? 0) + cost.amount);
        }
    }
    return [...totals].map(([currency, amount]) => ({ amount, currency }));
}
