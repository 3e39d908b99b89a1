import { expect } from 'chai';
import { createAuthToken, isAuthorizedBearer, matchBearer, tokensEqual } from './auth-token';

describe('auth-token', () => {
    it('creates distinct tokens of at least 128 bits', () => {
        const tokens = new Set(Array.from({ length: 100 }, () => createAuthToken()));
        expect(tokens.size).to.equal(100);
        for (const token of tokens) {
            expect(Buffer.from(token, 'base64url').length * 8).to.be.at.least(128);
        }
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
});
