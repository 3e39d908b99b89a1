import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { ensurePrivateDirectory, writePrivateFileAtomic } from '@theia-cli-companion/safe-files/lib/node';
import { BlobStore, restoreSnapshotFile, StorageUsageContribution, StoreGuard, WorkspaceSnapshot, WorkspaceSnapshotter } from '@theia-cli-companion/ai-cli-core/lib/node';
import type { SnapshotFileChange, StorageUsage } from '@theia-cli-companion/ai-cli-core/lib/common';
import { AcpRestoreResult, AcpTurnCheckpoint } from '../common/acp-chat-protocol';
import { CheckpointRetention, DEFAULT_CHECKPOINT_RETENTION } from '../common/checkpoint-retention';
import { CheckpointEviction, planCheckpointEviction } from './checkpoint-eviction';
import {
    blobsOf, describeStoredTurn, fileChangedSince, planRestore, readStoredTurns, recordRemovedTurns, RemovedTurn, removedTurnReason, RestoreOptions, StoredTurn, StoredTurnsSchema,
    unreadableIn
} from './acp-turn-records';
import { DelayedRun } from './delayed-run';
import { checkpointStorageUsage } from './checkpoint-storage-usage';

const MIB = 1024 * 1024;

/**
 * Checkpoints of ACP chat turns: the workspace folders are snapshotted (with the store agent tasks use) when a turn
 * starts and when it ends, so the files it changed, whoever wrote them (the client or the agent itself), can be listed,
 * compared and restored. Kept under `<THEIA_CONFIG_DIR>/cli-companion/acp-checkpoints`, so a restore outlives a restart.
 */
@injectable()
export class AcpTurnCheckpoints implements StorageUsageContribution {

    @inject(ILogger) @named('ai-acp-chat:AcpTurnCheckpoints') protected readonly logger: ILogger;
    @inject(EnvVariablesServer) protected readonly envVariables: EnvVariablesServer;

    protected storage?: Promise<{ dir: string; blobs: BlobStore; snapshots: WorkspaceSnapshotter }>;
    /** The folders snapshotted so far (a snapshot starts from the one before). */
    protected readonly warm = new Set<string>();
    /** The turn running in each chat (a chat's turns follow one another), by chat id. */
    protected readonly running = new Map<string, { turnId: string; roots: string[]; include: readonly string[]; before: Promise<(WorkspaceSnapshot | undefined)[]> }>();
    /** Why the last snapshot of a folder failed, for the turn to say. */
    protected readonly failures = new Map<string, string>();
    /** Chats' turns by chat id, loaded from disk on first use. */
    protected readonly turns = new Map<string, Promise<StoredTurn[]>>();
    /** When each chat was last used by this backend (its file's mtime tells for the others). */
    protected readonly usedAt = new Map<string, number>();
    /** The user's retention, as the last window sent it (the defaults until then). */
    protected retention: CheckpointRetention = DEFAULT_CHECKPOINT_RETENTION;
    /** Collection runs alone; snapshots, comparisons, restores beside each other. */
    protected readonly guard = new StoreGuard();
    /** The next collection: settles once it ran (or was called off). Turns that end while it runs schedule the next one. */
    protected readonly collection = new DelayedRun(
        () => this.collect().then(() => undefined, error => this.logger.warn(`Could not collect the chat checkpoints: ${describeError(error)}`)));
    /** A collection follows the turns that ended within this long of each other once. */
    protected readonly collectionDelayMs: number = 10_000;

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
        roots.filter(root => !this.warm.has(root)).forEach(root => void this.guard.shared(() => this.snapshot(root, include)));
    }

    protected async snapshot(root: string, include: readonly string[], recorded?: () => void): Promise<WorkspaceSnapshot | undefined> {
        this.warm.add(root);
        try {
            return await (await this.open()).snapshots.take(root, include, recorded);
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
        await this.guard.shared(async () => {
            // The agent may start once the folders' contents are kept: git writes their trees meanwhile.
            const recorded: Promise<void>[] = [];
            const before = Promise.all(roots.map(root => {
                let kept!: () => void;
                recorded.push(new Promise<void>(resolve => kept = resolve));
                return this.snapshot(root, include, kept).finally(kept);
            }));
            this.running.set(chatSessionId, { turnId, roots: [...roots], include, before });
            this.usedAt.set(chatSessionId, Date.now());
            await Promise.all(recorded);
        });
    }

    /** The turn ended: what it changed (undefined when nothing), kept for restores. */
    async end(chatSessionId: string, turnId: string): Promise<AcpTurnCheckpoint | undefined> {
        const ended = await this.guard.shared(() => this.endTurn(chatSessionId, turnId));
        this.scheduleCollection();
        return ended;
    }

    protected async endTurn(chatSessionId: string, turnId: string): Promise<AcpTurnCheckpoint | undefined> {
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
        for (const [index, before] of (await turn.before).entries()) {
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
        const removed = turns.splice(0, Math.max(0, turns.length - this.retention.turnsPerChat));
        const limit = this.retention.turnsPerChat;
        await recordRemovedTurns(await this.fileOf(chatSessionId), removed.map(gone => ({ turnId: gone.turnId, at: Date.now(), reason: 'turns', limit })));
        await this.save(chatSessionId, turns);
        return describeStoredTurn(stored);
    }

    /** Ends the chat's turn if it is still running (the window did not end it): its changes are kept. */
    async endRunning(chatSessionId: string): Promise<void> {
        const turn = this.running.get(chatSessionId);
        if (turn) {
            await this.end(chatSessionId, turn.turnId);
        }
    }

    async checkpoint(chatSessionId: string, turnId: string): Promise<AcpTurnCheckpoint | undefined> {
        // Guarded too: a chat first loaded during a collection would keep the turns it removes.
        const turn = await this.guard.shared(async () => (await this.turnsOf(chatSessionId)).find(candidate => candidate.turnId === turnId));
        return turn && describeStoredTurn(turn);
    }

    /** A changed file's text before or after the turn; undefined when it did not exist (or was not kept). */
    async content(chatSessionId: string, turnId: string, file: string, side: 'before' | 'after'): Promise<string | undefined> {
        return this.guard.shared(() => this.contentOf(chatSessionId, turnId, file, side));
    }

    protected async contentOf(chatSessionId: string, turnId: string, file: string, side: 'before' | 'after'): Promise<string | undefined> {
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
        chatSessionId: string, turnId: string, options: RestoreOptions
    ): Promise<AcpRestoreResult> {
        return this.guard.shared(() => this.restoreTurn(chatSessionId, turnId, options));
    }

    protected async restoreTurn(
        chatSessionId: string, turnId: string, options: RestoreOptions
    ): Promise<AcpRestoreResult> {
        const turns = await this.turnsOf(chatSessionId);
        const from = turns.findIndex(turn => turn.turnId === turnId);
        if (from < 0) {
            const removed = await removedTurnReason(await this.fileOf(chatSessionId), turnId);
            return { kind: 'unavailable', reason: removed ?? 'no file this turn changed is recorded (a turn that changed nothing, or one of the oldest)' };
        }
        const overwrite = new Set(options.overwrite);
        const skip = new Set(options.skip);
        const dirty = new Set(options.dirty ?? []);
        const plan = planRestore(turns.slice(from), options);
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
        return this.guard.shared(() => this.reapplyFile(chatSessionId, turnId, file, force, roots));
    }

    protected async reapplyFile(chatSessionId: string, turnId: string, file: string, force: boolean, roots: readonly string[]): Promise<AcpRestoreResult> {
        const turns = await this.turnsOf(chatSessionId);
        const turn = turns.find(candidate => candidate.turnId === turnId);
        const change = turn?.changes.find(candidate => candidate.path === file);
        const removed = !turn && await removedTurnReason(await this.fileOf(chatSessionId), turnId);
        if (removed) {
            return { kind: 'unavailable', reason: removed };
        }
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
        this.usedAt.set(chatSessionId, Date.now());
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

    /** The user's retention (validated by the caller); a change is applied by a collection soon after. */
    setRetention(retention: CheckpointRetention): void {
        const changed = retention.turnsPerChat !== this.retention.turnsPerChat || retention.maxStorageMegabytes !== this.retention.maxStorageMegabytes;
        this.retention = retention;
        if (changed) {
            this.scheduleCollection();
        }
    }

    /** A collection soon: one for the turns that end meanwhile, never beside a snapshot or a restore of this store. */
    protected scheduleCollection(): void {
        this.collection.schedule(this.collectionDelayMs);
    }

    /** Resolves once the collection scheduled last (after a turn ended, or the retention changed) has run. */
    collected(): Promise<void> {
        return this.collection.done();
    }

    dispose(): void {
        this.collection.dispose();
    }

    /**
     * Keeps the store within the user's retention: each chat keeps its latest `turnsPerChat` turns, and while the
     * kept turns' contents and records take more than `maxStorageMegabytes`, the oldest turns of the chats used
     * least recently go (the latest turn of the chat used last always stays). Then every blob no kept turn,
     * running turn or kept snapshot refers to is removed, and the private git directories are pruned to what
     * the running turns and each folder's last snapshot need. Runs alone: no snapshot, comparison or restore
     * of this store runs meanwhile.
     */
    async collect(): Promise<CheckpointEviction & { blobsRemoved: number }> {
        return this.guard.exclusive(async () => {
            const { dir, blobs, snapshots } = await this.open();
            const retention = this.retention;
            const cached = new Map<string, { chatSessionId: string; turns: Promise<StoredTurn[]> }>();
            for (const [chatSessionId, turns] of this.turns) {
                cached.set(path.basename(await this.fileOf(chatSessionId)), { chatSessionId, turns });
            }
            const chatsDir = path.join(dir, 'chats');
            const chats: { file: string; turns: StoredTurn[]; usedAt: number }[] = [];
            for (const name of (await fs.promises.readdir(chatsDir).catch(() => [] as string[])).filter(candidate => /^[0-9a-f]{64}\.json$/.test(candidate))) {
                const file = path.join(chatsDir, name);
                const stat = await fs.promises.lstat(file).catch(() => undefined);
                const known = cached.get(name);
                const turns = known ? await known.turns : stat?.isFile() ? await readStoredTurns(file) : undefined;
                if (stat?.isFile() && turns) {
                    const running = known && this.running.has(known.chatSessionId) ? Date.now() : 0;
                    chats.push({ file, turns, usedAt: Math.max(stat.mtimeMs, known ? this.usedAt.get(known.chatSessionId) ?? 0 : 0, running) });
                }
            }
            const runningBefore = (await Promise.all([...this.running.values()].map(turn => turn.before))).flat();
            const pinned = await snapshots.keptBlobs();
            runningBefore.forEach(snapshot => snapshot?.kind === 'files' && snapshot.files.forEach(entry => entry.sha && pinned.add(entry.sha)));
            const plan = planCheckpointEviction({
                chats: chats.map(chat => ({
                    usedAt: chat.usedAt, turns: chat.turns.map(turn => ({ blobs: blobsOf(turn), recordBytes: Buffer.byteLength(JSON.stringify(turn)) + 1 }))
                })),
                blobSizes: await blobs.sizes(), pinned, turnsPerChat: retention.turnsPerChat, maxBytes: retention.maxStorageMegabytes * MIB
            });
            for (const [index, chat] of chats.entries()) {
                const { byCount, bySize } = plan.removed[index];
                if (byCount + bySize) {
                    const at = Date.now();
                    const gone = chat.turns.splice(0, byCount + bySize);
                    await writePrivateFileAtomic(chat.file, JSON.stringify(chat.turns));
                    await recordRemovedTurns(chat.file, gone.map((turn, position): RemovedTurn => position < byCount
                        ? { turnId: turn.turnId, at, reason: 'turns', limit: retention.turnsPerChat }
                        : { turnId: turn.turnId, at, reason: 'size', limit: retention.maxStorageMegabytes }));
                }
            }
            const keep = new Set(pinned);
            chats.forEach(chat => chat.turns.forEach(turn => blobsOf(turn).forEach(sha => keep.add(sha))));
            const blobsRemoved = await blobs.collectGarbage(keep);
            await snapshots.prune(runningBefore);
            if (plan.turnsRemoved || blobsRemoved) {
                this.logger.info(`Chat checkpoints: ${plan.turnsRemoved} turn(s) and ${blobsRemoved} stored file(s) removed; `
                    + `${(plan.keptBytes / MIB).toFixed(1)} MiB kept of ${retention.maxStorageMegabytes} MiB, at most ${retention.turnsPerChat} turns per chat`);
            }
            return { ...plan, blobsRemoved };
        });
    }

    /** The space the checkpoint store takes, for the status view. */
    async storageUsage(): Promise<StorageUsage> {
        return checkpointStorageUsage((await this.open()).dir, this.retention.maxStorageMegabytes);
    }
}
