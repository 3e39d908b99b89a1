import { expect } from 'chai';
import { isOfferableCommandName } from './offerable-command-name';

describe('isOfferableCommandName', () => {
    it('takes the names current agents use: word-like, Codex\'s $skill, MCP prompts with colons, Gemini CLI\'s subcommands', () => {
        for (const name of ['init', 'compact', 'my.cmd-2', '$skill', 'mcp:docs:search', 'memory show', 'écrire']) {
            expect(isOfferableCommandName(name), name).to.equal(true);
        }
    });

    it('refuses what the input cannot hold on one line or would read as something else', () => {
        for (const name of ['', ' init', 'init ', '/init', 'two\nlines', 'tab\there', 'bell\u0007', 'x'.repeat(101), 7, undefined]) {
            expect(isOfferableCommandName(name), JSON.stringify(name)).to.equal(false);
        }
        expect(isOfferableCommandName('x'.repeat(100))).to.equal(true);
    });
});
