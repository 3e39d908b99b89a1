import type { Request, Response, NextFunction, RequestHandler } from '@theia/core/shared/express';
import { matchBearer } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { SessionCredential } from '../common/ide-companion-protocol';

export interface McpRequestGuardOptions {
    /** One secret per credential (CLI flavour or ACP agent): the one a request carries tells who sent it. */
    readonly authTokens: () => ReadonlyMap<SessionCredential, string>;
    /** The port the server listens on; known only after listen, hence a function. */
    readonly port: () => number;
    /** Called for each refused request with a reason that never contains the token. */
    readonly onRefused?: (status: number, reason: string) => void;
}

/**
 * The first middleware of every window server. Order matters: browser-originated requests and
 * rebinding attempts are refused before the token is even looked at.
 * - any `Origin` header: a web page is talking to us (CLIs never send one) → 403;
 * - a `Host` other than 127.0.0.1:<port> / localhost:<port>: DNS rebinding → 403;
 * - a missing or wrong `Authorization: Bearer` → 401.
 * An accepted request carries the credential whose token it used in `res.locals.credential`.
 */
export function createMcpRequestGuard(options: McpRequestGuardOptions): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
        const refuse = (status: number, reason: string) => {
            options.onRefused?.(status, reason);
            if (status === 401) {
                res.setHeader('WWW-Authenticate', 'Bearer realm="theia-ai-cli-companion"');
            }
            res.status(status).json(jsonRpcError(-32001, reason));
        };
        if (req.headers.origin !== undefined) {
            return refuse(403, 'Forbidden: requests from web pages (Origin header present) are not accepted');
        }
        if (!isAllowedHost(req.headers.host, options.port())) {
            return refuse(403, `Forbidden: Host header ${JSON.stringify(req.headers.host ?? '')} is not this server's loopback address`);
        }
        const credential = matchBearer(req.headers.authorization, options.authTokens());
        if (credential === undefined) {
            return refuse(401, req.headers.authorization === undefined
                ? 'Unauthorized: missing Authorization: Bearer header'
                : 'Unauthorized: invalid bearer token');
        }
        res.locals.credential = credential;
        next();
    };
}

export function isAllowedHost(host: string | undefined, port: number): boolean {
    return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

export function jsonRpcError(code: number, message: string): object {
    return { jsonrpc: '2.0', error: { code, message }, id: null };
}
