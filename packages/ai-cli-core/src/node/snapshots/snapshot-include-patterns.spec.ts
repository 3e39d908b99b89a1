import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { gitGlobMatches, SnapshotIncludeSchema } from '../../common/snapshot-include';

/** Ignored files of a folder, and patterns: which of them git itself selects, as the snapshot engine asks it. */
const FILES = [
    '.env', 'a.log', 'sub/.env', 'sub/deep/x.js', 'node_modules/pkg/index.js', 'node_modules/pkg/lib/a.js', 'node_modules/@scope/p/index.js',
    'node_modules/.bin/tool', 'sub/node_modules/p/i.js', 'generated/x.ts', 'generated/deep/y.ts', 'zq9a/zq9b/zq9c.zq9', 'n.txt'
];
const PATTERNS = [
    '*', '**', '**/*', '*/**', '*/*', '*/*/*', 'node_modules', 'node_modules/', 'node_modules/*', 'node_modules/**', '**/node_modules/**', 'n*', 'n*/**',
    '**/*.js', '.env', '**/.env', 'sub', 'sub/*', 'generated/**', 'generated/**/*.ts', '[ng]*/**', 'node_modules/pkg/**', '?ub/**', '**/deep/*',
    'sub/**/x.js', '[!n]*/**', '*.log', 'a.lo?', 'sub/**', '**/index.js', 'generated**', '**/*.ts'
];

describe('Snapshot include patterns, as git selects them', () => {
    let folder: string;

    before(() => {
        folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'snapshot-include-')));
        execFileSync('git', ['init', '-q'], { cwd: folder, env: { PATH: process.env.PATH, HOME: folder, GIT_CONFIG_NOSYSTEM: '1' } });
        fs.writeFileSync(path.join(folder, '.git', 'info', 'exclude'), '*\n');
        for (const file of FILES) {
            fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
            fs.writeFileSync(path.join(folder, file), 'x\n');
        }
    });
    after(() => fs.rmSync(folder, { recursive: true, force: true }));

    const selectedByGit = (pattern: string) => execFileSync('git', ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', `:(glob)${pattern}`],
        { cwd: folder, env: { PATH: process.env.PATH, HOME: folder, GIT_CONFIG_NOSYSTEM: '1' } }).toString().split('\0').filter(Boolean).sort();

    it('the width check reads a pattern as git does (which is what decides what a snapshot copies), never as selecting less', () => {
        for (const pattern of PATTERNS) {
            const read = FILES.filter(file => gitGlobMatches(pattern, file)).sort();
            expect(read, pattern).to.include.members(selectedByGit(pattern));
            if (!pattern.includes('**') || /(^|\/)\*\*(\/|$)/.test(pattern)) {
                // Exactly as git, but for a `**` glued to other characters, which git reads in more than one way.
                expect(read, pattern).to.deep.equal(selectedByGit(pattern));
            }
        }
    });

    it('every pattern git would have copy all of node_modules, or every file, is refused; narrower ones are taken', () => {
        const refused = PATTERNS.filter(pattern => !SnapshotIncludeSchema.safeParse([pattern]).success);
        expect(refused).to.deep.equal([
            '**', '**/*', '*/**', '*/*/*', 'node_modules', 'node_modules/', 'node_modules/**', '**/node_modules/**', 'n*/**', '**/*.js', '[ng]*/**',
            '[!n]*/**', '**/index.js'
        ]);
        for (const pattern of refused) {
            expect(selectedByGit(pattern).filter(file => file.startsWith('node_modules/') || file === 'zq9a/zq9b/zq9c.zq9'), pattern).to.not.deep.equal([]);
        }
    });
});
