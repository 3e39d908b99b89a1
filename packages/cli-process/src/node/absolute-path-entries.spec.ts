import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { absolutePathEntries } from './absolute-path-entries';
import { findExecutable } from './find-executable';

describe('absolutePathEntries', () => {
    let dir: string;
    let cwd: string;
    beforeEach(() => {
        dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'absolute-path-')));
        cwd = process.cwd();
    });
    afterEach(() => {
        process.chdir(cwd);
        fs.rmSync(dir, { recursive: true, force: true });
    });

    it('keeps only absolute entries: ".", empty and relative ones go', () => {
        expect(absolutePathEntries('.::bin:/usr/bin:./tools:/opt/x/bin:', ':')).to.equal('/usr/bin:/opt/x/bin');
        expect(absolutePathEntries(undefined)).to.equal('');
    });

    it('so a program is never found in the current folder, whatever PATH says', async () => {
        const repository = path.join(dir, 'repository');
        const real = path.join(dir, 'real');
        fs.mkdirSync(repository);
        fs.mkdirSync(real);
        fs.writeFileSync(path.join(repository, 'git'), '#!/bin/sh\n', { mode: 0o755 });
        fs.writeFileSync(path.join(real, 'git'), '#!/bin/sh\n', { mode: 0o755 });
        process.chdir(repository);
        const hostile = ['.', '', 'sub', real].join(path.delimiter);
        expect(await findExecutable('git', absolutePathEntries(hostile))).to.equal(path.join(real, 'git'));
    });
});
