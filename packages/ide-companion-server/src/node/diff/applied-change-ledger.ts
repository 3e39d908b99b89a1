import * as path from 'path';
import { randomUUID } from 'crypto';
import { readFileWithinRoots, removeFileWithinRoots, writeFileWithinRoots } from '@theia-cli-companion/safe-files/lib/node';

/** A file of this size or more is not kept: an Undo for it is not offered. */
export const MAX_LEDGER_FILE_BYTES = 16 * 1024 * 1024;
/** What the ledger of one window keeps at most: the oldest entries go first. */
export const MAX_LEDGER_BYTES = 64 * 1024 * 1024;
export const MAX_LEDGER_ENTRIES = 1000;

interface Entry {
    readonly filePath: string;
    /** The file's bytes before the change; undefined when it did not exist. */
    readonly before: Buffer | undefined;
}

/**
 * The bytes of files before a change the user did not review one by one was applied (a proposal
 * accepted automatically, an agent's write in an auto-edit mode), so that the change can be undone.
 * Reads and writes go through the roots-checked file functions: a link planted in the file's place
 * cannot make an Undo write outside the workspace folders.
 */
export class AppliedChangeLedger {
    protected readonly entries = new Map<string, Entry>();
    protected bytes = 0;

    constructor(protected readonly roots: () => readonly string[]) { }

    /** Keeps the file's current bytes; resolves with the id to undo with. Refuses a path outside the roots. */
    async record(filePath: string): Promise<string> {
        if (typeof filePath !== 'string' || !path.isAbsolute(filePath)) {
            throw new Error(`filePath must be absolute, got ${JSON.stringify(filePath)}`);
        }
        const before = await readFileWithinRoots(filePath, this.roots(), MAX_LEDGER_FILE_BYTES);
        const id = randomUUID();
        this.entries.set(id, { filePath, before });
        this.bytes += before?.length ?? 0;
        this.trim();
        return id;
    }

    /** Puts the file back as it was (removes it, if it did not exist); the entry is used up. */
    async restore(id: string): Promise<void> {
        const entry = this.entries.get(id);
        if (!entry) {
            throw new Error('This change can no longer be undone (the window kept too many, or it was undone already).');
        }
        if (entry.before) {
            await writeFileWithinRoots(entry.filePath, entry.before, this.roots());
        } else {
            await removeFileWithinRoots(entry.filePath, this.roots());
        }
        this.forget(id);
    }

    forget(id: string): void {
        const entry = this.entries.get(id);
        if (entry) {
            this.entries.delete(id);
            this.bytes -= entry.before?.length ?? 0;
        }
    }

    get size(): number {
        return this.entries.size;
    }

    protected trim(): void {
        for (const id of this.entries.keys()) {
            if (this.entries.size <= MAX_LEDGER_ENTRIES && this.bytes <= MAX_LEDGER_BYTES) {
                return;
            }
            this.forget(id);
        }
    }
}
