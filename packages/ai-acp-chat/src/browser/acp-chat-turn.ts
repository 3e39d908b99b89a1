import type * as acp from '@agentclientprotocol/sdk';
import { ChatResponseContent, MutableChatRequestModel, ThinkingChatResponseContentImpl } from '@theia/ai-chat';
import { nls } from '@theia/core/lib/common/nls';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { OMITTED_MARKER, subagentParentOf, ToolCallState } from '@theia-cli-companion/acp-client/lib/common';
import type { DiffReviewService, ReviewedProposal } from '@theia-cli-companion/ai-cli-core/lib/browser';
import { AcpTurnSink } from './acp-chat-client-impl';
import { AcpPermissionRequest, PermissionAnswer } from './acp-permission-request';
import { AcpToolCallContent } from './acp-tool-call-content';
import { AgentMarkdownContent } from './agent-markdown/agent-markdown-content';
import { markdownText } from './agent-markdown/markdown-text';
import { describeTurnUsage, SessionUsage, usageOf } from './session-bar/session-usage';
import { AcpQuestionContent } from './questions/acp-question-content';
import type { AcpQuestion, AcpQuestionAnswer } from '../common/acp-chat-protocol';

/** The files a permission diff is about, on disk: agents such as Claude Code and Codex write them themselves. */
export interface AgentWrittenFiles {
    /** The file's text, undefined when it does not exist. */
    read(filePath: string): Promise<string | undefined>;
    /** Puts `reviewed` in place of the agent's write if the file holds exactly `expected`; false otherwise. */
    replaceWritten(filePath: string, expected: string, reviewed: string): Promise<boolean>;
}

const TERMINAL_STATUSES = new Set(['completed', 'failed']);

/**
 * One prompt turn of an ACP agent, rendered into a Theia chat response: message chunks as
 * markdown, thoughts as a collapsed thinking part, plans as a checklist, tool calls with their
 * kind, title, status and output, and permission requests as questions (with the proposed change
 * in a Monaco diff review when the tool call carries one).
 */
export class AcpChatTurn implements AcpTurnSink {
    /** Paths the user allowed with an edited proposal: the agent's write is replaced by the user's text. */
    protected readonly editedProposals = new Map<string, { proposed: string; edited: string }>();
    /** The permission requests not answered yet, by tool call id. */
    protected readonly permissions = new Map<string, AcpPermissionRequest>();
    protected readonly questions = new Map<string, AcpQuestionContent>();
    /** What the user allowed to be written where, after seeing it: such a write is reviewed. */
    protected readonly allowedWrites = new Map<string, string>();
    /**
     * What the agent must be told with the next prompt: it believes it wrote its own text where the
     * reviewed text was written instead (ACP has no way to allow a write "with changes").
     */
    readonly notesForAgent: string[] = [];
    protected lastPlan = '';
    exitMessage?: string;
    protected writes = 0;
    /** Tool calls whose output the chat shows cut (id → title): the chat's, shared by its turns. */
    omittedOutputs = new Map<string, string>();
    /** Set while the turn's session is being started or reopened: what the agent replays then is not this turn's. */
    openingSession = false;
    /** The chat's usage when the turn started: its end says what the turn added. */
    usageBefore?: SessionUsage;
    protected usageAfter?: SessionUsage;
    /** Allowed tool calls whose files the user reviewed with changes: settled when the tool call completes. */
    protected readonly reviewedToolCalls = new Map<string, string[]>();
    /** Reviewed texts being put in place: the turn is over when they are. */
    protected readonly settling = new Set<Promise<void>>();
    /** The chat's workspace folders: the only place a `file:` link in the agent's markdown may go. */
    roots: readonly string[] = [];
    /**
     * This turn's tool calls as the chat shows them, by id, each with the call it is shown under (the one that
     * started its subagent), decided when it is first shown: a subagent's work goes under that call.
     */
    protected readonly toolCalls = new Map<string, { readonly content: AcpToolCallContent; readonly host?: AcpToolCallContent }>();

    constructor(
        protected readonly request: MutableChatRequestModel,
        protected readonly agentName: string,
        protected readonly diffs: DiffReviewService,
        protected readonly onMode: (modeId: string) => void,
        protected readonly files: AgentWrittenFiles
    ) { }

    protected add(content: ChatResponseContent): void {
        this.request.response.response.addContent(content);
    }

    /** Markdown the agent wrote or shaped (a path, a title): its links go only to the web and into the workspace folders. */
    protected markdown(text: string): AgentMarkdownContent {
        return new AgentMarkdownContent(text, this.roots);
    }

    /**
     * A part of the answer, under the tool call whose subagent made it (`parent`) when this turn shows that call;
     * otherwise in the answer itself (a subagent started in an earlier turn).
     */
    protected addFrom(parent: string | undefined, content: ChatResponseContent): void {
        this.addTo(parent === undefined ? undefined : this.toolCalls.get(parent)?.content, content);
    }

    protected addTo(host: AcpToolCallContent | undefined, content: ChatResponseContent): void {
        if (!host) {
            this.add(content);
            return;
        }
        const first = !host.subagent;
        host.activity().add(content);
        if (first) {
            // The call is drawn differently from now on: shown again where it is (it merges into itself), its view redraws it.
            this.addTo(this.toolCalls.get(host.id!)?.host, host);
        }
    }

    onUpdate(update: acp.SessionUpdate, toolCall?: ToolCallState): void {
        if (this.openingSession) {
            // A session/load replays the session's history: the chat shows its own, not again in this answer.
            return;
        }
        switch (update.sessionUpdate) {
            case 'agent_message_chunk':
                this.addFrom(subagentParentOf(update), this.markdown(textOf(update.content)));
                break;
            case 'agent_thought_chunk':
                this.addFrom(subagentParentOf(update), new ThinkingChatResponseContentImpl(textOf(update.content), ''));
                break;
            case 'tool_call':
            case 'tool_call_update':
                if (toolCall) {
                    this.addToolCall(toolCall);
                    if (toolCall.status === 'completed') {
                        const settling = this.settleReviewedWrites(toolCall.toolCallId);
                        this.settling.add(settling);
                        settling.finally(() => this.settling.delete(settling)).catch(() => undefined);
                    }
                }
                break;
            case 'plan':
                this.addPlan(update.entries);
                break;
            case 'current_mode_update':
                this.onMode(update.currentModeId);
                break;
            case 'usage_update':
                // The chat's session bar shows it as it comes; the turn's end says what the turn added.
                this.usageAfter = usageOf(update) ?? this.usageAfter;
                break;
            default:
                // user_message_chunk (a replay) and kinds newer than this client: nothing to render in a live turn.
                break;
        }
    }

    protected addToolCall(state: ToolCallState): void {
        // Theia shows the input as markdown (in its tooltip and confirmation), its keys as they are: escaped here.
        const args = JSON.stringify(escapedKeys(state.rawInput ?? { kind: state.kind, locations: state.locations.map(location => location.path) }));
        const finished = TERMINAL_STATUSES.has(state.status);
        const output = state.content.map(item => item.type === 'content' ? textOf(item.content)
            : item.type === 'diff' ? `diff of ${item.path}` : `terminal ${item.terminalId}`).join('\n');
        const cut = output.includes(OMITTED_MARKER);
        if (cut) {
            this.omittedOutputs.set(state.toolCallId, state.title);
        }
        const more = cut ? `\n${nls.localize('theia-cli-companion/acp-chat/fullOutput', '(The whole output: CLI Companion: Show Full Tool Output…)')}` : '';
        const result = finished ? (state.status === 'failed' ? `failed: ${output}` : output || state.status) + more : undefined;
        const content = new AcpToolCallContent(state.toolCallId, `${state.title} (${state.kind}, ${state.status})`, args, finished, result && shownAsText(result));
        const shown = this.toolCalls.get(state.toolCallId);
        const host = shown ? shown.host : this.toolCalls.get(state.parentToolCallId ?? '')?.content;
        if (!shown) {
            this.toolCalls.set(state.toolCallId, { content, host });
        }
        // Theia's chat and a subagent's activity both merge a call's updates into the part first shown.
        this.addTo(host, content);
    }

    protected addPlan(entries: acp.PlanEntry[]): void {
        // Theia's chat markdown has no task lists: the boxes are characters.
        const box = { completed: '☑', in_progress: '▶', pending: '☐' } as const;
        const checklist = entries.map(entry => `- ${box[entry.status] ?? '☐'} ${entry.content}${entry.status === 'in_progress' ? ' *(in progress)*' : ''}`).join('\n');
        if (checklist !== this.lastPlan) {
            this.lastPlan = checklist;
            this.add(this.markdown(`\n\n**${nls.localize('theia-cli-companion/acp-chat/plan', 'Plan')}**\n\n${checklist}\n\n`));
        }
    }

    async askPermission(params: acp.RequestPermissionRequest, toolCall: ToolCallState): Promise<acp.RequestPermissionOutcome> {
        this.addToolCall(toolCall);
        const permission = new AcpPermissionRequest(params, toolCall, {
            request: this.request, agentName: this.agentName, reviews: this.diffs, read: filePath => this.files.read(filePath)
        });
        this.permissions.set(toolCall.toolCallId, permission);
        try {
            const answer = await permission.ask();
            this.remember(toolCall.toolCallId, answer);
            return answer.outcome;
        } finally {
            if (this.permissions.get(toolCall.toolCallId) === permission) {
                this.permissions.delete(toolCall.toolCallId);
            }
        }
    }

    /**
     * What the writes that follow an answer need: an allowed file's proposal (such a write is reviewed), the
     * user's text in place of the agent's, and the tool calls whose files get the user's text when they complete.
     */
    protected remember(toolCallId: string, answer: PermissionAnswer): void {
        for (const { diff, text } of answer.written) {
            if (text === undefined) {
                this.add(this.markdown(`\n\n*${nls.localize('theia-cli-companion/acp-chat/rejectedNewFile',
                    'You rejected the new file {0}, but the agent may still create it: ACP can only allow or reject the whole tool call.', diff.path)}*\n\n`));
            } else if (text !== diff.proposed) {
                this.editedProposals.set(diff.path, { proposed: diff.proposed, edited: text });
            }
        }
        if (!answer.allows) {
            return;
        }
        answer.reviewed.forEach(diff => this.allowedWrites.set(diff.path, diff.proposed));
        const edited = answer.reviewed.filter(diff => this.editedProposals.has(diff.path)).map(diff => diff.path);
        if (edited.length) {
            this.reviewedToolCalls.set(toolCallId, edited);
        }
    }

    /**
     * An allowed tool call is done. A file the user reviewed with changes that no `fs/write_text_file`
     * brought (the agent wrote it itself, as Claude Code and Codex do) now gets the reviewed text, if the
     * file holds what the agent proposed; otherwise the chat says the reviewed text was not applied.
     */
    protected async settleReviewedWrites(toolCallId: string): Promise<void> {
        const paths = this.reviewedToolCalls.get(toolCallId) ?? [];
        this.reviewedToolCalls.delete(toolCallId);
        for (const filePath of paths) {
            const edited = this.editedProposals.get(filePath);
            if (!edited) {
                continue;
            }
            this.editedProposals.delete(filePath);
            this.allowedWrites.delete(filePath);
            if (await this.files.replaceWritten(filePath, edited.proposed, edited.edited).catch(() => false)) {
                this.tellWroteReviewed(filePath);
            } else {
                this.add(this.markdown(`\n\n*${nls.localize('theia-cli-companion/acp-chat/reviewedNotApplied',
                    '{0} does not hold what the agent proposed after its write, so the text you reviewed was not put in its place: check the file.', filePath)}*\n\n`));
            }
        }
    }

    /**
     * A write the user did not allow after seeing it (the session's mode edits without asking, "Allow
     * for this session" was chosen earlier, or the agent writes other text than it showed), as Pending
     * Changes lists it for Undo; undefined for a reviewed write.
     */
    unreviewedWrite(request: acp.WriteTextFileRequest): ReviewedProposal | undefined {
        const allowed = this.allowedWrites.get(request.path);
        const edited = this.editedProposals.get(request.path);
        if (allowed === request.content || edited?.proposed === request.content) {
            this.allowedWrites.delete(request.path);
            return undefined;
        }
        return {
            id: `acp-write-${this.request.id}-${++this.writes}`, fileUri: FileUri.create(request.path).toString(), newContent: request.content, fileExists: true,
            proposedBy: this.agentName, origin: { kind: 'acp', groupId: this.request.session.id, label: this.agentName }
        };
    }

    contentToWrite(request: acp.WriteTextFileRequest): string {
        const edited = this.editedProposals.get(request.path);
        if (edited && edited.proposed === request.content) {
            this.editedProposals.delete(request.path);
            this.tellWroteReviewed(request.path);
            return edited.edited;
        }
        return request.content;
    }

    /** The chat says the reviewed text is in the file; the agent hears it with the next message. */
    protected tellWroteReviewed(filePath: string): void {
        this.add(this.markdown(`\n\n*${nls.localize('theia-cli-companion/acp-chat/wroteEdited',
            'Wrote {0} as you reviewed it (your edits, and without the changes you rejected); the agent is told with your next message.', filePath)}*\n\n`));
        this.notesForAgent.push(`Note from the IDE: when you wrote ${filePath}, the user had reviewed your proposed change and changed it `
            + '(edited it, or rejected some of your changes). The file holds the text the user reviewed, not the text you sent. '
            + 'Read the file again before you edit it further.');
    }

    /** Resolves once the reviewed texts of completed tool calls are in place. */
    async settled(): Promise<void> {
        await Promise.allSettled([...this.settling]);
    }

    onAgentExit(message: string): void {
        this.exitMessage = message;
    }

    /** Said in the answer, where the agent's next words may depend on it: the agent was told it cannot have that here. */
    onUnsupportedRequest(method: string): void {
        this.add(this.markdown(`\n\n*${nls.localize('theia-cli-companion/acp-chat/unsupportedRequest',
            '{0} asked for {1}, which this chat does not support yet; it was told so ("method not found").', this.agentName, `\`${method.replace(/`/g, '')}\``)}*\n\n`));
    }

    /** What the turn added to the context (and the cost), for the end of its response; undefined when the agent said nothing of it. */
    usageNote(): AgentMarkdownContent | undefined {
        const text = describeTurnUsage(this.usageBefore, this.usageAfter);
        return text ? new AgentMarkdownContent(`\n\n*${markdownText(text)}*`, this.roots) : undefined;
    }

    /** The agent's question, asked in this response; the turn waits for this chat's input until it is answered or closed. */
    askQuestion(question: AcpQuestion): Promise<AcpQuestionAnswer> {
        const content = new AcpQuestionContent(question, this.request, this.agentName);
        this.questions.set(question.id, content);
        this.add(content);
        // A URL question stays known after the user opened it: the agent then says it is done (elicitation/complete).
        return content.answer.finally(() => content.state === 'answered' && question.url ? undefined : this.questions.delete(question.id));
    }

    closeQuestion(questionId: string, why: 'withdrawn' | 'completed'): void {
        const question = this.questions.get(questionId);
        if (why === 'completed' && question?.state === 'answered') {
            question.complete();
        } else {
            question?.close(why);
        }
        this.questions.delete(questionId);
    }

    withdrawPermission(toolCallId: string): void {
        this.permissions.get(toolCallId)?.withdraw();
    }

    onQuestionRefused(reason: string): void {
        this.add(this.markdown(`\n\n*${markdownText(reason)}*\n\n`));
    }

    /** Closes the reviews and questions still open when the turn ends (cancelled, failed): they are moot. */
    dispose(): void {
        this.permissions.forEach(permission => permission.dispose());
        this.questions.forEach(question => question.close('withdrawn'));
    }
}

function textOf(content: acp.ContentBlock | undefined | null): string {
    if (!content) {
        return '';
    }
    switch (content.type) {
        case 'text': return content.text;
        // A link only where its URI passes the test of every link of the agent's (see agentMarkdownHtml).
        case 'resource_link': return `[${markdownText(content.name)}](<${content.uri.replace(/[<>\\\r\n]/g, encodeURIComponent)}>)`;
        case 'resource': return 'text' in content.resource ? content.resource.text : `[${content.resource.uri}]`;
        default: return `*[${content.type}]*`;
    }
}

/**
 * A tool's output as Theia's chat shows it: in a `<pre>`, as it is. Theia renders a result that parses as
 * JSON tool content (`{"content":[{"type":"text",…}]}`) as markdown: such output goes as a JSON string.
 */
function shownAsText(output: string): string {
    try {
        JSON.parse(output);
    } catch {
        return output;
    }
    return JSON.stringify(output);
}

/**
 * A JSON value whose object keys cannot start a link, HTML, an entity or a code span, nor a line, where
 * Theia writes them (`**key:**` inside a line of markdown); `file_path` stays as it is (Theia's label
 * shows keys as text).
 */
function escapedKeys(value: unknown): unknown {
    if (Array.isArray(value)) {
        return value.map(escapedKeys);
    }
    if (typeof value === 'object' && value !== null) {
        return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.replace(/[\r\n]+/g, ' ').replace(/[\\`[\]<>&]/g, '\\$&'), escapedKeys(item)]));
    }
    return value;
}
