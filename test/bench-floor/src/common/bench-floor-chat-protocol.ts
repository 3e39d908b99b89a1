import type { RpcServer } from '@theia/core/lib/common/messaging/proxy-factory';

/** Where the page reaches the floor chat agent's backend over Theia's RPC. */
export const benchFloorChatServicePath = '/services/cli-companion-bench-floor-chat';

/** The floor chat agent's name in Theia AI's chat (`@BenchFloor <text>`). */
export const BENCH_FLOOR_CHAT_AGENT = 'BenchFloor';

/** The page's side: the text the backend streams back for a request. */
export interface BenchFloorChatClient {
    onText(requestId: string, text: string): void;
}

/** When the backend had a prompt and when it sent its text back (ms since the epoch, sub-millisecond). */
export interface BenchFloorEcho {
    readonly text: string;
    readonly receivedAt: number;
    readonly sentAt: number;
}

export const BenchFloorChatService = Symbol('BenchFloorChatService');
/**
 * The backend of the floor chat agent: what any backend-driven chat agent must do with a prompt (take it from
 * the page over Theia's RPC, stream a text back into the response), and nothing else.
 */
export interface BenchFloorChatService extends RpcServer<BenchFloorChatClient> {
    /** Sends `text` back to the page at once. */
    echo(requestId: string, text: string): Promise<void>;
    /** The echoes so far, oldest first (the last 1,000), for the bench's breakdown. */
    echoes(): Promise<BenchFloorEcho[]>;
}
