import { expect } from 'chai';
import * as fc from 'fast-check';
import * as path from 'path';
import { until } from '../support/processes';
import { Testbed } from '../support/testbed';
import { IdeProbe } from '../hosts/ide-probe';
import { TheiaWindow } from '../hosts/theia-window';

const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';

/** Text a CLI may propose: mixed line endings, a BOM, no trailing newline, astral-plane characters, tabs. */
const proposalText = fc.record({
    bom: fc.boolean(),
    lines: fc.array(fc.string({ unit: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom('a', 'b', ' ', '\t', 'é', '中', '{', '}', ';') },
        { weight: 2, arbitrary: fc.constantFrom('😀', '𝄞', '🏳️‍🌈', '\u200b', '\u00a0') },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 1 }).filter(char => char !== '\r' && char !== '\n' && char !== '\0') }
    ), maxLength: 60 }), { maxLength: 40 }),
    endings: fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 40, maxLength: 40 }),
    trailingNewline: fc.boolean()
}).map(({ bom, lines, endings, trailingNewline }) => {
    const body = lines.map((line, i) => line + (i < lines.length - 1 || trailingNewline ? endings[i] : '')).join('');
    return (bom ? '\ufeff' : '') + body;
});

/**
 * No data lost on accept: for many generated proposals, accepting the unedited diff in the browser
 * reports exactly the proposed text to the real Gemini IdeClient, byte for byte.
 */
describe('Accepting a proposal loses nothing (property test through the real browser and IdeClient)', function (): void {
    this.timeout(300000);
    const bed = Testbed.install('project', { 'src/target.txt': 'original\n' });
    let window: TheiaWindow;
    let probe: IdeProbe;

    beforeEach(async () => {
        window = await bed.openWindow();
        await window.openTerminal();
        probe = bed.probe('gemini', await window.terminalEnvironment(bed.workspace), bed.workspace);
        expect((await probe.connected()).status.status).to.equal('connected');
    });

    async function acceptUnedited(file: string, content: string): Promise<string | undefined> {
        probe.openDiff(file, content);
        await window.page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 60000 });
        await window.page.locator('#theia-main-content-panel .lm-TabBar-toolbar .codicon-check').first().click();
        const outcome = await probe.diffOutcome('diff', file, 60000);
        await until(async () => await window.page.locator(DIFF_EDITOR).count() === 0, 'the diff to close', 20000);
        expect(outcome.result?.status).to.equal('accepted');
        return outcome.result?.content;
    }

    it('reports exactly the proposed text for generated contents (mixed line endings, BOM, no final newline, astral characters)', async () => {
        const file = path.join(bed.workspace, 'src', 'target.txt');
        await fc.assert(fc.asyncProperty(proposalText, async content => {
            const accepted = await acceptUnedited(file, content);
            expect(accepted, JSON.stringify(content)).to.equal(content);
        }), { numRuns: 25, seed: Number(process.env.ACCEPT_SEED ?? Date.now() % 2 ** 31), endOnFailure: true });
    });

    it('reports exactly a 5 MB proposal', async () => {
        const file = path.join(bed.workspace, 'src', 'big.txt');
        const line = 'const value = "😀 ünïcödé";\t// 5 MB of this\r\n';
        const content = '\ufeff' + line.repeat(Math.ceil(5 * 1024 * 1024 / Buffer.byteLength(line))) + 'no newline at the end';
        const accepted = await acceptUnedited(file, content);
        expect(accepted?.length).to.equal(content.length);
        expect(accepted === content, 'byte-exact').to.equal(true);
    });
});
