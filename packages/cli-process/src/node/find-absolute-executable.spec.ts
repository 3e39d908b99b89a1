import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { findAbsoluteExecutable } from './find-absolute-executable';

describe('findAbsoluteExecutable', () => {
    let dir: string;
    let cwd: string;
    beforeEach(() => {
        dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'find-absolute-')));
        cwd = process.cwd();
    });
    afterEach(() => {
        process.chdir(cwd);
        fs.rmSync(dir, { recursive: true, force: true });
    });

    it('finds a bare name on the absolute PATH entries only, never in the current folder', async () => {
        const repository = path.join(dir, 'repository');
        const installed = path.join(dir, 'installed');
        fs.mkdirSync(repository);
        fs.mkdirSync(installed);
        fs.writeFileSync(path.join(repository, 'gemini'), '#!/bin/sh\n', { mode: 0o755 });
        fs.writeFileSync(path.join(installed, 'gemini'), '#!/bin/sh\n', { mode: 0o755 });
        process.chdir(repository);
        expect(await findAbsoluteExecutable('gemini', ['.', '', installed].join(path.delimiter))).to.equal(path.join(installed, 'gemini'));
        expect(await findAbsoluteExecutable('gemini', ['.', ''].join(path.delimiter)), 'only relative entries').to.equal(undefined);
        expect(await findAbsoluteExecutable('gemini', ''), 'an empty PATH').to.equal(undefined);
    });

    it('checks an absolute path as it is, and refuses a relative one with a separator', async () => {
        const tool = path.join(dir, 'agent');
        fs.writeFileSync(tool, '#!/bin/sh\n', { mode: 0o755 });
        process.chdir(dir);
        expect(await findAbsoluteExecutable(tool, '')).to.equal(tool);
        expect(await findAbsoluteExecutable('./agent', dir)).to.equal(undefined);
        expect(await findAbsoluteExecutable('sub/../agent', dir)).to.equal(undefined);
        expect(await findAbsoluteExecutable(path.join(dir, 'missing'), dir)).to.equal(undefined);
        expect(await findAbsoluteExecutable('', dir)).to.equal(undefined);
    });
});
