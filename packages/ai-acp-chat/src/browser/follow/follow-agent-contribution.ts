import { inject, injectable, named } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { DisposableCollection } from '@theia/core/lib/common/disposable';
import { ILogger } from '@theia/core/lib/common/logger';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { Path } from '@theia/core/lib/common/path';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { ChatService } from '@theia/ai-chat';
import { isPathWithin } from '@theia-cli-companion/cli-process/lib/common';
import type { ToolCallState } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatPreferences, ACP_FOLLOW_AGENT_PREF } from '../../common/acp-chat-preferences';
import { AcpChatBackend } from '../../common/acp-chat-protocol';
import { AcpToolCallEvents } from '../acp-tool-call-events';

/**
 * Follow the agent: when the preference is on, the file and line a tool call of the chat in view is at
 * (its `locations`) are revealed in an editor, without taking the focus from where the user types.
 * Only files inside the workspace folders, as written and where they really land (the backend follows
 * every link on the way): an agent cannot make the IDE show others, through a link in the repository either.
 */
@injectable()
export class FollowAgentContribution implements FrontendApplicationContribution {

    @inject(AcpToolCallEvents) protected readonly toolCalls: AcpToolCallEvents;
    @inject(AcpChatPreferences) protected readonly preferences: AcpChatPreferences;
    @inject(ChatService) protected readonly chats: ChatService;
    @inject(EditorManager) protected readonly editors: EditorManager;
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;
    @inject(AcpChatBackend) protected readonly backend: AcpChatBackend;
    @inject(ILogger) @named('ai-acp-chat:FollowAgent') protected readonly logger: ILogger;

    protected readonly toDispose = new DisposableCollection();
    /** The last place revealed: a tool call's repeated updates do not reveal it again. */
    protected lastShown = '';

    onStart(): void {
        this.toDispose.push(this.toolCalls.onToolCall(({ chatSessionId, toolCall }) => {
            if (this.preferences[ACP_FOLLOW_AGENT_PREF] && this.chats.getActiveSession()?.id === chatSessionId) {
                void this.follow(chatSessionId, toolCall);
            }
        }));
    }

    onStop(): void {
        this.toDispose.dispose();
    }

    protected async follow(chatSessionId: string, toolCall: ToolCallState): Promise<void> {
        const location = toolCall.locations.at(-1);
        if (!location) {
            return;
        }
        // Judged as normalized: `/w/../etc/passwd` is not inside `/w`.
        const normalized = new Path(location.path).normalize();
        const filePath = normalized.fsPath();
        const place = JSON.stringify([toolCall.toolCallId, filePath, location.line]);
        const roots = this.workspace.tryGetRoots().map(root => root.resource.path.fsPath());
        if (place === this.lastShown || !normalized.isAbsolute || !roots.some(root => isPathWithin(filePath, root))) {
            return;
        }
        this.lastShown = place;
        // `/w/up/home/u/.ssh/id_rsa` is inside `/w` as written; with `up -> ../..` it is not.
        const landing = await this.backend.landingInWorkspace(chatSessionId, filePath).catch(error => {
            this.logger.debug(`Could not tell where ${filePath} lands: ${error}`);
            return undefined;
        });
        if (!landing) {
            this.logger.debug(`Not following the agent to ${filePath}: it lands outside the workspace folders`);
            return;
        }
        if (this.lastShown !== place) {
            return; // A later place was reported meanwhile.
        }
        const file = FileUri.create(filePath);
        const line = typeof location.line === 'number' && location.line > 0 ? location.line - 1 : 0;
        // 'reveal' shows the editor without activating it, but a new Monaco editor takes the focus as it
        // attaches: it goes back to where the user was (typing in the chat, say).
        const focused = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
        try {
            await this.editors.open(file, { mode: 'reveal', selection: { start: { line, character: 0 }, end: { line, character: 0 } } });
        } catch (error) {
            this.logger.debug(`Could not follow the agent to ${location.path}: ${error}`);
        }
        if (focused?.isConnected && document.activeElement !== focused) {
            focused.focus();
        }
    }
}
