import * as fs from 'fs';
import { z } from 'zod';
import { currentSnapshotContent } from '@theia-cli-companion/ai-cli-core/lib/node';
import { writePrivateFileAtomic } from '@theia-cli-companion/safe-files/lib/node';
import type { SnapshotFileChange } from '@theia-cli-companion/ai-cli-core/lib/common';
import { AcpTurnCheckpoint, AcpTurnFileChange } from '../common/acp-chat-protocol';
import { CHECKPOINT_MAX_STORAGE_PREF, CHECKPOINT_TURNS_PER_CHAT_PREF } from '../common/checkpoint-retention';

/*
 * The chat turns' checkpoint records as AcpTurnCheckpoints keeps them on disk (`<chat>.json`, and
 * `<chat>.removed.json` for the turns the retention removed), and what is read from them: a turn's
 * blobs, its description for the window, and the plan of a restore.
 */

/** A turn as kept on disk: what it changed, with the blob ids of both sides. */
export interface StoredTurn {
    turnId: string;
    /** The workspace folders (realpaths) the turn was judged in: restores write inside them only. */
    roots: string[];
    truncated: boolean;
    changes: (SnapshotFileChange & { restoredAt?: number })[];
    /** Why (some of) what the turn changed could not be recorded. */
    error?: string;
}

/** What a restore writes (all the turns' files, or `files`), what it overwrites or skips, and the roots it writes inside. */
export interface RestoreOptions {
    files?: readonly string[];
    overwrite: readonly string[];
    skip: readonly string[];
    dirty?: readonly string[];
    roots: readonly string[];
}

const Sha = z.string().regex(/^[0-9a-f]{64}$/);
export const StoredTurnsSchema = z.array(z.object({
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

/** Why a turn's checkpoint was removed, kept so a restore of it can say so (the newest per chat). */
const RemovedTurnsSchema = z.array(z.object({
    turnId: z.string().max(200), at: z.number(), reason: z.enum(['turns', 'size']), limit: z.number()
}).strict()).max(10_000);
export type RemovedTurn = z.infer<typeof RemovedTurnsSchema>[number];
const MAX_REMOVED_RECORDS = 1000;

/** A chat's stored turns, or undefined when its file cannot be read (it is set aside when the chat is next used). */
export async function readStoredTurns(file: string): Promise<StoredTurn[] | undefined> {
    try {
        return StoredTurnsSchema.parse(JSON.parse(await fs.promises.readFile(file, 'utf8')));
    } catch {
        return undefined;
    }
}

/** Records, beside the chat's turns (`<chat>.removed.json`), which turns' checkpoints were removed and why: the newest ones. */
export async function recordRemovedTurns(chatFile: string, removed: RemovedTurn[]): Promise<void> {
    if (!removed.length) {
        return;
    }
    const file = chatFile.replace(/\.json$/, '.removed.json');
    const known = await readRemoved(file);
    await writePrivateFileAtomic(file, JSON.stringify([...known, ...removed].slice(-MAX_REMOVED_RECORDS)));
}

/** Why this turn of the chat (its turns in `chatFile`) has no checkpoint any more, when the retention removed it. */
export async function removedTurnReason(chatFile: string, turnId: string): Promise<string | undefined> {
    const removed = (await readRemoved(chatFile.replace(/\.json$/, '.removed.json'))).find(candidate => candidate.turnId === turnId);
    if (!removed) {
        return undefined;
    }
    return removed.reason === 'turns'
        ? `its checkpoint was removed to keep only the latest ${removed.limit} turns of a chat (${CHECKPOINT_TURNS_PER_CHAT_PREF})`
        : `its checkpoint was removed to keep the chat checkpoints under ${removed.limit} MiB (${CHECKPOINT_MAX_STORAGE_PREF})`;
}

async function readRemoved(file: string): Promise<RemovedTurn[]> {
    try {
        return RemovedTurnsSchema.parse(JSON.parse(await fs.promises.readFile(file, 'utf8')));
    } catch {
        return [];
    }
}

/** The blobs a turn's restore and diffs read. */
export function blobsOf(turn: StoredTurn): string[] {
    return [...new Set(turn.changes.flatMap(change => [change.before, change.after]).filter((sha): sha is string => !!sha))];
}

/**
 * Whether the file no longer holds `expected` (a blob id; undefined: no file). A link, a pipe or a device in
 * its place, or a file too large, has changed, unread. One outside the roots is left to the restore to refuse.
 */
export async function fileChangedSince(file: string, roots: readonly string[], expected: string | undefined): Promise<boolean> {
    const current = await currentSnapshotContent(file, roots);
    return current.kind === 'unreadable' || (current.kind === 'file' && current.sha !== expected);
}

export type StoredChange = StoredTurn['changes'][number];

/**
 * What a restore of `turns` (a turn and the chat's later ones) writes, per file: the content before the earliest
 * of them to change it (`first`), the content after the latest (`last`), and every change of it not restored yet;
 * the files in `options.files` only, when it names some.
 */
export function planRestore(
    turns: readonly StoredTurn[], options: RestoreOptions
): Map<string, { first: StoredChange; last: StoredChange; roots: string[]; touched: StoredChange[] }> {
    const wanted = options.files && new Set(options.files);
    const plan = new Map<string, { first: StoredChange; last: StoredChange; roots: string[]; touched: StoredChange[] }>();
    for (const turn of turns) {
        for (const change of turn.changes.filter(candidate => candidate.restoredAt === undefined && (!wanted || wanted.has(candidate.path)))) {
            const known = plan.get(change.path);
            plan.set(change.path, known
                ? { ...known, last: change, touched: [...known.touched, change] }
                : { first: change, last: change, roots: [...options.roots], touched: [change] });
        }
    }
    return plan;
}

/** Why one of a file's changes could not be read (then neither side is kept): it is not restorable. */
export function unreadableIn(changes: readonly SnapshotFileChange[]): string | undefined {
    return changes.find(change => change.unreadable)?.unreadable;
}

/** A stored turn as the window sees it: its changes without the blob ids. */
export function describeStoredTurn(turn: StoredTurn): AcpTurnCheckpoint {
    return {
        turnId: turn.turnId, truncated: turn.truncated, ...(turn.error ? { error: turn.error } : {}),
        changes: turn.changes.map(({ path: file, relativePath, kind, reviewable, binary, restoredAt, unreadable }): AcpTurnFileChange =>
            ({ path: file, relativePath, kind, reviewable, binary, ...(restoredAt !== undefined ? { restoredAt } : {}), ...(unreadable ? { unreadable } : {}) }))
    };
}
