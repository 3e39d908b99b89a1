/** Where the page reaches the floor's backend over Theia's RPC. */
export const benchFloorServicePath = '/services/cli-companion-bench-floor';

/** The route on Theia's own HTTP server where the floor's SSE clients listen. */
export const BENCH_FLOOR_EVENTS_ROUTE = '/cli-companion-bench-floor/events';

/** The global the page exposes for the bench to call (from `page.evaluate`). */
export const BENCH_FLOOR_GLOBAL = 'cliCompanionBenchFloor';

export const BenchFloorService = Symbol('BenchFloorService');
export interface BenchFloorService {
    /** Writes the payload, as JSON, to every SSE client: the least any extension must do with a context update. */
    pushPayload(payload: object): Promise<void>;
    /** The backend's timing marks since the last call (`timingMark` of cli-process: recorded when the bench sets its variable), cleared. */
    timingMarks(): Promise<{ name: string; at: number }[]>;
}
