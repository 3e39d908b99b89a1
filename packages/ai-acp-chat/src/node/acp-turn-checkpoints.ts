import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { inject, injectable, named } from '@theia/core/shared/inversify';
import { z } from 'zod';
import { ILogger } from '@theia/core/lib/common/logger';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { ensurePrivateDirectory, writePrivateFileAtomic } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import {
    BlobStore, currentSnapshotContent, restoreSnapshotFile, WorkspaceSnapshot, WorkspaceSnapshotter
} from '@theia-cli-companion/ai-cli-core/lib/node';
import type { SnapshotFileChange } from '@theia-cli-companion/ai-cli-core/lib/common';
import { AcpRestoreResult, AcpTurnCheckpoint, AcpTurnFileChange } from '../common/acp-chat-protocol';

/** A turn as kept on disk: what it changed, with the blob ids of both sides. */
interface StoredTurn {
    turnId: string;
    /** The workspace folders (realpaths) the turn was judged in: restores write inside them only. */
    roots: string[];
    truncated: boolean;
    changes: (SnapshotFileChange & { restoredAt?: number })[];
    /** Why (some of) what the turn changed could not be recorded. */
    error?: string;
}

const Sha = z.string().regex(/^[0-9a-f]{64}$/);
const StoredTurnsSchema = z.array(z.object({
    turnId: z.string().max(200),
    roots: z.array(z.string()).max(100),
    truncated: z.boolean(),
    changes: z.array(z.object({
        path: z.string(), relativePath: z.string(), kind: z.enum(['added', 'modified', 'deleted']),
        before: Sha.optional(), after: Sha.optional(), mode: z.number().int().optional(),
        reviewable: z.boolean(), binary: z.boolean(), restoredAt: z.number().optional(), unreadable: z.string().max(4000).optional()
    }).strict()).max(100_000),
    error: z.string().max(20_000).optional()
}).strict());

/** Turns kept per chat: the oldest go first. */
const MAX_TURNS_PER_CHAT = 100;

/**
 * Checkpoints of ACP chat turns: the workspace folders are snapshotted (with the store agent tasks use)
 * when a turn starts and when it ends, so the files it changed, whoever wrote them (through the client or
 * the agent itself), can be listed, compared and restored. Kept under
 * `<THEIA_CONFIG_DIR>/cli-companion/acp-checkpoints`, so a restore still works after a backend restart.
 */
@injectable()
export class AcpTurnCheckpoints {

    @inject(ILogger) @named('ai-acp-chat:AcpTurnCheckpoints') protected readonly logger: ILogger;
    @inject(EnvVariablesServer) protected readonly envVariables: EnvVariablesServer;

    protected storage?: Promise<{ dir: string; blobs: BlobStore; snapshots: WorkspaceSnapshotter }>;
    /** The folders snapshotted so far (a snapshot starts from the one before). */
    protected readonly warm = new Set<string>();
    /** The turn running in each chat (a chat's turns follow one another), by chat id. */
    protected readonly running = new Map<string, { turnId: string; roots: string[]; include: readonly string[]; before: (WorkspaceSnapshot | undefined)[] }>();
    /** Why the last snapshot of a folder failed, for the turn to say. */
    protected readonly failures = new Map<string, string>();
    /** Chats' turns by chat id, loaded from disk on first use. */
    protected readonly turns = new Map<string, Promise<StoredTurn[]>>();

    protected open(): Promise<{ dir: string; blobs: BlobStore; snapshots: WorkspaceSnapshotter }> {
        return this.storage ??= (async () => {
            const dir = path.join(FileUri.fsPath(await this.envVariables.getConfigDirUri()), 'cli-companion', 'acp-checkpoints');
            await ensurePrivateDirectory(path.join(dir, 'chats'));
            const blobs = new BlobStore(path.join(dir, 'blobs'));
            return { dir, blobs, snapshots: new WorkspaceSnapshotter({ gitDir: path.join(dir, 'git'), blobs, warn: message => this.logger.warn(message) }) };
        })();
    }

    /** Takes the folders' first snapshot ahead of the first turn, so the turn does not wait for every file to be read. */
    warmUp(roots: readonly string[], include: readonly string[] = []): void {
        roots.filter(root => !this.warm.has(root)).forEach(root => void this.snapshot(root, include));
    }

    protected async snapshot(root: string, include: readonly string[]): Promise<WorkspaceSnapshot | undefined> {
        this.warm.add(root);
        try {
            return await (await this.open()).snapshots.take(root, include);
        } catch (error) {
            this.logger.warn(`Could not snapshot ${root}: ${describeError(error)}`);
            this.failures.set(root, describeError(error));
            return undefined;
        }
    }

    /** Resolves once no snapshot is being taken. */
    async settled(): Promise<void> {
        await (await this.storage)?.snapshots.settled();
    }

    /** `include`: ignored files to record anyway (globs, from the user's settings). */
    async begin(chatSessionId: string, turnId: string, roots: readonly string[], include: readonly string[] = []): Promise<void> {
        const before = await Promise.all(roots.map(root => this.snapshot(root, include)));
        this.running.set(chatSessionId, { turnId, roots: [...roots], include, before });
    }

    /** The turn ended: what it changed (undefined when nothing), kept for restores. */
    async end(chatSessionId: string, turnId: string): Promise<AcpTurnCheckpoint | undefined> {
        const turn = this.running.get(chatSessionId);
        if (turn?.turnId !== turnId) {
            return undefined;
        }
        this.running.delete(chatSessionId);
        const after = await Promise.all(turn.roots.map(root => this.snapshot(root, turn.include)));
        const { snapshots } = await this.open();
        const changes: SnapshotFileChange[] = [];
        const errors: string[] = [];
        let truncated = false;
        for (const [index, before] of turn.before.entries()) {
            const now = after[index];
            const root = turn.roots[index];
            if (!before || !now) {
                // Never "nothing changed": the turn says its changes in this folder are not recorded.
                errors.push(`${root} could not be recorded when the turn ${before ? 'ended' : 'began'} (${this.failures.get(root) ?? 'see the log'})`);
                continue;
            }
            try {
                changes.push(...await snapshots.compare(before, now));
                truncated ||= before.truncated || now.truncated;
            } catch (error) {
                errors.push(`${root}: ${describeError(error)}`);
            }
        }
        if (!changes.length && !errors.length) {
            return undefined;
        }
        const stored: StoredTurn = { turnId, roots: turn.roots, truncated, changes, ...(errors.length ? { error: errors.join('; ') } : {}) };
        const turns = await this.turnsOf(chatSessionId);
        turns.push(stored);
        turns.splice(0, Math.max(0, turns.length - MAX_TURNS_PER_CHAT));
        await this.save(chatSessionId, turns);
        return describe(stored);
    }

    /** Ends the chat's turn if it is still running (the window did not end it): its changes are kept. */
    async endRunning(chatSessionId: string): Promise<void> {
        const turn = this.running.get(chatSessionId);
        if (turn) {
            await this.end(chatSessionId, turn.turnId);
        }
    }

    async checkpoint(chatSessionId: string, turnId: string): Promise<AcpTurnCheckpoint | undefined> {
        const turn = (await this.turnsOf(chatSessionId)).find(candidate => candidate.turnId === turnId);
        return turn && describe(turn);
    }

    /** A changed file's text before or after the turn; undefined when it did not exist (or was not kept). */
    async content(chatSessionId: string, turnId: string, file: string, side: 'before' | 'after'): Promise<string | undefined> {
        const change = (await this.turnsOf(chatSessionId)).find(turn => turn.turnId === turnId)?.changes.find(candidate => candidate.path === file);
        const sha = change?.[side];
        if (!sha) {
            return undefined;
        }
        const { blobs } = await this.open();
        return (await blobs.get(sha))?.toString('utf8');
    }

    /**
     * Puts the files back as they were before the turn: the files this turn and every later turn of the
     * chat changed (all of them, or those in `files`). A file that no longer holds what the last of those
     * turns left there was changed since (by the user, say): unless the caller says to overwrite or skip
     * it, nothing is written and the files are named. So are the files the window has unsaved edits in (`dirty`).
     * Files are written only inside `roots`, the chat's workspace folders now (realpaths), never the record's.
     */
    async restore(
        chatSessionId: string, turnId: string, options: { files?: readonly string[]; overwrite: readonly string[]; skip: readonly string[]; dirty?: readonly string[]; roots: readonly string[] }
    ): Promise<AcpRestoreResult> {
        const turns = await this.turnsOf(chatSessionId);
        const from = turns.findIndex(turn => turn.turnId === turnId);
        if (from < 0) {
            return { kind: 'unavailable', reason: 'no file this turn changed is recorded (a turn that changed nothing, or one of the oldest)' };
        }
        const wanted = options.files && new Set(options.files);
        const overwrite = new Set(options.overwrite);
        const skip = new Set(options.skip);
        const dirty = new Set(options.dirty ?? []);
        // Per file: the content before the earliest of these turns to change it, the content after the latest.
        const plan = new Map<string, { first: StoredTurn['changes'][number]; last: StoredTurn['changes'][number]; roots: string[]; touched: StoredTurn['changes'][number][] }>();
        for (const turn of turns.slice(from)) {
            for (const change of turn.changes.filter(candidate => candidate.restoredAt === undefined && (!wanted || wanted.has(candidate.path)))) {
                const known = plan.get(change.path);
                plan.set(change.path, known
                    ? { ...known, last: change, touched: [...known.touched, change] }
                    : { first: change, last: change, roots: [...options.roots], touched: [change] });
            }
        }
        const { blobs } = await this.open();
        const changedSince: string[] = [];
        for (const [file, { last, roots, touched }] of plan) {
            if (!overwrite.has(file) && !skip.has(file) && !unreadableIn(touched) && (dirty.has(file) || await fileChangedSince(file, roots, last.after))) {
                changedSince.push(file);
            }
        }
        if (changedSince.length) {
            return { kind: 'changed-since', files: changedSince };
        }
        const restored: string[] = [];
        const failed: { path: string; reason: string }[] = [];
        for (const [file, { first, last, roots, touched }] of plan) {
            if (skip.has(file)) {
                continue;
            }
            const unreadable = unreadableIn(touched);
            if (unreadable) {
                failed.push({ path: file, reason: `it could not be read (${unreadable}); not restorable` });
                continue;
            }
            if (!first.reviewable) {
                failed.push({ path: file, reason: 'it was larger than the snapshot limit, so its earlier content was not kept' });
                continue;
            }
            const result = await restoreSnapshotFile({
                file, target: first.kind === 'added' ? undefined : { sha: first.before!, mode: first.mode }, expected: last.after, force: overwrite.has(file)
            }, blobs, roots).catch(error => ({ kind: 'not-restorable', reason: describeError(error) } as const));
            if (result.kind === 'restored') {
                restored.push(file);
                const now = Date.now();
                touched.forEach(change => change.restoredAt = now);
            } else {
                failed.push({ path: file, reason: result.kind === 'changed-since' ? 'it changed while it was being restored' : result.reason });
            }
        }
        await this.save(chatSessionId, turns);
        this.logger.info(`Chat ${chatSessionId}: restored ${restored.length} file(s) to before turn ${turnId}${failed.length ? `; ${failed.length} not restored` : ''}`);
        return { kind: 'restored', restored, failed };
    }

    /** Writes a restored file again as the turn left it, if it still holds what it held before the turn (or `force`); only inside `roots` (the chat's folders now). */
    async reapply(chatSessionId: string, turnId: string, file: string, force: boolean, roots: readonly string[]): Promise<AcpRestoreResult> {
        const turns = await this.turnsOf(chatSessionId);
        const turn = turns.find(candidate => candidate.turnId === turnId);
        const change = turn?.changes.find(candidate => candidate.path === file);
        if (!turn || !change || !change.reviewable) {
            return { kind: 'unavailable', reason: 'the turn\'s content of this file was not kept' };
        }
        const { blobs } = await this.open();
        const result = await restoreSnapshotFile({
            file, target: change.kind === 'deleted' ? undefined : { sha: change.after!, mode: change.mode }, expected: change.before, force
        }, blobs, roots);
        if (result.kind === 'changed-since') {
            return { kind: 'changed-since', files: [file] };
        }
        if (result.kind === 'not-restorable') {
            return { kind: 'restored', restored: [], failed: [{ path: file, reason: result.reason }] };
        }
        change.restoredAt = undefined;
        await this.save(chatSessionId, turns);
        return { kind: 'restored', restored: [file], failed: [] };
    }

    protected turnsOf(chatSessionId: string): Promise<StoredTurn[]> {
        let turns = this.turns.get(chatSessionId);
        if (!turns) {
            turns = this.load(chatSessionId);
            this.turns.set(chatSessionId, turns);
        }
        return turns;
    }

    protected async load(chatSessionId: string): Promise<StoredTurn[]> {
        const file = await this.fileOf(chatSessionId);
        const text = await fs.promises.readFile(file, 'utf8').catch(() => undefined);
        if (text === undefined) {
            return [];
        }
        try {
            return StoredTurnsSchema.parse(JSON.parse(text));
        } catch (error) {
            this.logger.warn(`The checkpoints of chat ${chatSessionId} (${file}) are unreadable and were set aside: ${describeError(error)}`);
            await fs.promises.rename(file, `${file}.unreadable`).catch(() => undefined);
            return [];
        }
    }

    protected async save(chatSessionId: string, turns: StoredTurn[]): Promise<void> {
        await writePrivateFileAtomic(await this.fileOf(chatSessionId), JSON.stringify(turns));
    }

    /** A chat id is the window's: the file is named by its hash, never by the string itself. */
    protected async fileOf(chatSessionId: string): Promise<string> {
        const { dir } = await this.open();
        return path.join(dir, 'chats', `${crypto.createHash('sha256').update(chatSessionId).digest('hex')}.json`);
    }
}

/**
 * Whether the file no longer holds `expected` (a blob id; undefined: no file). A link, a pipe or a device in
 * its place, or a file too large, has changed, unread. One outside the roots is left to the restore to refuse.
 */
async function fileChangedSince(file: string, roots: readonly string[], expected: string | undefined): Promise<boolean> {
    const current = await currentSnapshotContent(file, roots);
    return current.kind === 'unreadable' || (current.kind === 'file' && current.sha !== expected);
}

/** Why one of a file's changes could not be read (then neither side is kept): it is not restorable. */
function unreadableIn(changes: readonly SnapshotFileChange[]): string | undefined {
    return changes.find(change => change.unreadable)?.unreadable;
}

function describe(turn: StoredTurn): AcpTurnCheckpoint {
    return {
        turnId: turn.turnId, truncated: turn.truncated, ...(turn.error ? { error: turn.error } : {}),
        changes: turn.changes.map(({ path: file, relativePath, kind, reviewable, binary, restoredAt, unreadable }): AcpTurnFileChange =>
            ({ path: file, relativePath, kind, reviewable, binary, ...(restoredAt !== undefined ? { restoredAt } : {}), ...(unreadable ? { unreadable } : {}) }))
    };
}
