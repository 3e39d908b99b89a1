import { inject, injectable } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { DiffUris } from '@theia/core/lib/browser/diff-uris';
import { open, OpenerService } from '@theia/core/lib/browser/opener-service';
import { Widget } from '@theia/core/lib/browser/widgets/widget';
import URI from '@theia/core/lib/common/uri';
import { BENCH_FLOOR_GLOBAL, BenchFloorService } from '../common/bench-floor-protocol';
import { BenchFloorChatService } from '../common/bench-floor-chat-protocol';
import { BenchFloorCursorForwarder } from './bench-floor-cursor-forwarder';

/**
 * Lets the bench call the floors from the page: a context update sent the way an extension's frontend sends one
 * (or one on each cursor move, when it follows the cursor),
 * the floor chat's echo times (when its backend had each message and sent it back), the backend's timing marks,
 * and Theia's own diff editor of two files, opened as any extension opens one (the floor of a diff review).
 */
@injectable()
export class BenchFloorPageHook implements FrontendApplicationContribution {

    @inject(BenchFloorService)
    protected readonly service: BenchFloorService;

    @inject(BenchFloorChatService)
    protected readonly chat: BenchFloorChatService;

    @inject(OpenerService)
    protected readonly openerService: OpenerService;

    @inject(BenchFloorCursorForwarder)
    protected readonly cursorForwarder: BenchFloorCursorForwarder;

    protected readonly diffs: Widget[] = [];

    onStart(): void {
        Object.defineProperty(window, BENCH_FLOOR_GLOBAL, {
            value: Object.freeze({
                push: (payload: object) => this.service.pushPayload(payload), echoes: () => this.chat.echoes(), marks: () => this.service.timingMarks(),
                openDiff: (left: string, right: string) => this.openDiff(left, right), closeDiffs: () => this.closeDiffs(),
                followCursor: (on: boolean) => this.cursorForwarder.follow(on)
            }),
            configurable: true
        });
    }

    protected async openDiff(left: string, right: string): Promise<void> {
        const widget = await open(this.openerService, DiffUris.encode(new URI(left), new URI(right), 'bench floor diff'), { mode: 'activate' });
        if (widget instanceof Widget) {
            this.diffs.push(widget);
        }
    }

    protected closeDiffs(): void {
        this.diffs.splice(0).forEach(widget => widget.close());
    }
}
