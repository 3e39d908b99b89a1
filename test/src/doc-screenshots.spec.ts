import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from './theia-backend';

/** The specs scripts/docs-screenshots.sh runs: every *.slow-spec.ts under test/src that takes a screenshot. */
function screenshotsBySpec(dir = path.join(REPO_ROOT, 'test', 'src')): Map<string, string> {
    const taken = new Map<string, string>();
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
            screenshotsBySpec(file).forEach((spec, name) => taken.set(name, spec));
        } else if (entry.name.endsWith('.slow-spec.ts')) {
            for (const match of fs.readFileSync(file, 'utf8').matchAll(/\.saveDocScreenshot\('([^']+)'/g)) {
                taken.set(match[1], path.relative(REPO_ROOT, file));
            }
        }
    }
    return taken;
}

describe('Screenshots for the docs (npm run docs:screenshots)', () => {
    const taken = screenshotsBySpec();

    it('are taken by their own command, which runs the specs that take them', () => {
        const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
        expect(manifest.scripts['docs:screenshots']).to.equal('bash scripts/docs-screenshots.sh');
        const script = fs.readFileSync(path.join(REPO_ROOT, 'scripts', 'docs-screenshots.sh'), 'utf8');
        expect(script).to.contain('THEIA_CLI_COMPANION_SCREENSHOTS=1 npx mocha');
        expect(taken.size, 'specs take screenshots').to.be.greaterThan(0);
    });

    it('cover every image the docs show, and every image they take is in docs/images', () => {
        const shown = new Set<string>();
        for (const doc of ['README.md', ...fs.readdirSync(path.join(REPO_ROOT, 'docs')).filter(name => name.endsWith('.md')).map(name => `docs/${name}`)]) {
            for (const match of fs.readFileSync(path.join(REPO_ROOT, doc), 'utf8').matchAll(/images\/([a-z0-9-]+)\.png/g)) {
                shown.add(match[1]);
            }
        }
        expect(shown.size, 'the docs show screenshots').to.be.greaterThan(0);
        expect([...shown].filter(name => !taken.has(name)), 'shown in the docs but taken by no spec').to.deep.equal([]);
        expect([...taken.keys()].filter(name => !fs.existsSync(path.join(REPO_ROOT, 'docs', 'images', `${name}.png`))), 'taken but not in docs/images').to.deep.equal([]);
    });
});
