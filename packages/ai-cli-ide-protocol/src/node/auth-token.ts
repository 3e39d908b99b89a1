import { createHash, randomBytes, timingSafeEqual } from 'crypto';

/** 256 bits from the CSPRNG, URL-safe so it fits any header or JSON string unescaped. */
export function createAuthToken(): string {
    return randomBytes(32).toString('base64url');
}

/** Longer `Authorization` values are refused before any hashing: no token of ours is that long. */
const MAX_AUTHORIZATION_LENGTH = 1024;

/**
 * Checks an `Authorization: Bearer <token>` header in constant time with respect to the secret:
 * both sides are hashed first so neither their content nor their length leaks through timing.
 */
export function isAuthorizedBearer(authorization: string | undefined, expectedToken: string): boolean {
    return matchBearer(authorization, new Map([[true, expectedToken]])) === true;
}

/**
 * Which of several secrets an `Authorization: Bearer <token>` header carries, if any. Every secret is
 * compared (no early exit), so the time taken does not tell which one, or whether any, matched.
 */
export function matchBearer<K>(authorization: string | undefined, tokens: ReadonlyMap<K, string>): K | undefined {
    if (typeof authorization !== 'string' || authorization.length > MAX_AUTHORIZATION_LENGTH) {
        return undefined;
    }
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
    const candidate = match?.[1] ?? '';
    let found: K | undefined;
    for (const [key, token] of tokens) {
        if (tokensEqual(candidate, token) && match) {
            found = key;
        }
    }
    return found;
}

export function tokensEqual(candidate: string, expected: string): boolean {
    const a = createHash('sha256').update(candidate, 'utf8').digest();
    const b = createHash('sha256').update(expected, 'utf8').digest();
    return timingSafeEqual(a, b) && expected.length > 0;
}
