import type { Request, Response, NextFunction, RequestHandler } from 'express';
import { matchBearer } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { SessionCredential } from '../../common/window-protocol';
import { sanitizeClientText } from '../../common/client-text';
import type { Refusal } from './refusal-log';

export interface McpRequestGuardOptions {
    /** One secret per credential (CLI flavour or ACP agent): the one a request carries tells who sent it. */
    readonly authTokens: () => ReadonlyMap<SessionCredential, string>;
    /** The port the server listens on; known only after listen, hence a function. */
    readonly port: () => number;
    /** Called for each refused request, with a reason that never contains the token. */
    readonly onRefused?: (refusal: Refusal) => void;
}

/**
 * The first middleware of every window server. Order matters: browser-originated requests and
 * rebinding attempts are refused before the token is even looked at.
 * - any `Origin` header: a web page is talking to us (CLIs never send one) → 403;
 * - a `Host` other than 127.0.0.1:<port> / localhost:<port>: DNS rebinding → 403;
 * - a missing or wrong `Authorization: Bearer` → 401.
 * An accepted request carries the credential whose token it used in `res.locals.credential`, and
 * that token in `res.locals.token` (a session it opens answers that token only; never logged).
 */
export function createMcpRequestGuard(options: McpRequestGuardOptions): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
        const refuse = (refusal: Refusal) => {
            options.onRefused?.(refusal);
            if (refusal.status === 401) {
                res.setHeader('WWW-Authenticate', 'Bearer realm="theia-ai-cli-companion"');
            }
            res.status(refusal.status).json(jsonRpcError(-32001, refusal.reason));
        };
        if (req.headers.origin !== undefined) {
            return refuse({ status: 403, kind: 'Origin', reason: 'Forbidden: requests from web pages (Origin header present) are not accepted' });
        }
        if (!isAllowedHost(req.headers.host, options.port())) {
            return refuse({ status: 403, kind: 'Host', reason: `Forbidden: ${describeHost(req.headers.host)} is not this server's loopback address` });
        }
        // Keyed by the whole entry, so the secret that matched is known along with its holder.
        const match = matchBearer(req.headers.authorization, new Map([...options.authTokens()].map(entry => [entry, entry[1]])));
        if (match === undefined) {
            return refuse(req.headers.authorization === undefined
                ? { status: 401, kind: 'no token', reason: 'Unauthorized: missing Authorization: Bearer header' }
                : { status: 401, kind: 'invalid token', reason: 'Unauthorized: invalid bearer token' });
        }
        [res.locals.credential, res.locals.token] = match;
        next();
    };
}

export function isAllowedHost(host: string | undefined, port: number): boolean {
    return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** A refused Host header as a refusal names it: quoted, cleaned and capped (it can be 16 KiB of anything). */
export function describeHost(host: string | undefined): string {
    return `Host header ${JSON.stringify(sanitizeClientText(host ?? ''))}`;
}

export function jsonRpcError(code: number, message: string): object {
    return { jsonrpc: '2.0', error: { code, message }, id: null };
}
