import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Page } from 'playwright-core';
import { REPO_ROOT } from '../hosts/theia-backend';
import { DOC_IMAGES, DOC_SCREENSHOTS_ENV, TheiaWindow } from '../hosts/theia-window';

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

    it('are saved only when THEIA_CLI_COMPANION_SCREENSHOTS=1: a test run leaves docs/images alone, and runs the same', async () => {
        const saved: (string | undefined)[] = [];
        let pointerMoves = 0;
        // the page's two calls this needs; a browser spec that takes a screenshot checks the real thing
        const page = { mouse: { move: async () => { pointerMoves++; } }, screenshot: async (options: { path?: string }) => { saved.push(options.path); } };
        const window = new TheiaWindow(page as unknown as Page, REPO_ROOT);
        const before = process.env[DOC_SCREENSHOTS_ENV];
        try {
            delete process.env[DOC_SCREENSHOTS_ENV];
            expect(await window.saveDocScreenshot('status-bar')).to.equal(undefined);
            process.env[DOC_SCREENSHOTS_ENV] = '0';
            expect(await window.saveDocScreenshot('status-bar')).to.equal(undefined);
            expect(saved, 'no screenshot without the variable').to.deep.equal([]);
            process.env[DOC_SCREENSHOTS_ENV] = '1';
            expect(await window.saveDocScreenshot('status-bar')).to.equal(path.join(DOC_IMAGES, 'status-bar.png'));
            expect(saved).to.deep.equal([path.join(DOC_IMAGES, 'status-bar.png')]);
            expect(pointerMoves, 'the pointer moves away in both modes').to.equal(3);
        } finally {
            if (before === undefined) {
                delete process.env[DOC_SCREENSHOTS_ENV];
            } else {
                process.env[DOC_SCREENSHOTS_ENV] = before;
            }
        }
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
        expect([...taken.keys()].filter(name => !fs.existsSync(path.join(DOC_IMAGES, `${name}.png`))), 'taken but not in docs/images').to.deep.equal([]);
    });
});
