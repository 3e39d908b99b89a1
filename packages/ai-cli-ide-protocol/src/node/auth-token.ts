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
    if (typeof authorization !== 'string' || authorization.length > MAX_AUTHORIZATION_LENGTH) {
        return false;
    }
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
    return !!match && tokensEqual(match[1], expectedToken);
}

export function tokensEqual(candidate: string, expected: string): boolean {
    const a = createHash('sha256').update(candidate, 'utf8').digest();
    const b = createHash('sha256').update(expected, 'utf8').digest();
    return timingSafeEqual(a, b) && expected.length > 0;
}
