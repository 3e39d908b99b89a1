import { expect } from 'chai';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { REPO_ROOT } from '../hosts/theia-backend';

/** One row of the README's feature × host table. */
interface FeatureRow {
    readonly feature: string;
    readonly commands: string[];
    /** The Theia extensions, code-server, the Theia IDE's plugin host: each cell as written. */
    readonly hosts: [string, string, string];
}

/** A ✓ cell: the spec (its file name without `.slow-spec.ts`, or a scenario module) and words of the test's title. */
const CHECKED_CELL = /^✓ `([\w-]+)` "([^"]+)"$/;
/** Commands of the .vsix that are parts of others, not features: the status bar's menu, a Pending Changes row's own actions. */
const VSIX_INTERNAL_COMMANDS = new Set(['Show Menu', 'Open Diff', 'Undo Change']);

function readTable(): FeatureRow[] {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const table = /<!-- feature-hosts:start -->\n([\s\S]*?)<!-- feature-hosts:end -->/.exec(readme)?.[1];
    if (!table) {
        throw new Error('README.md has no feature-hosts table');
    }
    return table.trim().split('\n').slice(2).map(line => {
        const cells = line.replace(/^\|\s*|\s*\|$/g, '').split(/\s*\|\s*/);
        expect(cells, line).to.have.length(5);
        return { feature: cells[0], commands: cells[1] ? cells[1].split(/,\s*/) : [], hosts: [cells[2], cells[3], cells[4]] };
    });
}

/** The test sources by name: `code-server` is test/src/vscode/code-server.slow-spec.ts, `diff-scenarios` test/src/scenarios/diff-scenarios.ts. */
function testSources(): Map<string, string> {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', 'test/src'], { cwd: REPO_ROOT }).toString('utf8').split('\n')
        .filter(file => /\.(slow-spec\.ts|ts)$/.test(file) && fs.existsSync(path.join(REPO_ROOT, file)));
    // A spec wins over a helper of the same name (test/src/support/implicit-saves.ts beside implicit-saves.slow-spec.ts).
    const ordered = [...files.filter(file => !file.endsWith('.slow-spec.ts')), ...files.filter(file => file.endsWith('.slow-spec.ts'))];
    return new Map(ordered.map(file => [path.basename(file).replace(/\.slow-spec\.ts$|\.ts$/, ''), path.join(REPO_ROOT, file)]));
}

/** The test titles a source gives (`it('…')` and scenario `title: '…'`, continued with `+ '…'`), quotes unescaped. */
function titlesIn(source: string): string[] {
    const titles: string[] = [];
    const start = /(?:\bit\(|\btitle:)\s*(['`])((?:\\.|(?!\1)[^\\])*)\1((?:\s*\+\s*(['`])(?:\\.|(?!\4)[^\\])*\4)*)/g;
    for (let found = start.exec(source); found; found = start.exec(source)) {
        const continued = [...found[3].matchAll(/(['`])((?:\\.|(?!\1)[^\\])*)\1/g)].map(part => part[2]);
        titles.push([found[2], ...continued].join('').replace(/\\(.)/g, '$1'));
    }
    return titles;
}

describe('The README\'s feature × host table', () => {
    const rows = readTable();
    const sources = testSources();
    const vsix = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'packages', 'vscode-companion', 'package.json'), 'utf8'));
    const nls: Record<string, string> = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'packages', 'vscode-companion', 'package.nls.json'), 'utf8'));
    const vsixTitles: string[] = vsix.contributes.commands.map((command: { title: string }) => nls[command.title.replace(/^%|%$/g, '')] ?? command.title);
    const theiaSources = execFileSync('git', ['ls-files', '--', 'packages/ai-cli-core/src', 'packages/ai-cli-ide-companion/src'], { cwd: REPO_ROOT })
        .toString('utf8').split('\n').filter(file => /\.tsx?$/.test(file) && !/\.spec\.ts$/.test(file))
        .map(file => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')).join('\n');

    it('reads its rows: every feature is shown in code-server', () => {
        expect(rows.length).to.be.above(10);
        for (const row of rows) {
            expect(row.hosts[1], `${row.feature} in code-server`).to.match(CHECKED_CELL);
        }
    });

    it('names, for each ✓, a test that exists with those words in its title', () => {
        const missing: string[] = [];
        for (const row of rows) {
            for (const cell of row.hosts.filter(host => host.startsWith('✓'))) {
                const [, spec, words] = CHECKED_CELL.exec(cell) ?? [];
                const file = spec && sources.get(spec);
                if (!file) {
                    missing.push(`${row.feature}: no test source named ${JSON.stringify(spec ?? cell)}`);
                } else if (!titlesIn(fs.readFileSync(file, 'utf8')).some(title => title.includes(words))) {
                    missing.push(`${row.feature}: no test in ${path.relative(REPO_ROOT, file)} has "${words}" in its title`);
                }
            }
        }
        expect(missing).to.deep.equal([]);
    });

    it('marks only ✓, "same .vsix" (the plugin host) or — (not in that host)', () => {
        for (const row of rows) {
            row.hosts.forEach((cell, index) => expect(CHECKED_CELL.test(cell) || cell === '—' || (index === 2 && cell === 'same .vsix'), `${row.feature}: ${cell}`).to.equal(true));
        }
    });

    it('lists every command of the .vsix, and each command named where both hosts have the feature is offered by both', () => {
        const named = new Set(rows.flatMap(row => row.commands));
        expect(vsixTitles.filter(title => !VSIX_INTERNAL_COMMANDS.has(title) && !named.has(title)), 'commands of the .vsix the table leaves out').to.deep.equal([]);
        for (const row of rows) {
            for (const command of row.commands) {
                expect(vsixTitles, `${row.feature}: the .vsix offers ${command}`).to.include(command);
                if (row.hosts[0] !== '—') {
                    expect(theiaSources, `${row.feature}: the Theia extensions offer ${command}`).to.contain(`label: '${command}'`);
                }
            }
        }
    });

    it('finds test titles as the sources write them: quotes unescaped, continued lines joined', () => {
        const source = [
            'it(\'one\\\'s title\', async () => {});',
            '    it(\'a long title: \'',
            '        + \'continued\', async () => {});',
            '    title: \'a scenario\','
        ].join('\n');
        expect(titlesIn(source)).to.deep.equal(['one\'s title', 'a long title: continued', 'a scenario']);
    });
});
