import type * as acp from '@agentclientprotocol/sdk';
import { inject, injectable } from '@theia/core/shared/inversify';
import type { ToolCallState } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatClient } from '../common/acp-chat-protocol';
import { AcpFileAccess } from './acp-file-access';
import { AcpTerminalPresenter } from './acp-terminal-presenter';

/** What renders one chat session's running turn; set while a request is in flight. */
export interface AcpTurnSink {
    onUpdate(update: acp.SessionUpdate, toolCall?: ToolCallState): void;
    askPermission(request: acp.RequestPermissionRequest, toolCall: ToolCallState): Promise<acp.RequestPermissionOutcome>;
    /** The text to write instead of the agent's, when the user edited its proposal before allowing it. */
    contentToWrite(request: acp.WriteTextFileRequest): string;
    onAgentExit(message: string): void;
}

/** Receives the backend's calls for this window and hands them to the chat session they belong to. */
@injectable()
export class AcpChatClientImpl implements AcpChatClient {

    @inject(AcpFileAccess) protected readonly files: AcpFileAccess;
    @inject(AcpTerminalPresenter) protected readonly terminals: AcpTerminalPresenter;

    protected readonly sinks = new Map<string, AcpTurnSink>();
    /** Exits that happened while no turn ran: the next turn of that chat says so. */
    readonly exitsWhileIdle = new Map<string, string>();

    attach(chatSessionId: string, sink: AcpTurnSink): void {
        this.sinks.set(chatSessionId, sink);
    }

    detach(chatSessionId: string, sink: AcpTurnSink): void {
        if (this.sinks.get(chatSessionId) === sink) {
            this.sinks.delete(chatSessionId);
        }
    }

    onSessionUpdate(chatSessionId: string, update: acp.SessionUpdate, toolCall?: ToolCallState): void {
        this.sinks.get(chatSessionId)?.onUpdate(update, toolCall);
    }

    async askPermission(chatSessionId: string, request: acp.RequestPermissionRequest, toolCall: ToolCallState): Promise<acp.RequestPermissionOutcome> {
        const sink = this.sinks.get(chatSessionId);
        // Nobody can answer outside a turn: the agent is told the question was withdrawn.
        return sink ? sink.askPermission(request, toolCall) : { outcome: 'cancelled' };
    }

    async openEditorText(_chatSessionId: string, filePath: string): Promise<string | undefined> {
        return this.files.openEditorText(filePath);
    }

    async editedContentFor(chatSessionId: string, request: acp.WriteTextFileRequest): Promise<string | undefined> {
        const content = this.sinks.get(chatSessionId)?.contentToWrite(request);
        return content !== undefined && content !== request.content ? content : undefined;
    }

    async didWriteTextFile(_chatSessionId: string, filePath: string): Promise<void> {
        await this.files.reload(filePath);
    }

    showTerminal(_chatSessionId: string, terminal: { terminalId: string; processId: number; title: string }): void {
        void this.terminals.show(terminal);
    }

    onAgentExit(chatSessionId: string, message: string): void {
        const sink = this.sinks.get(chatSessionId);
        if (sink) {
            sink.onAgentExit(message);
        } else {
            this.exitsWhileIdle.set(chatSessionId, message);
        }
    }
}
