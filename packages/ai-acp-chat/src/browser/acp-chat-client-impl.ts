import type * as acp from '@agentclientprotocol/sdk';
import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { AppliedChanges, ReviewedProposal } from '@theia-cli-companion/ai-cli-core/lib/browser';
import type { ToolCallState } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatClient, AcpQuestion, AcpQuestionAnswer } from '../common/acp-chat-protocol';
import { AcpFileAccess } from './acp-file-access';
import { AcpChatSessionState, AcpChatSessionStates } from './acp-chat-session-states';
import { AcpTerminalPresenter } from './acp-terminal-presenter';
import { AcpToolCallEvents } from './acp-tool-call-events';
import { AcpTurnSinks } from './acp-turn-sinks';

/** What renders one chat session's running turn; set while a request is in flight. */
export interface AcpTurnSink {
    onUpdate(update: acp.SessionUpdate, toolCall?: ToolCallState): void;
    askPermission(request: acp.RequestPermissionRequest, toolCall: ToolCallState): Promise<acp.RequestPermissionOutcome>;
    /** The text to write instead of the agent's, when the user edited its proposal before allowing it. */
    contentToWrite(request: acp.WriteTextFileRequest): string;
    /** The write as Pending Changes lists it when the user did not review it; undefined for a reviewed one. */
    unreviewedWrite(request: acp.WriteTextFileRequest): ReviewedProposal | undefined;
    onAgentExit(message: string): void;
    /** The agent asked for `method`, which the client does not serve; it was answered "method not found". */
    onUnsupportedRequest(method: string): void;
    /** Asks the agent's question in the turn's response. */
    askQuestion(question: AcpQuestion): Promise<AcpQuestionAnswer>;
    closeQuestion(questionId: string, why: 'withdrawn' | 'completed'): void;
    /** The agent withdrew its permission request for this tool call. */
    withdrawPermission(toolCallId: string): void;
    /** Says in the turn that the agent asked a question the chat cannot show. */
    onQuestionRefused(reason: string): void;
}

/** Receives the backend's calls for this window and hands them to the chat session they belong to. */
@injectable()
export class AcpChatClientImpl implements AcpChatClient {

    @inject(AcpFileAccess) protected readonly files: AcpFileAccess;
    @inject(AcpTerminalPresenter) protected readonly terminals: AcpTerminalPresenter;
    @inject(AcpToolCallEvents) protected readonly toolCalls: AcpToolCallEvents;
    @inject(AcpChatSessionStates) protected readonly states: AcpChatSessionStates;
    @inject(AppliedChanges) protected readonly appliedChanges: AppliedChanges;
    @inject(ILogger) @named('ai-acp-chat:AcpChatClient') protected readonly logger: ILogger;

    protected readonly sinks = new AcpTurnSinks();
    /** The unsupported methods each chat was told of (the chat says each once). */
    protected readonly toldUnsupported = new Map<string, Set<string>>();
    /** Exits that happened while no turn ran: the next turn of that chat says so. */
    readonly exitsWhileIdle = new Map<string, string>();
    /**
     * The agent each chat talks to in the backend now (by agent name), set as a start is asked: an agent
     * whose chat talks to another one starts (or resumes) its session again before it sends anything.
     */
    readonly chatAgents = new Map<string, string>();

    attach(chatSessionId: string, sink: AcpTurnSink, agentName?: string): void {
        this.sinks.attach(chatSessionId, sink, agentName);
    }

    detach(chatSessionId: string, sink: AcpTurnSink): void {
        this.sinks.detach(chatSessionId, sink);
    }

    /** The chat's running turn, when it is a turn of the agent the chat talks to (see {@link AcpTurnSinks}). */
    protected sinkOf(chatSessionId: string): AcpTurnSink | undefined {
        return this.sinks.of(chatSessionId, this.chatAgents.get(chatSessionId));
    }

    /** What the window knows of the chat's session now (its settings, usage, commands). */
    sessionState(chatSessionId: string): AcpChatSessionState {
        return this.states.of(chatSessionId);
    }

    onSessionUpdate(chatSessionId: string, update: acp.SessionUpdate, toolCall?: ToolCallState): void {
        // Between turns too: settings, titles, usage and commands come whenever the agent has them.
        this.states.apply(chatSessionId, update);
        this.sinkOf(chatSessionId)?.onUpdate(update, toolCall);
        if (toolCall) {
            this.toolCalls.fire(chatSessionId, toolCall);
        }
    }

    async askPermission(chatSessionId: string, request: acp.RequestPermissionRequest, toolCall: ToolCallState): Promise<acp.RequestPermissionOutcome> {
        const sink = this.sinkOf(chatSessionId);
        // Nobody can answer outside a turn: the agent is told the question was withdrawn.
        return sink ? sink.askPermission(request, toolCall) : { outcome: 'cancelled' };
    }

    async openEditorText(_chatSessionId: string, filePath: string): Promise<string | undefined> {
        return this.files.openEditorText(filePath);
    }

    async editedContentFor(chatSessionId: string, request: acp.WriteTextFileRequest): Promise<string | undefined> {
        const sink = this.sinkOf(chatSessionId);
        const unreviewed = sink?.unreviewedWrite(request);
        if (unreviewed) {
            await this.keepForUndo(unreviewed);
        }
        const content = sink?.contentToWrite(request);
        return content !== undefined && content !== request.content ? content : undefined;
    }

    /**
     * Writes the user did not review are listed in Pending Changes with Undo: the backend keeps the
     * file's bytes first. If it cannot (a path it refuses, a file too large), the write is not held up:
     * the backend's own checks decide it.
     */
    protected async keepForUndo(proposal: ReviewedProposal): Promise<void> {
        try {
            await this.appliedChanges.keep(proposal);
        } catch (error) {
            this.logger.warn(`No Undo for the agent's write to ${proposal.fileUri}: ${error}`);
        }
    }

    async didWriteTextFile(_chatSessionId: string, filePath: string): Promise<void> {
        await this.files.reload(filePath);
    }

    showTerminal(_chatSessionId: string, terminal: { terminalId: string; processId: number; title: string }): void {
        void this.terminals.show(terminal);
    }

    onUnsupportedRequest(chatSessionId: string, method: string): void {
        this.logger.warn(`Chat ${chatSessionId}: the agent asked "${method}", which this chat does not support; it was answered "method not found"`);
        // An extension method (ACP: its name starts with "_") is optional by definition: "method not found" is an expected answer.
        if (method.startsWith('_')) {
            return;
        }
        const sink = this.sinkOf(chatSessionId);
        const told = this.toldUnsupported.get(chatSessionId) ?? new Set<string>();
        // Once per chat: an agent that asks the same each turn (Qwen Code's craft/drainMidTurnQueue) is not news the second time.
        if (sink && !told.has(method) && told.size < 100) {
            told.add(method);
            this.toldUnsupported.set(chatSessionId, told);
            sink.onUnsupportedRequest(method);
        }
    }

    async askQuestion(chatSessionId: string, question: AcpQuestion): Promise<AcpQuestionAnswer> {
        const sink = this.sinkOf(chatSessionId);
        // Nobody can answer outside a turn: the agent is told the question was dismissed.
        return sink ? sink.askQuestion(question) : { action: 'cancel' };
    }

    questionClosed(chatSessionId: string, questionId: string, why: 'withdrawn' | 'completed'): void {
        this.sinkOf(chatSessionId)?.closeQuestion(questionId, why);
    }

    permissionWithdrawn(chatSessionId: string, toolCallId: string): void {
        this.sinkOf(chatSessionId)?.withdrawPermission(toolCallId);
    }

    onQuestionRefused(chatSessionId: string, reason: string): void {
        this.logger.warn(`Chat ${chatSessionId}: ${reason}`);
        this.sinkOf(chatSessionId)?.onQuestionRefused(reason);
    }

    onAgentExit(chatSessionId: string, message: string): void {
        const sink = this.sinkOf(chatSessionId);
        if (sink) {
            sink.onAgentExit(message);
        } else {
            this.exitsWhileIdle.set(chatSessionId, message);
        }
    }
}
