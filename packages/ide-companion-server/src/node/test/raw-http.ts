import * as http from 'http';

export interface RawResponse {
    status: number;
    headers: http.IncomingHttpHeaders;
    body: string;
}

/**
 * A plain HTTP request with full control over Host and other headers (fetch would normalise them).
 * An event-stream answer resolves at its headers (the stream is then dropped, as a dying client does).
 */
export function rawRequest(port: number, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: options.method ?? 'POST', path: options.path ?? '/mcp', headers: options.headers }, res => {
            if (String(res.headers['content-type']).startsWith('text/event-stream')) {
                resolve({ status: res.statusCode!, headers: res.headers, body: '' });
                req.destroy();
                return;
            }
            const chunks: Buffer[] = [];
            res.on('data', chunk => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', reject);
        req.end(options.body);
    });
}
