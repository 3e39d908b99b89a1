import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { findExecutable } from './find-executable';

describe('findExecutable', () => {
    let dir: string;
    beforeEach(() => dir = fs.mkdtempSync(path.join(os.tmpdir(), 'find-executable-')));
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('finds an executable on the given PATH, and nothing for a missing or non-executable one', async () => {
        const tool = path.join(dir, 'gemini');
        fs.writeFileSync(tool, '#!/bin/sh\n', { mode: 0o755 });
        fs.writeFileSync(path.join(dir, 'qwen'), 'not executable', { mode: 0o644 });
        expect(await findExecutable('gemini', dir)).to.equal(tool);
        expect(await findExecutable('qwen', dir)).to.equal(undefined);
        expect(await findExecutable('claude', dir)).to.equal(undefined);
        expect(await findExecutable(tool, '')).to.equal(tool);
    });

    it('answers nothing for input that is not a command name', async () => {
        for (const bad of ['', '   ', 'a\0b', 'x'.repeat(5000), 42 as never, undefined as never]) {
            expect(await findExecutable(bad, dir)).to.equal(undefined);
        }
    });
});
