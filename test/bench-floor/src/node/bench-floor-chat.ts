import { injectable } from '@theia/core/shared/inversify';
import { BenchFloorChatClient, BenchFloorChatService, BenchFloorEcho } from '../common/bench-floor-chat-protocol';

const now = () => performance.timeOrigin + performance.now();

/** The floor chat agent's backend: the text goes back to the page as soon as it arrives. */
@injectable()
export class BenchFloorChat implements BenchFloorChatService {
    protected client?: BenchFloorChatClient;
    protected readonly echoed: BenchFloorEcho[] = [];

    setClient(client: BenchFloorChatClient | undefined): void {
        this.client = client;
    }

    async echo(requestId: string, text: string): Promise<void> {
        const receivedAt = now();
        this.client?.onText(requestId, text);
        this.echoed.push({ text, receivedAt, sentAt: now() });
        this.echoed.splice(0, Math.max(0, this.echoed.length - 1000));
    }

    async echoes(): Promise<BenchFloorEcho[]> {
        return [...this.echoed];
    }

    dispose(): void {
        this.client = undefined;
    }
}
