import { injectable } from '@theia/core/shared/inversify';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import type { Application, Response } from '@theia/core/shared/express';
import { takeTimingMarks } from '@theia-cli-companion/cli-process/lib/node';
import { BENCH_FLOOR_EVENTS_ROUTE, BenchFloorService } from '../common/bench-floor-protocol';

/**
 * The floor's backend: an SSE route on Theia's own server, and the RPC method that writes a payload
 * to it. Nothing else happens on the way (no validation, no state), which is what makes it a floor.
 */
@injectable()
export class BenchFloorSse implements BackendApplicationContribution, BenchFloorService {
    protected readonly clients = new Set<Response>();

    configure(app: Application): void {
        app.get(BENCH_FLOOR_EVENTS_ROUTE, (request, response) => {
            response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
            response.flushHeaders();
            this.clients.add(response);
            request.on('close', () => this.clients.delete(response));
        });
    }

    async pushPayload(payload: object): Promise<void> {
        const event = `data: ${JSON.stringify(payload)}\n\n`;
        for (const client of this.clients) {
            client.write(event);
        }
    }

    async timingMarks(): Promise<{ name: string; at: number }[]> {
        return takeTimingMarks();
    }
}
