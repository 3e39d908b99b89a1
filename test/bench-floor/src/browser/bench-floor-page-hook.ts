import { inject, injectable } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { BENCH_FLOOR_GLOBAL, BenchFloorService } from '../common/bench-floor-protocol';

/** Lets the bench call the floor's RPC from the page, the way an extension's frontend sends a context update. */
@injectable()
export class BenchFloorPageHook implements FrontendApplicationContribution {

    @inject(BenchFloorService)
    protected readonly service: BenchFloorService;

    onStart(): void {
        Object.defineProperty(window, BENCH_FLOOR_GLOBAL, {
            value: Object.freeze({ push: (payload: object) => this.service.pushPayload(payload) }),
            configurable: true
        });
    }
}
