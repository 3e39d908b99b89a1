import { expect } from 'chai';
import crypto = require('crypto');
import { createAuthToken, isAuthorizedBearer, matchBearer, tokensEqual } from './auth-token';

const sha256 = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest();

/**
 * Replaces a function of the `crypto` module object for one call of `run`. The compiled module calls
 * `crypto_1.timingSafeEqual(...)` through that object, so the replacement sees every call it makes.
 */
function withCryptoFunction<K extends 'timingSafeEqual' | 'randomBytes', T>(name: K, replacement: (typeof crypto)[K], run: () => T): T {
    const original = crypto[name];
    crypto[name] = replacement;
    try {
        return run();
    } finally {
        crypto[name] = original;
    }
}

/** Every comparison `verify` makes through crypto.timingSafeEqual, with both buffers. */
function comparisonsOf(verify: () => unknown): { a: Buffer; b: Buffer }[] {
    const calls: { a: Buffer; b: Buffer }[] = [];
    const original = crypto.timingSafeEqual;
    withCryptoFunction('timingSafeEqual', (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
        calls.push({ a: Buffer.from(a.buffer, a.byteOffset, a.byteLength), b: Buffer.from(b.buffer, b.byteOffset, b.byteLength) });
        return original(a, b);
    }, verify);
    return calls;
}

describe('auth-token', () => {
    it('creates distinct tokens of at least 128 bits', () => {
        const tokens = new Set(Array.from({ length: 100 }, () => createAuthToken()));
        expect(tokens.size).to.equal(100);
        for (const token of tokens) {
            expect(Buffer.from(token, 'base64url').length * 8).to.be.at.least(128);
        }
    });

    it('makes each token of 256 bits from the CSPRNG, base64url without padding', () => {
        const sizes: number[] = [];
        const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => (i * 37 + 251) % 256));
        const token = withCryptoFunction('randomBytes', ((size: number) => {
            sizes.push(size);
            return Buffer.from(bytes.subarray(0, size));
        }) as typeof crypto.randomBytes, () => createAuthToken());
        expect(sizes).to.deep.equal([32]);
        expect(token).to.equal(bytes.toString('base64url'));
        expect(createAuthToken()).to.match(/^[A-Za-z0-9_-]{43}$/);
    });

    it('accepts exactly "Bearer <token>"', () => {
        const token = createAuthToken();
        expect(isAuthorizedBearer(`Bearer ${token}`, token)).to.equal(true);
        expect(isAuthorizedBearer(`bearer ${token}`, token)).to.equal(true);
    });

    it('refuses missing, malformed, wrong, prefixed and oversized values', () => {
        const token = createAuthToken();
        for (const header of [undefined, '', 'Bearer', `Basic ${token}`, `Bearer ${token}x`, `Bearer x${token}`,
            `Bearer ${token.slice(0, -1)}`, `${token}`, `Bearer ${token} extra`, `Bearer ${'a'.repeat(5000)}`]) {
            expect(isAuthorizedBearer(header, token), String(header)).to.equal(false);
        }
    });

    it('never matches an empty expected token', () => {
        expect(tokensEqual('', '')).to.equal(false);
    });

    it('tells which of several tokens a header carries, and none for a wrong or malformed one', () => {
        const tokens = new Map([['gemini', createAuthToken()], ['qwen', createAuthToken()]]);
        expect(matchBearer(`Bearer ${tokens.get('gemini')}`, tokens)).to.equal('gemini');
        expect(matchBearer(`Bearer ${tokens.get('qwen')}`, tokens)).to.equal('qwen');
        expect(matchBearer(`Bearer ${tokens.get('qwen')}x`, tokens)).to.equal(undefined);
        expect(matchBearer(tokens.get('qwen'), tokens)).to.equal(undefined);
        expect(matchBearer('Bearer ', new Map([['empty', '']]))).to.equal(undefined);
        expect(matchBearer(undefined, tokens)).to.equal(undefined);
    });

    describe('compares in constant time: every token, on equal-length digests, through crypto.timingSafeEqual', () => {
        const tokens = new Map([['gemini', createAuthToken()], ['qwen', createAuthToken()], ['agent', createAuthToken()]]);
        const digests = [...tokens.values()].map(sha256);
        const candidates: [string, string][] = [
            ['the first token', tokens.get('gemini')!], ['the last token', tokens.get('agent')!], ['a wrong token of the same length', 'x'.repeat(43)],
            ['a short token', 'abc'], ['a one-character token', 'a'], ['a long token', 'y'.repeat(1000)]
        ];

        for (const [what, candidate] of candidates) {
            it(`${what}: one comparison per token, none skipped after a match or on a length mismatch`, () => {
                let matched: string | undefined;
                const calls = comparisonsOf(() => matched = matchBearer(`Bearer ${candidate}`, tokens));
                expect(matched).to.equal([...tokens].find(([, token]) => token === candidate)?.[0]);
                expect(calls).to.have.length(tokens.size);
                calls.forEach(({ a, b }) => expect([a.length, b.length]).to.deep.equal([32, 32]));
                calls.forEach(({ a }) => expect(a.equals(sha256(candidate)), 'the candidate, hashed').to.equal(true));
                expect(calls.map(({ b }) => b.toString('hex')).sort()).to.deep.equal(digests.map(digest => digest.toString('hex')).sort());
            });
        }

        it('an empty or malformed Bearer value is compared against every token too', () => {
            for (const header of ['Bearer ', 'Bearer', `Basic ${tokens.get('qwen')}`, tokens.get('qwen')!]) {
                let matched: string | undefined = 'not called';
                const calls = comparisonsOf(() => matched = matchBearer(header, tokens));
                expect(matched, header).to.equal(undefined);
                expect(calls, header).to.have.length(tokens.size);
                calls.forEach(({ a, b }) => expect([a.length, b.length], header).to.deep.equal([32, 32]));
            }
        });

        it('a single token (isAuthorizedBearer, tokensEqual): one comparison of the two digests, right or wrong', () => {
            const token = tokens.get('qwen')!;
            for (const candidate of [token, token.slice(0, -1), '', 'z'.repeat(500)]) {
                const calls = comparisonsOf(() => isAuthorizedBearer(`Bearer ${candidate}`, token));
                expect(calls, JSON.stringify(candidate)).to.have.length(1);
                expect(calls[0].b.equals(sha256(token))).to.equal(true);
                expect(comparisonsOf(() => tokensEqual(candidate, token)), JSON.stringify(candidate)).to.have.length(1);
            }
        });
    });
});
