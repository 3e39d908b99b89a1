import * as fs from 'fs';
import * as path from 'path';
import { randomUUID } from 'crypto';
import { inject, injectable, named } from 'inversify';
import { Contributions } from '../contributions';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FileUri } from '../file-uri';
import {
    CloseDiffArgumentsSchema, OpenDiffArgumentsSchema, IdeNotification, IdeNotificationMethod
} from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { CliSessionInfo, DiffOutcome, IdeCompanionFrontendClient, ReviewOrigin } from '../../common/window-protocol';
import { fromRpcText, toRpcText } from '../../common/rpc-text';
import { sanitizeClientText } from '../../common/client-text';
import { Emitter, Event } from 'vscode-jsonrpc';
import { CompanionLogger } from '../companion-logger';
import { McpEndpoint } from '../mcp-endpoint';
import { toolError } from '../tools/mcp-tool-results';
import { WindowContext } from '../window-context';
import { checkInsideRoots, describeRefusal } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { describeError, formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';

export interface OpenDiff {
    readonly id: string;
    readonly sessionId: string;
    readonly filePath: string;
    readonly openedAt: number;
    /** Claude Code names its diffs, and closes them by that name. */
    readonly tabName?: string;
}

interface PendingDiff extends OpenDiff {
    /**
     * Gives the session the user's answer: the answer of a blocking call (Claude Code's openDiff), or a
     * notification; false when the session is gone.
     */
    readonly deliver: (answer: Answer) => Promise<boolean>;
    /** Ends a waiting blocking call without an answer the CLI will act on (it decided in its terminal). */
    readonly settle?: (answer: Answer) => void;
    /** The path as log lines show it (the CLI chose it: it may hold line breaks or escape sequences). */
    readonly loggedPath: string;
}

const BINARY_SNIFF_BYTES = 8000;
/** Paths and reasons in log lines are cut here; a real path is shorter. */
const MAX_LOGGED_TEXT_LENGTH = 1000;

/** A CLI's path, or a reason quoting one, as a log line may hold it. */
function loggable(text: string): string {
    return sanitizeClientText(text, MAX_LOGGED_TEXT_LENGTH);
}

/** What the CLI is told: the accepted text, or that the change was rejected. */
export type Answer = { readonly accepted: true; readonly content: string } | { readonly accepted: false };

/**
 * The diff bookkeeping of one window: which CLI session proposed which change, the openDiff and
 * closeDiff tools, and routing each outcome to the session that asked, once.
 */
@injectable()
export class DiffReviewManager {
    protected readonly diffs = new Map<string, PendingDiff>();
    protected readonly onDidChangeEmitter = new Emitter<void>();
    /** Fires when a diff starts or stops waiting for the user. */
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    /** Every endpoint of the window: who proposed a diff, and whether that session is still there. */
    @inject(Contributions) @named(McpEndpoint)
    protected readonly endpoints: Contributions<McpEndpoint>;

    protected get logger(): CompanionLogger {
        return this.windowContext.log;
    }

    protected get frontend(): IdeCompanionFrontendClient | undefined {
        return this.windowContext.frontend;
    }

    protected sessions(): CliSessionInfo[] {
        return this.endpoints.getContributions().flatMap(endpoint => endpoint.connectedSessions);
    }

    /** The window's sessions changed: the diffs of sessions that ended close. */
    dropOrphans(): void {
        const live = new Set(this.sessions().map(session => session.sessionId));
        for (const diff of [...this.diffs.values()]) {
            if (!live.has(diff.sessionId)) {
                this.discard(diff, 'its CLI session ended');
            }
        }
    }

    get openDiffs(): OpenDiff[] {
        return [...this.diffs.values()].map(({ id, sessionId, filePath, openedAt, tabName }) => ({ id, sessionId, filePath, openedAt, ...(tabName ? { tabName } : {}) }));
    }

    async openDiff(sessionId: string, input: unknown, notify: (notification: IdeNotification) => Promise<boolean>): Promise<CallToolResult> {
        const parsed = OpenDiffArgumentsSchema.safeParse(input);
        if (!parsed.success) {
            const problems = formatZodIssues(parsed.error, 'arguments');
            this.logger.warn(`Refused an openDiff call with invalid arguments: ${loggable(problems)}`);
            return toolError(`Invalid openDiff arguments: ${problems}`);
        }
        const { filePath, newContent } = parsed.data;
        const deliver = (answer: Answer) => notify(answer.accepted
            ? { method: IdeNotificationMethod.DIFF_ACCEPTED, params: { filePath, content: answer.content } }
            : { method: IdeNotificationMethod.DIFF_REJECTED, params: { filePath } });
        const shown = await this.show({ sessionId, filePath, newContent, deliver });
        return typeof shown === 'string' ? toolError(shown) : { content: [] };
    }

    /**
     * Claude Code's openDiff: shows the proposal and resolves with the user's answer (or a rejection
     * when the tab is closed by the CLI, replaced, or its session ends). A string is why it could not be shown.
     */
    async openBlockingDiff(sessionId: string, request: { filePath: string; newContent: string; tabName: string }): Promise<Answer | string> {
        let settle: (answer: Answer) => void = () => undefined;
        const answered = new Promise<Answer>(resolve => settle = resolve);
        const shown = await this.show({ sessionId, ...request, settle, deliver: async answer => (settle(answer), true) });
        return typeof shown === 'string' ? shown : answered;
    }

    /** Opens the diff in the window; a string is the reason it could not be. */
    protected async show(request: {
        sessionId: string; filePath: string; newContent: string; tabName?: string; deliver: PendingDiff['deliver']; settle?: (answer: Answer) => void;
    }): Promise<PendingDiff | string> {
        const { sessionId, filePath, newContent, tabName, deliver, settle } = request;
        const frontend = this.frontend;
        if (!frontend) {
            return 'The Theia window of this session is not open (closed or reloading); the diff cannot be shown.';
        }
        let fileExists: boolean;
        try {
            fileExists = await this.checkTarget(filePath);
        } catch (error) {
            this.logger.warn(`Refused to show a diff: ${loggable(describeError(error))}`);
            return describeError(error);
        }
        // A newer proposal replaces only its own session's for the file, whose requester learns it was rejected:
        // another session's proposal for the same file is a review of its own (the window keys reviews by id).
        const previous = this.diffOf(sessionId, filePath);
        if (previous) {
            await this.reject(previous, 'replaced by a newer proposal');
            await frontend.closeDiff(previous.id).catch(() => undefined);
        }
        const diff: PendingDiff = {
            id: randomUUID(), sessionId, filePath, loggedPath: loggable(filePath), openedAt: Date.now(), deliver, ...(tabName ? { tabName } : {}), ...(settle ? { settle } : {})
        };
        this.diffs.set(diff.id, diff);
        try {
            await frontend.openDiff({
                id: diff.id, fileUri: FileUri.create(filePath).toString(), newContent: toRpcText(newContent), fileExists, proposedBy: this.proposer(sessionId),
                origin: this.origin(sessionId)
            });
        } catch (error) {
            this.diffs.delete(diff.id);
            this.logger.warn(`A diff for ${diff.loggedPath} could not be opened: ${loggable(describeError(error))}`);
            return `The diff could not be opened: ${describeError(error)}`;
        }
        this.logger.info(`Diff ${diff.id} opened for ${diff.loggedPath} (session ${sessionId})`);
        this.onDidChangeEmitter.fire();
        return diff;
    }

    /** Claude Code's close_tab / closeAllDiffTabs: closes the session's diffs (by tab name, or all); answers how many. */
    async closeDiffsOf(sessionId: string, tabName?: string): Promise<number> {
        const diffs = [...this.diffs.values()].filter(diff => diff.sessionId === sessionId && (tabName === undefined || diff.tabName === tabName));
        for (const diff of diffs) {
            this.remove(diff.id);
            await this.frontend?.closeDiff(diff.id).catch(() => undefined);
            // The CLI decided in its terminal and ignores a late answer; the waiting call still ends.
            diff.settle?.({ accepted: false });
            this.logger.info(`Diff ${diff.id} for ${diff.loggedPath} closed by the CLI`);
        }
        return diffs.length;
    }

    async closeDiff(sessionId: string, input: unknown): Promise<CallToolResult> {
        const parsed = CloseDiffArgumentsSchema.safeParse(input);
        if (!parsed.success) {
            return toolError(`Invalid closeDiff arguments: ${formatZodIssues(parsed.error, 'arguments')}`);
        }
        const { filePath, suppressNotification } = parsed.data;
        // Only the session's own proposal: another session of the window neither reads its text nor ends it.
        const diff = this.diffOf(sessionId, filePath);
        if (!diff) {
            // The user answered in the IDE first, or there never was one (from this session): nothing to close.
            return closeResult(null);
        }
        this.remove(diff.id);
        const shown = await this.frontend?.closeDiff(diff.id).catch(() => undefined);
        const content = shown === undefined ? undefined : fromRpcText(shown);
        if (!suppressNotification) {
            await this.notify(diff, { accepted: false });
        }
        this.logger.info(`Diff ${diff.id} for ${diff.loggedPath} closed by the CLI`);
        return closeResult(content ?? null);
    }

    /** The proposal a session made for a file, if it is still waiting. */
    protected diffOf(sessionId: string, filePath: string): PendingDiff | undefined {
        return [...this.diffs.values()].find(diff => diff.sessionId === sessionId && diff.filePath === filePath);
    }

    /** The user's answer in the window, as it came over the RPC (validated before anything changes). */
    async resolve(id: string, outcome: DiffOutcome): Promise<void> {
        const diff = this.diffs.get(id);
        if (!diff) {
            return;
        }
        const answer: Answer = outcome?.accepted === true ? { accepted: true, content: fromRpcText(outcome.content) } : { accepted: false };
        this.remove(id);
        await this.notify(diff, answer);
        this.logger.info(`Diff ${id} for ${diff.loggedPath} ${outcome.accepted ? 'accepted' : 'rejected'} in the window`);
    }

    /** The window went away for good: every pending diff is rejected. */
    async rejectAll(reason: string): Promise<void> {
        await Promise.all([...this.diffs.values()].map(diff => this.reject(diff, reason)));
    }

    protected async reject(diff: PendingDiff, reason: string): Promise<void> {
        this.remove(diff.id);
        this.logger.info(`Diff ${diff.id} for ${diff.loggedPath} rejected: ${reason}`);
        await this.notify(diff, { accepted: false });
    }

    protected discard(diff: PendingDiff, reason: string): void {
        this.remove(diff.id);
        diff.settle?.({ accepted: false });
        this.logger.info(`Diff ${diff.id} for ${diff.loggedPath} closed: ${reason}`);
        this.frontend?.closeDiff(diff.id).catch(() => undefined);
    }

    protected remove(id: string): void {
        if (this.diffs.delete(id)) {
            this.onDidChangeEmitter.fire();
        }
    }

    protected async notify(diff: PendingDiff, outcome: Answer): Promise<void> {
        if (!await diff.deliver(outcome)) {
            this.logger.warn(`The outcome of diff ${diff.id} for ${diff.loggedPath} could not be delivered: its CLI session is gone`);
        }
    }

    protected origin(sessionId: string): ReviewOrigin {
        const flavour = this.sessions().find(candidate => candidate.sessionId === sessionId)?.flavour;
        return { kind: 'cli', groupId: sessionId, label: this.proposer(sessionId), ...(flavour ? { flavour } : {}) };
    }

    protected proposer(sessionId: string): string {
        const session = this.sessions().find(candidate => candidate.sessionId === sessionId);
        return session ? `${session.clientLabel} (${`${session.clientName} ${session.clientVersion}`.trim()})` : 'a CLI';
    }

    /** Refuses what cannot be reviewed safely; resolves whether the file exists. */
    protected async checkTarget(filePath: string): Promise<boolean> {
        if (!path.isAbsolute(filePath)) {
            throw new Error(`filePath must be absolute, got ${JSON.stringify(filePath)}`);
        }
        const roots = this.windowContext.roots;
        if (!roots.length) {
            throw new Error(`This window has no workspace folder open; refusing to show a change to ${filePath}`);
        }
        // Judged by where the path lands, dangling links followed: accepting a "new file" must not write outside.
        const refusal = describeRefusal(filePath, await checkInsideRoots(filePath, roots), roots);
        if (refusal) {
            throw new Error(`${filePath} ${refusal}; refusing to show a change to it`);
        }
        let stat: fs.Stats;
        try {
            stat = await fs.promises.stat(filePath);
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
                return false;
            }
            throw error;
        }
        if (stat.isDirectory()) {
            throw new Error(`${filePath} is a directory, not a file`);
        }
        if (!stat.isFile()) {
            throw new Error(`${filePath} is not a regular file`);
        }
        if (await looksBinary(filePath)) {
            throw new Error(`${filePath} is a binary file; its changes cannot be reviewed as text`);
        }
        return true;
    }
}

function closeResult(content: string | null): CallToolResult {
    return { content: [{ type: 'text', text: JSON.stringify({ content }) }] };
}

async function looksBinary(filePath: string): Promise<boolean> {
    // Checked as a regular file just before, but it may have become a named pipe since: opening one must not wait for a writer.
    const handle = await fs.promises.open(filePath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
        if (!(await handle.stat()).isFile()) {
            throw new Error(`${filePath} is not a regular file`);
        }
        const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
        return buffer.subarray(0, bytesRead).includes(0);
    } finally {
        await handle.close();
    }
}
