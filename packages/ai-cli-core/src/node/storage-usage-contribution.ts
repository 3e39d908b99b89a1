import type { StorageUsage } from '../common/storage-usage-protocol';

export const StorageUsageContribution = Symbol('StorageUsageContribution');
/** A store of an extension (checkpoints, agent tasks) that reports the space it takes to the status view. */
export interface StorageUsageContribution {
    storageUsage(): Promise<StorageUsage>;
}
