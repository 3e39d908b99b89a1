import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';

/** Every source file of this package (the spec runs from lib/, the sources are in src/). */
function sourceFiles(dir = path.resolve(__dirname, '..', '..', 'src')): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
        const file = path.join(dir, entry.name);
        return entry.isDirectory() ? sourceFiles(file) : /\.tsx?$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name) ? [file] : [];
    });
}

describe('nls keys', () => {
    it('are namespaced and each names one default text, so a translation never shows the wrong string', () => {
        const texts = new Map<string, Set<string>>();
        const call = /(?:nls\.localize|Command\.toLocalizedCommand)\([^'`]*?'([^']+)',\s*'((?:[^'\\]|\\.)*)'/g;
        for (const file of sourceFiles()) {
            for (const match of fs.readFileSync(file, 'utf8').matchAll(call)) {
                const [, key, text] = match;
                texts.set(key, (texts.get(key) ?? new Set()).add(text));
            }
        }
        expect(texts.size, 'localized strings found').to.be.greaterThan(50);
        for (const [key, defaults] of texts) {
            expect(key, key).to.match(/^theia-cli-companion\/ide-companion\/[A-Za-z]+$/);
            expect([...defaults], key).to.have.length(1);
        }
    });
});
