import { z } from 'zod';

export const CHECKPOINT_TURNS_PER_CHAT_PREF = 'aiCliCompanion.checkpoints.turnsPerChat';
export const CHECKPOINT_MAX_STORAGE_PREF = 'aiCliCompanion.checkpoints.maxStorageMegabytes';

/** How much of the chats' turns the checkpoint store keeps (the user's settings, checked where they reach the backend). */
export interface CheckpointRetention {
    /** Turns kept per chat: older ones go first. */
    readonly turnsPerChat: number;
    /** The most the kept turns' contents and records take, every chat of every workspace together (MiB). */
    readonly maxStorageMegabytes: number;
}

export const DEFAULT_CHECKPOINT_RETENTION: CheckpointRetention = { turnsPerChat: 100, maxStorageMegabytes: 1024 };

export const CHECKPOINT_RETENTION_BOUNDS = {
    turnsPerChat: { minimum: 1, maximum: 10_000 },
    maxStorageMegabytes: { minimum: 16, maximum: 1024 * 1024 }
} as const;

export const CheckpointRetentionSchema = z.object({
    turnsPerChat: z.number().int().min(CHECKPOINT_RETENTION_BOUNDS.turnsPerChat.minimum).max(CHECKPOINT_RETENTION_BOUNDS.turnsPerChat.maximum),
    maxStorageMegabytes: z.number().int().min(CHECKPOINT_RETENTION_BOUNDS.maxStorageMegabytes.minimum).max(CHECKPOINT_RETENTION_BOUNDS.maxStorageMegabytes.maximum)
}).strict();
