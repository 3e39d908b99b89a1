import * as path from 'path';
import { StdioConfig } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { CliFlavour, DiscoveryEndpoint } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { ensurePrivateDirectory, removeFileSync, writePrivateFileAtomic } from '@theia-cli-companion/safe-files/lib/node';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';

/**
 * The discovery files of one window server, one per advertised CLI flavour. Writes are atomic and
 * serialized, so a burst of root or flavour changes can never leave an older body on disk after a
 * newer one, nor the file of a flavour that is no longer advertised.
 */
export class DiscoveryFiles {
    protected readonly written = new Map<CliFlavour, string>();
    /** Flavours whose file could not be written, with why: the others are served regardless. */
    protected readonly failed = new Map<CliFlavour, string>();
    protected queue: Promise<unknown> = Promise.resolve();
    protected disposed = false;

    constructor(
        /** The `stdio` fallback to advertise in the file at the given path, if any. */
        protected readonly stdioFor: (discoveryFile: string) => StdioConfig | undefined = () => undefined
    ) { }

    /** Paths currently on disk, by flavour id. */
    get files(): ReadonlyMap<string, string> {
        return new Map([...this.written].map(([flavour, file]) => [flavour.id, file]));
    }

    /** Why each advertised flavour whose file is not on disk could not write it, by flavour id. */
    get failures(): ReadonlyMap<string, string> {
        return new Map([...this.failed].map(([flavour, reason]) => [flavour.id, reason]));
    }

    /**
     * Writes the file of each flavour in `flavours` and removes those of the flavours not in it. A
     * flavour whose file cannot be written (its directory taken by another account, say) is recorded
     * in `failures` and the others are written regardless: one CLI's trouble never stops the rest.
     */
    write(flavours: readonly CliFlavour[], endpointOf: (flavour: CliFlavour) => DiscoveryEndpoint): Promise<void> {
        return this.enqueue(async () => {
            for (const [flavour, file] of [...this.written]) {
                if (!flavours.includes(flavour)) {
                    removeFileSync(file);
                    this.written.delete(flavour);
                }
            }
            for (const flavour of [...this.failed.keys()]) {
                if (!flavours.includes(flavour)) {
                    this.failed.delete(flavour);
                }
            }
            for (const flavour of flavours) {
                if (this.disposed) {
                    return;
                }
                try {
                    await this.writeOne(flavour, endpointOf(flavour));
                    this.failed.delete(flavour);
                } catch (error) {
                    this.failed.set(flavour, describeError(error));
                    const stale = this.written.get(flavour);
                    if (stale) {
                        // An older body would advertise what no longer holds.
                        removeFileSync(stale);
                        this.written.delete(flavour);
                    }
                }
            }
        });
    }

    protected async writeOne(flavour: CliFlavour, endpoint: DiscoveryEndpoint): Promise<void> {
        const dir = flavour.discoveryDirectory();
        await ensurePrivateDirectory(dir);
        const file = path.join(dir, flavour.discoveryFileName(endpoint));
        await writePrivateFileAtomic(file, JSON.stringify(flavour.discoveryFileContent(endpoint, this.stdioFor(file))));
        const previous = this.written.get(flavour);
        this.written.set(flavour, file);
        if (previous && previous !== file) {
            removeFileSync(previous);
        }
        if (this.disposed) {
            // A stop raced with this write: the file must not outlive the server.
            removeFileSync(file);
        }
    }

    /** Synchronous, so it also works from a process 'exit' handler. */
    removeAllSync(): void {
        this.disposed = true;
        for (const file of this.written.values()) {
            try {
                removeFileSync(file);
            } catch {
                // Best effort: a file we cannot remove is cleaned by the next backend's stale scan.
            }
        }
        this.written.clear();
    }

    protected enqueue(task: () => Promise<void>): Promise<void> {
        const run = this.queue.then(task, task);
        this.queue = run.catch(() => undefined);
        return run;
    }
}
