import * as http from 'http';
import { AddressInfo } from 'net';

/** One request to the service, its JSON body parsed. */
export interface TheiaCloudServiceRequest {
    readonly at: number;
    readonly method: string;
    readonly path: string;
    readonly body: unknown;
}

/**
 * Theia Cloud's service as a session's pod reaches it, on loopback: it records every request
 * (`PATCH /service/session` with a `sessionActivityRequest` is what reports activity) and answers 200.
 */
export class MockTheiaCloudService {
    readonly requests: TheiaCloudServiceRequest[] = [];
    protected server?: http.Server;
    url = '';

    async start(): Promise<void> {
        this.server = http.createServer((req, res) => {
            let body = '';
            req.on('data', (chunk: Buffer) => body += chunk.toString('utf8'));
            req.on('end', () => {
                let parsed: unknown = body;
                try {
                    parsed = JSON.parse(body);
                } catch {
                    // Kept as text: the test says what was wrong with it.
                }
                this.requests.push({ at: Date.now(), method: req.method ?? '', path: req.url ?? '', body: parsed });
                res.writeHead(200).end();
            });
        });
        await new Promise<void>(resolve => this.server!.listen(0, '127.0.0.1', resolve));
        this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    }

    /** What Theia Cloud puts into a session pod's environment for this session. */
    sessionEnvironment(sessionName: string, appToken: string): Record<string, string> {
        return { THEIACLOUD_SERVICE_URL: this.url, THEIACLOUD_SESSION_NAME: sessionName, THEIACLOUD_SERVICE_AUTH_TOKEN: appToken };
    }

    /** The activity reports among the requests. */
    activityReports(): TheiaCloudServiceRequest[] {
        return this.requests.filter(request => request.method === 'PATCH' && request.path === '/service/session');
    }

    async stop(): Promise<void> {
        await new Promise<void>(resolve => this.server ? this.server.close(() => resolve()) : resolve());
    }
}
