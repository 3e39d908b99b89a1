import type { Page } from 'playwright-core';
import { TheiaWindow } from '../hosts/theia-window';

interface RpcMark {
    readonly marker: string;
    readonly direction: 'out' | 'in';
    readonly at: number;
}

interface PageWithMarks {
    benchRpcMarkers: string[];
    benchRpcMarks: RpcMark[];
}

/**
 * Runs in the page before Theia does (an init script): every WebSocket the page opens stamps the frames
 * it sends and receives that hold one of the markers set by {@link watchRpcFrames}, with the time they
 * left or arrived. Where a frame leaves, the frontend's work ends and Theia's RPC begins; where one
 * arrives, the frontend's work begins. Only for the bench: it decodes every frame while markers are set.
 * Self-contained: it is serialized into the page.
 */
function stampRpcFramesInPage(): void {
    // Our frontend's timing marks too (ai-cli-core's `frontendTimingMark`; the name is FRONTEND_TIMING_MARKS_FLAG, inlined: this runs alone).
    (window as unknown as Record<string, unknown>).cliCompanionTimingMarks = true;
    const target = window as unknown as PageWithMarks;
    target.benchRpcMarkers = [];
    target.benchRpcMarks = [];
    const decoder = new TextDecoder('latin1');
    const stamp = (data: unknown, direction: 'out' | 'in') => {
        if (!target.benchRpcMarkers.length) {
            return;
        }
        const at = performance.timeOrigin + performance.now();
        const text = typeof data === 'string' ? data
            : data instanceof ArrayBuffer || ArrayBuffer.isView(data) ? decoder.decode(data as ArrayBuffer) : '';
        for (const marker of target.benchRpcMarkers.filter(candidate => text.includes(candidate))) {
            target.benchRpcMarks.push({ marker, direction, at });
        }
    };
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data: string | ArrayBufferLike | Blob | ArrayBufferView): void {
        stamp(data, 'out');
        send.call(this, data);
    };
    const Native = WebSocket;
    // A listener added here runs before the handler the page's socket library sets afterwards.
    window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
            super(url, protocols);
            this.addEventListener('message', event => stamp(event.data, 'in'));
        }
    };
}

/** Opens windows whose WebSocket frames can be stamped and whose frontend records its timing marks: pass as `TheiaWindow.open`'s `beforeLoad`. */
export function stampRpcFrames(page: Page): void {
    void page.addInitScript(stampRpcFramesInPage);
}

/** From now on, frames holding any of `markers` are stamped (the earlier stamps are dropped). */
export async function watchRpcFrames(window: TheiaWindow, markers: readonly string[]): Promise<void> {
    const installed = await window.page.evaluate(names => {
        const target = window as unknown as Partial<PageWithMarks>;
        if (!target.benchRpcMarks) {
            return false;
        }
        target.benchRpcMarkers = names;
        target.benchRpcMarks = [];
        return true;
    }, [...markers]);
    if (!installed) {
        throw new Error('This window does not stamp its RPC frames: open it with stampRpcFrames as beforeLoad');
    }
}

/** When the first frame holding `marker` left (or arrived in) the page since {@link watchRpcFrames}, not before `after`. */
export async function firstRpcFrame(window: TheiaWindow, marker: string, options: { after?: number; direction?: 'out' | 'in' } = {}): Promise<number> {
    const { after = 0, direction = 'out' } = options;
    const marks = await window.page.evaluate(() => (window as unknown as PageWithMarks).benchRpcMarks);
    const mark = marks.find(candidate => candidate.marker === marker && candidate.direction === direction && candidate.at >= after);
    if (!mark) {
        throw new Error(`no RPC frame holding "${marker}" ${direction === 'out' ? 'left' : 'arrived in'} the page (frames stamped: ${JSON.stringify(marks)})`);
    }
    return mark.at;
}
