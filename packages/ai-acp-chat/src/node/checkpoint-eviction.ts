/** One chat as the retention sees it: when it was last used, and its turns oldest first. */
export interface EvictionChat {
    readonly usedAt: number;
    readonly turns: readonly { readonly blobs: readonly string[]; readonly recordBytes: number }[];
}

export interface EvictionInput {
    readonly chats: readonly EvictionChat[];
    /** Every stored blob's size, by id. */
    readonly blobSizes: ReadonlyMap<string, number>;
    /** Blobs kept whatever happens (running turns, kept snapshots): counted, never freed. */
    readonly pinned: ReadonlySet<string>;
    readonly turnsPerChat: number;
    readonly maxBytes: number;
}

export interface CheckpointEviction {
    /** Per chat (in the input's order): how many of its oldest turns go, for the count, then for the size. */
    readonly removed: readonly { readonly byCount: number; readonly bySize: number }[];
    readonly turnsRemoved: number;
    /** What the kept turns (and the pinned blobs) take: their blobs, each counted once, and their records. */
    readonly keptBytes: number;
    readonly maxBytes: number;
}

/**
 * Which turns lose their checkpoint: beyond `turnsPerChat` in a chat, the oldest; then, while what is kept
 * takes more than `maxBytes`, the oldest turns of the chat used least recently, then of the next one. A blob
 * shared by turns (one turn's after is the next one's before) frees its space with the last of them. The
 * latest turn of the chat used last is always kept: the turn that just ended can be restored.
 */
export function planCheckpointEviction(input: EvictionInput): CheckpointEviction {
    const references = new Map<string, number>();
    const size = (sha: string) => input.blobSizes.get(sha) ?? 0;
    const removed = input.chats.map(chat => ({ byCount: Math.max(0, chat.turns.length - input.turnsPerChat), bySize: 0 }));
    let keptBytes = 0;
    for (const sha of input.pinned) {
        keptBytes += size(sha);
    }
    const reference = (sha: string) => {
        const count = references.get(sha) ?? 0;
        if (!count && !input.pinned.has(sha)) {
            keptBytes += size(sha);
        }
        references.set(sha, count + 1);
    };
    input.chats.forEach((chat, index) => chat.turns.slice(removed[index].byCount).forEach(turn => {
        keptBytes += turn.recordBytes;
        turn.blobs.forEach(reference);
    }));
    const order = input.chats.map((chat, index) => ({ chat, index })).sort((a, b) => a.chat.usedAt - b.chat.usedAt);
    const latest = order[order.length - 1]?.index;
    for (const { chat, index } of order) {
        const floor = index === latest ? 1 : 0;
        while (keptBytes > input.maxBytes && chat.turns.length - removed[index].byCount - removed[index].bySize > floor) {
            const turn = chat.turns[removed[index].byCount + removed[index].bySize];
            removed[index].bySize++;
            keptBytes -= turn.recordBytes;
            for (const sha of turn.blobs) {
                const count = references.get(sha)! - 1;
                references.set(sha, count);
                if (!count && !input.pinned.has(sha)) {
                    keptBytes -= size(sha);
                }
            }
        }
        if (keptBytes <= input.maxBytes) {
            break;
        }
    }
    return { removed, turnsRemoved: removed.reduce((sum, chat) => sum + chat.byCount + chat.bySize, 0), keptBytes, maxBytes: input.maxBytes };
}
