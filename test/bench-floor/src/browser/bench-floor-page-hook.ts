import { inject, injectable } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { BENCH_FLOOR_GLOBAL, BenchFloorService } from '../common/bench-floor-protocol';
import { BenchFloorChatService } from '../common/bench-floor-chat-protocol';

/**
 * Lets the bench call the floors from the page: a context update sent the way an extension's frontend sends one,
 * and the floor chat's echo times (when its backend had each message and sent it back).
 */
@injectable()
export class BenchFloorPageHook implements FrontendApplicationContribution {

    @inject(BenchFloorService)
    protected readonly service: BenchFloorService;

    @inject(BenchFloorChatService)
    protected readonly chat: BenchFloorChatService;

    onStart(): void {
        Object.defineProperty(window, BENCH_FLOOR_GLOBAL, {
            value: Object.freeze({ push: (payload: object) => this.service.pushPayload(payload), echoes: () => this.chat.echoes(), marks: () => this.service.timingMarks() }),
            configurable: true
        });
    }
}
