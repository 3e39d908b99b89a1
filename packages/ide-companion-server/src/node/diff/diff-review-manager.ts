import { randomUUID } from 'crypto';
import { inject, injectable, named } from 'inversify';
import { Emitter, Event } from 'vscode-jsonrpc';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { Contributions } from '../contributions';
import { FileUri } from '../file-uri';
import { CliSessionInfo, DiffOutcome, WindowEditorClient, ReviewOrigin } from '../../common/window-protocol';
import { fromRpcText, toRpcText } from '../../common/rpc-text';
import { sanitizeClientText } from '../../common/client-text';
import { WindowLogger } from '../window-logger';
import { McpEndpoint } from '../mcp-endpoint';
import { WindowContext } from '../window-context';
import { checkReviewTarget } from './diff-review-target';
import { timingMark } from '@theia-cli-companion/cli-process/lib/node';

/** Paths and reasons in log lines are cut here; a real path is shorter. */
const MAX_LOGGED_TEXT_LENGTH = 1000;

/** A CLI's path, or a reason quoting one, as a log line may hold it. */
function loggable(text: string): string {
    return sanitizeClientText(text, MAX_LOGGED_TEXT_LENGTH);
}

/** What the user decided: the accepted text (as the window last showed it), or a rejection. */
export type DiffAnswer = { readonly accepted: true; readonly content: string } | { readonly accepted: false };

/** Why a proposal stopped waiting. Only `answered` carries the user's decision; every other reason is a rejection. */
export type DiffSettlementReason =
    /** The user accepted or rejected it in the window. */
    | 'answered'
    /** The same session proposed a newer change to the same file. */
    | 'replaced'
    /** The session that proposed it closed it (Gemini's closeDiff, Claude's close_tab and closeAllDiffTabs). */
    | 'closed-by-cli'
    /** The session that proposed it ended. */
    | 'session-ended'
    /** The window closed for good. */
    | 'window-closed';

export interface DiffSettlement {
    readonly reason: DiffSettlementReason;
    readonly answer: DiffAnswer;
}

/** A proposal waiting for the user, as the window's status lists it. */
export interface OpenDiff {
    readonly id: string;
    readonly sessionId: string;
    readonly filePath: string;
    readonly openedAt: number;
    /** Claude Code names its diffs, and closes them by that name. */
    readonly tabName?: string;
}

/** A proposal shown in the window; its proposer awaits `settled`. */
export interface PendingDiff extends OpenDiff {
    /** The path as log lines show it (the CLI chose it: it may hold line breaks or escape sequences). */
    readonly loggedPath: string;
    /** Settles once, when the diff stops waiting (see DiffSettlementReason). */
    readonly settled: Promise<DiffSettlement>;
}

/** A change a CLI session proposes for review. */
export interface ProposedChange {
    readonly sessionId: string;
    readonly filePath: string;
    readonly newContent: string;
    readonly tabName?: string;
}

/** The proposal shown, or why it could not be (the text a CLI is told). */
export type ProposalResult = { readonly shown: PendingDiff } | { readonly refused: string };

/** Which of a session's diffs to close. */
export type DiffSelection = { readonly filePath: string } | { readonly tabName: string } | 'all';

export interface ClosedDiff {
    readonly diff: PendingDiff;
    /** The text of the proposed side as the window showed it (with the user's edits), when the window could tell. */
    readonly shownText?: string;
}

const REJECTED: DiffAnswer = { accepted: false };

interface Waiting {
    readonly diff: PendingDiff;
    readonly settle: (settlement: DiffSettlement) => void;
}

/**
 * The proposals of one window's CLI sessions and their answers: `propose` shows a change in the window,
 * `resolve` (the window's RPC) and `close`, `dropOrphans`, `rejectAll` settle it, each once. What a
 * settlement means to a CLI (a tool's answer, a notification) is the proposing tool's business.
 */
@injectable()
export class DiffReviewManager {
    protected readonly waiting = new Map<string, Waiting>();
    /** What proposers do with settlements (notifications in flight); the window's closing waits for them. */
    protected readonly deliveries = new Set<Promise<void>>();
    protected readonly onDidChangeEmitter = new Emitter<void>();
    /** Fires when a diff starts or stops waiting for the user. */
    readonly onDidChange: Event<void> = this.onDidChangeEmitter.event;

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    /** Every endpoint of the window: who proposed a diff, and whether that session is still there. */
    @inject(Contributions) @named(McpEndpoint)
    protected readonly endpoints: Contributions<McpEndpoint>;

    protected get logger(): WindowLogger {
        return this.windowContext.log;
    }

    protected get frontend(): WindowEditorClient | undefined {
        return this.windowContext.frontend;
    }

    get openDiffs(): OpenDiff[] {
        return [...this.waiting.values()].map(({ diff: { id, sessionId, filePath, openedAt, tabName } }) =>
            ({ id, sessionId, filePath, openedAt, ...(tabName ? { tabName } : {}) }));
    }

    /**
     * Shows the change in the window, once its target is checked (absolute, inside the roots, a regular text
     * file or none yet). A newer proposal of the same session for the same file replaces the older one.
     */
    async propose({ sessionId, filePath, newContent, tabName }: ProposedChange): Promise<ProposalResult> {
        const frontend = this.frontend;
        if (!frontend) {
            return { refused: 'The Theia window of this session is not open (closed or reloading); the diff cannot be shown.' };
        }
        let fileExists: boolean;
        try {
            fileExists = await checkReviewTarget(filePath, this.windowContext.roots);
        } catch (error) {
            this.logger.warn(`Refused to show a diff: ${loggable(describeError(error))}`);
            return { refused: describeError(error) };
        }
        // A newer proposal replaces only its own session's for the file: another session's proposal for the
        // same file is a review of its own (the window keys reviews by id).
        const previous = this.diffOf(sessionId, filePath);
        if (previous) {
            this.settle(previous, 'replaced');
            this.logger.info(`Diff ${previous.id} for ${previous.loggedPath} rejected: replaced by a newer proposal`);
            await frontend.closeDiff(previous.id).catch(() => undefined);
        }
        const id = randomUUID();
        let settle: (settlement: DiffSettlement) => void = () => undefined;
        const settled = new Promise<DiffSettlement>(resolve => settle = resolve);
        const diff: PendingDiff = { id, sessionId, filePath, loggedPath: loggable(filePath), openedAt: Date.now(), settled, ...(tabName ? { tabName } : {}) };
        this.waiting.set(id, { diff, settle });
        try {
            timingMark('diff:to-window');
            await frontend.openDiff({
                id, fileUri: FileUri.create(filePath).toString(), newContent: toRpcText(newContent), fileExists, proposedBy: this.proposer(sessionId),
                origin: this.origin(sessionId)
            });
        } catch (error) {
            this.waiting.delete(id);
            this.logger.warn(`A diff for ${diff.loggedPath} could not be opened: ${loggable(describeError(error))}`);
            return { refused: `The diff could not be opened: ${describeError(error)}` };
        }
        this.logger.info(`Diff ${id} for ${diff.loggedPath} opened (session ${sessionId})`);
        this.onDidChangeEmitter.fire();
        return { shown: diff };
    }

    /** The user's answer in the window, as it came over the RPC (validated before anything changes). */
    async resolve(id: string, outcome: DiffOutcome): Promise<void> {
        const diff = this.waiting.get(id)?.diff;
        if (!diff) {
            return;
        }
        const answer: DiffAnswer = outcome?.accepted === true ? { accepted: true, content: fromRpcText(outcome.content) } : REJECTED;
        this.settle(diff, 'answered', answer);
        this.logger.info(`Diff ${id} for ${diff.loggedPath} ${answer.accepted ? 'accepted' : 'rejected'} in the window`);
    }

    /**
     * The CLI closes its own proposals (it decided in its terminal): the session's diff of a file, of a tab
     * name, or all of them. Another session's proposals stay. Answers what was closed.
     */
    async close(sessionId: string, which: DiffSelection): Promise<ClosedDiff[]> {
        const closed: ClosedDiff[] = [];
        for (const { diff } of [...this.waiting.values()].filter(candidate => candidate.diff.sessionId === sessionId && selects(which, candidate.diff))) {
            this.settle(diff, 'closed-by-cli');
            const shown = await this.frontend?.closeDiff(diff.id).catch(() => undefined);
            this.logger.info(`Diff ${diff.id} for ${diff.loggedPath} closed by the CLI`);
            closed.push({ diff, ...(shown === undefined ? {} : { shownText: fromRpcText(shown) }) });
        }
        return closed;
    }

    /** The window's sessions changed: the diffs of sessions that ended close. */
    dropOrphans(): void {
        const live = new Set(this.sessions().map(session => session.sessionId));
        for (const { diff } of [...this.waiting.values()]) {
            if (!live.has(diff.sessionId)) {
                this.settle(diff, 'session-ended');
                this.logger.info(`Diff ${diff.id} for ${diff.loggedPath} closed: its CLI session ended`);
                this.frontend?.closeDiff(diff.id).catch(() => undefined);
            }
        }
    }

    /** The window went away for good: every pending diff is rejected, and what its proposer sends about it is sent. */
    async rejectAll(reason: string): Promise<void> {
        for (const { diff } of [...this.waiting.values()]) {
            this.settle(diff, 'window-closed');
            this.logger.info(`Diff ${diff.id} for ${diff.loggedPath} rejected: ${reason}`);
        }
        await Promise.all(this.deliveries);
    }

    /** What a proposer sends when a diff settles (a notification): the window's closing waits for it. */
    trackDelivery(delivery: Promise<void>): void {
        const tracked = delivery.catch(() => undefined).finally(() => this.deliveries.delete(tracked));
        this.deliveries.add(tracked);
    }

    /** The proposal a session made for a file, if it is still waiting. */
    protected diffOf(sessionId: string, filePath: string): PendingDiff | undefined {
        return [...this.waiting.values()].find(({ diff }) => diff.sessionId === sessionId && diff.filePath === filePath)?.diff;
    }

    /** Stops the diff waiting and gives its proposer the settlement: the only place a diff settles. */
    protected settle(diff: PendingDiff, reason: DiffSettlementReason, answer: DiffAnswer = REJECTED): void {
        const waiting = this.waiting.get(diff.id);
        if (waiting) {
            this.waiting.delete(diff.id);
            waiting.settle({ reason, answer });
            this.onDidChangeEmitter.fire();
        }
    }

    protected sessions(): CliSessionInfo[] {
        return this.endpoints.getContributions().flatMap(endpoint => endpoint.connectedSessions);
    }

    protected origin(sessionId: string): ReviewOrigin {
        const flavour = this.sessions().find(candidate => candidate.sessionId === sessionId)?.flavour;
        return { kind: 'cli', groupId: sessionId, label: this.proposer(sessionId), ...(flavour ? { flavour } : {}) };
    }

    protected proposer(sessionId: string): string {
        const session = this.sessions().find(candidate => candidate.sessionId === sessionId);
        return session ? `${session.clientLabel} (${`${session.clientName} ${session.clientVersion}`.trim()})` : 'a CLI';
    }
}

function selects(which: DiffSelection, diff: PendingDiff): boolean {
    return which === 'all' || ('filePath' in which ? diff.filePath === which.filePath : diff.tabName === which.tabName);
}
