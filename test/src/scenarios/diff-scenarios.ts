import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Scenario } from './scenario';

const ORIGINAL = 'alpha\nbeta\ngamma\n';
const TWELVE_LINES = Array.from({ length: 12 }, (_, line) => `line ${line + 1}\n`).join('');

/** The files the diff scenarios propose changes to: each host's spec puts them into its workspace. */
export const DIFF_SCENARIO_FILES: Readonly<Record<string, string>> = { 'diff/edited.txt': ORIGINAL, 'diff/review.txt': TWELVE_LINES };

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
}];
