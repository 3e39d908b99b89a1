import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Scenario } from './scenario';
import { until } from '../support/processes';

const NUMBERS = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
const PROPOSAL = 'one\nTWO\nthree\nfour\nFIVE\nsix\nseven\neight\nnine\n';

/** The files the review scenarios propose changes to: each host's spec puts them into its workspace. */
export const REVIEW_SCENARIO_FILES: Readonly<Record<string, string>> = {
    'review/numbers.txt': NUMBERS, 'review/notes.txt': '', 'review/auto.txt': 'one\r\ntwo\r\n'
};

/** Beyond one diff: the review pace, Pending Changes and Undo, the same stories on every host, with Gemini CLI's pace at its default after each. */
export const REVIEW_SCENARIOS: readonly Scenario[] = [{
    title: 'queue quietly, set from the status bar menu: a proposal arriving while the user types opens nothing and takes nothing; '
        + 'Pending Changes lists it and its ✓ answers the CLI',
    async run({ window, client, workspace, whileQueued }): Promise<void> {
        await window.setReviewPace('Gemini CLI', 'Queue quietly');
        try {
            await window.openFile('review/notes.txt');
            await window.page.keyboard.type('typed before the proposal, ');
            const file = path.join(workspace, 'review', 'numbers.txt');
            client.openDiff(file, PROPOSAL);
            await until(async () => await window.pendingCount() === 1, 'the status bar to count the proposal', 20000);
            await window.page.keyboard.type('typed after it.');
            const notes = path.join(workspace, 'review', 'notes.txt');
            // Both hosts auto-save by default: every key went to the file the user was typing in.
            await until(() => fs.readFileSync(notes, 'utf8') === 'typed before the proposal, typed after it.', 'auto-save to write every typed key, in order', 15000)
                .catch(error => { throw new Error(`${error.message}: ${JSON.stringify(fs.readFileSync(notes, 'utf8'))}`); });
            expect(await window.diffCount(), 'no diff editor opened').to.equal(0);
            expect(await window.page.evaluate(() => !!document.activeElement?.closest('.monaco-editor')), 'the keyboard stays in the editor').to.equal(true);
            expect(await window.notifications(), 'no notification unless asked for').to.deep.equal([]);

            let listed: string[] = [];
            await until(async () => (listed = (await window.pendingChanges()).waiting).length > 0, 'Pending Changes to list the proposal', 10000);
            expect(listed).to.deep.equal(['numbers.txt']);
            await whileQueued?.();
            await window.acceptPending('numbers.txt');
            expect((await client.diffOutcome('diff', file)).result).to.deep.equal({ status: 'accepted', content: PROPOSAL });
            await until(async () => await window.pendingCount() === 0, 'the status bar to count nothing', 10000);
        } finally {
            await window.setReviewPace('Gemini CLI', 'Open each diff');
        }
    }
}, {
    title: 'accept automatically: the CLI is answered at once as proposed, nothing opens, and Undo in Pending Changes after the CLI wrote puts back the file\'s bytes',
    async run({ window, client, workspace }): Promise<void> {
        await window.setReviewPace('Gemini CLI', 'Accept automatically');
        try {
            const file = path.join(workspace, 'review', 'auto.txt');
            client.openDiff(file, 'one\r\nTWO\r\n');
            expect((await client.diffOutcome('diff', file)).result).to.deep.equal({ status: 'accepted', content: 'one\r\nTWO\r\n' });
            expect(await window.diffCount(), 'no diff editor opened').to.equal(0);
            // Gemini CLI writes the accepted text itself.
            fs.writeFileSync(file, 'one\r\nTWO\r\n');
            await until(async () => (await window.pendingChanges()).applied.includes('auto.txt'), 'Pending Changes to list the applied change', 10000);
            await window.undoApplied('auto.txt');
            await until(() => fs.readFileSync(file, 'utf8') === 'one\r\ntwo\r\n', 'Undo to put back the bytes from before', 10000)
                .catch(error => { throw new Error(`${error.message}: ${JSON.stringify(fs.readFileSync(file, 'utf8'))}`); });
            await until(async () => (await window.pendingChanges()).applied.length === 0, 'the undone change to leave Pending Changes', 10000);
        } finally {
            await window.setReviewPace('Gemini CLI', 'Open each diff');
        }
    }
}];
