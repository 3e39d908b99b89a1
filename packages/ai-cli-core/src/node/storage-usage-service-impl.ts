import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { ILogger } from '@theia/core/lib/common/logger';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { StorageUsage, StorageUsageService } from '../common/storage-usage-protocol';
import { StorageUsageContribution } from './storage-usage-contribution';

/** Asks every {@link StorageUsageContribution}; a store that cannot say is left out and logged. */
@injectable()
export class StorageUsageServiceImpl implements StorageUsageService {

    @inject(ContributionProvider) @named(StorageUsageContribution) protected readonly stores: ContributionProvider<StorageUsageContribution>;
    @inject(ILogger) @named('ai-cli-core:StorageUsageService') protected readonly logger: ILogger;

    async usage(): Promise<StorageUsage[]> {
        const reports = await Promise.all(this.stores.getContributions().map(store => store.storageUsage().catch(error => {
            this.logger.warn(`A store could not report its size: ${describeError(error)}`);
            return undefined;
        })));
        return reports.filter((report): report is StorageUsage => !!report);
    }
}
