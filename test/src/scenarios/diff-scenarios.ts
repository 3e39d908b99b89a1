import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Scenario } from './scenario';
import { until } from '../support/processes';

const ORIGINAL = 'alpha\nbeta\ngamma\n';
const TWELVE_LINES = Array.from({ length: 12 }, (_, line) => `line ${line + 1}\n`).join('');
const NUMBERS = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
/** Three separate changes (lines 2, 5 and 8), with the proposal's own line endings (CRLF where the file has LF). */
const NUMBERS_PROPOSAL = 'one\r\nTWO\r\nthree\r\nfour\r\nFIVE\r\nsix\r\nseven\r\nEIGHT\r\nnine\r\n';

/** The files the diff scenarios propose changes to: each host's spec puts them into its workspace. */
export const DIFF_SCENARIO_FILES: Readonly<Record<string, string>> = { 'diff/edited.txt': ORIGINAL, 'diff/review.txt': TWELVE_LINES, 'diff/numbers.txt': NUMBERS };

/** A CLI proposes, the user decides in the host's diff editor: the same stories on every host. */
export const DIFF_SCENARIOS: readonly Scenario[] = [{
    title: 'opens the proposal as an editable diff; the user types in it and Ctrl+S accepts exactly that text, the proposal\'s line endings kept; the CLI writes the file',
    async run({ window, client, workspace, whileProposalEdited }): Promise<void> {
        const file = path.join(workspace, 'diff', 'edited.txt');
        // Mixed line endings: the accepted text keeps the proposal's where the user did not type.
        client.openDiff(file, 'alpha\r\nBETA\ngamma\n');
        await window.waitForDiff('edited.txt');
        await window.typeAtEndOfProposal('typed by the user');
        await whileProposalEdited?.();
        await window.saveProposal();
        expect((await client.diffOutcome('diff', file)).result).to.deep.equal({ status: 'accepted', content: 'alpha\r\nBETA\ngamma\ntyped by the user' });
        await window.waitForNoDiff();
        expect(fs.readFileSync(file, 'utf8'), 'the CLI writes the file, not the IDE').to.equal(ORIGINAL);
    }
}, {
    title: 'a proposal for a new file: ✗ rejects it and nothing is created; ✓ accepts the next one unedited, exactly as proposed',
    async run({ window, client, workspace }): Promise<void> {
        const file = path.join(workspace, 'diff', 'created ü.ts');
        client.openDiff(file, 'a new file\n');
        await window.waitForDiff('created ü.ts');
        await window.rejectDiff();
        expect((await client.diffOutcome('diff', file)).result).to.deep.equal({ status: 'rejected' });
        await window.waitForNoDiff();
        expect(fs.existsSync(file), 'a rejected new file').to.equal(false);

        client.openDiff(file, 'export const created = true;\r\n');
        await window.waitForDiff('created ü.ts');
        await window.acceptDiff();
        expect((await client.diffOutcome('diff', file)).result).to.deep.equal({ status: 'accepted', content: 'export const created = true;\r\n' });
        await window.waitForNoDiff();
    }
}, {
    title: 'reviews a proposal change by change with the diff\'s own gutter: the first change reverted, the rest accepted as left',
    async run({ window, client, workspace }): Promise<void> {
        const file = path.join(workspace, 'diff', 'review.txt');
        client.openDiff(file, TWELVE_LINES.replace('line 2\n', 'line two\n').replace('line 11\n', 'line eleven\n'));
        await window.waitForDiff('review.txt');
        await window.revertFirstChange();
        await window.saveProposal();
        expect((await client.diffOutcome('diff', file)).result).to.deep.equal({ status: 'accepted', content: TWELVE_LINES.replace('line 11\n', 'line eleven\n') });
        await window.waitForNoDiff();
        expect(fs.readFileSync(file, 'utf8'), 'the CLI writes the file, not the IDE').to.equal(TWELVE_LINES);
    }
}, {
    title: 'three changes, the second rejected with the host\'s Reject Change (Ctrl+Shift+Backspace): the review moves on to the third; '
        + 'Ctrl+S answers exactly the proposal with that change put back',
    async run({ window, client, workspace }): Promise<void> {
        const file = path.join(workspace, 'diff', 'numbers.txt');
        client.openDiff(file, NUMBERS_PROPOSAL);
        await window.waitForDiff('numbers.txt');
        await until(async () => (await window.proposalText()).includes('EIGHT'), 'the proposal to show', 10000);
        await window.focusProposal();
        await window.goTo(5, 1);
        await window.page.keyboard.press('Control+Shift+Backspace');
        await until(async () => (await window.proposalText()).includes('\nfive\n'), 'the second change to be put back', 10000);
        // The cursor moves to the next change still undecided.
        await window.waitForCursorStatus(8, 1);
        expect(client.peekDiffOutcome('diff', file), 'a change decision answers nothing').to.equal(undefined);
        await window.saveProposal();
        expect((await client.diffOutcome('diff', file)).result).to.deep.equal({
            status: 'accepted', content: 'one\r\nTWO\r\nthree\r\nfour\r\nfive\nsix\r\nseven\r\nEIGHT\r\nnine\r\n'
        });
        await window.waitForNoDiff();
        expect(fs.readFileSync(file, 'utf8'), 'the CLI writes the file, not the IDE').to.equal(NUMBERS);
    }
}];
