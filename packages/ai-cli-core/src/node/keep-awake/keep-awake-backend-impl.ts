import { inject, injectable } from '@theia/core/shared/inversify';
import { z } from 'zod';
import { KeepAwakeBackend, KeepAwakeClient, KeepAwakeState } from '../../common/keep-awake-protocol';
import { KeepAwakeService } from './keep-awake-service';
import { WindowCommandReporter } from './window-command-reporter';

/** One window's connection to the keep-awake service: its activity commands take part while it is open. */
@injectable()
export class KeepAwakeBackendImpl implements KeepAwakeBackend {
    @inject(KeepAwakeService) protected readonly service: KeepAwakeService;
    @inject(WindowCommandReporter) protected readonly windows: WindowCommandReporter;
    protected client?: KeepAwakeClient;

    setClient(client: KeepAwakeClient | undefined): void {
        if (this.client) {
            this.windows.delete(this.client);
        }
        this.client = client;
        if (client) {
            this.windows.add(client);
        }
    }

    getClient(): KeepAwakeClient | undefined {
        return this.client;
    }

    async state(): Promise<KeepAwakeState> {
        return this.service.state();
    }

    async setIntervalSeconds(seconds: number): Promise<void> {
        this.service.setIntervalSeconds(z.number().finite().parse(seconds));
    }

    dispose(): void {
        this.setClient(undefined);
    }
}
