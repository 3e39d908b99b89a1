import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { never, until } from './processes';
import { TheiaWindow } from '../hosts/theia-window';

/** A file as it is on disk when a client proposes to change it. */
export const ORIGINAL = 'one\ntwo\nthree\nfour\nfive\nsix\n';
/**
 * What the client proposes: two separate changes. The first spans two lines: Monaco's gutter
 * shows the revert arrow of a one-line change only in its "…" menu.
 */
export const PROPOSED = 'ONE\nTWO\nthree\nfour\nfive\nSIX\n';
/** What the user leaves in the proposal: "seven" typed at its end, the first change reverted from the gutter. */
export const REVIEWED = 'one\ntwo\nthree\nfour\nfive\nSIX\nseven';
/** A plain file open beside the review: its save shows that the implicit save really ran. */
export const CONTROL_FILE = 'control.txt';

/** One way Theia saves without the user pressing Ctrl+S in the review. */
export interface ImplicitSave {
    readonly name: string;
    /** The user's settings for it (undefined: the app's default). */
    readonly settings: Record<string, unknown>;
    /** What the user does once both the proposal and the control file are edited; `controlSaved` resolves when the control file is on disk. */
    perform(window: TheiaWindow, controlSaved: () => Promise<void>): Promise<void>;
}

async function moveFocusToTerminal(window: TheiaWindow, controlSaved: () => Promise<void>): Promise<void> {
    await window.focusTerminal();
    await controlSaved();
}

/** Every setting a round may change, at the app's default: each round names its own on top. */
const DEFAULTS = {
    'files.autoSave': undefined, 'files.autoSaveDelay': undefined,
    'editor.formatOnSave': undefined, 'files.trimTrailingWhitespace': undefined, 'files.insertFinalNewline': undefined
};

async function saveAll(window: TheiaWindow, controlSaved: () => Promise<void>): Promise<void> {
    await window.focusTerminal();
    await window.saveAllFromMenu();
    await controlSaved();
}

export const IMPLICIT_SAVES: readonly ImplicitSave[] = [{
    name: 'auto-save after its default delay (the browser app\'s default: afterDelay, 1000 ms)',
    settings: DEFAULTS,
    perform: moveFocusToTerminal
}, {
    name: 'auto-save after 100 ms',
    settings: { ...DEFAULTS, 'files.autoSave': 'afterDelay', 'files.autoSaveDelay': 100 },
    perform: moveFocusToTerminal
}, {
    name: 'auto-save on focus change (onFocusChange)',
    settings: { ...DEFAULTS, 'files.autoSave': 'onFocusChange' },
    perform: moveFocusToTerminal
}, {
    name: 'auto-save when the window loses the focus (onWindowChange)',
    settings: { ...DEFAULTS, 'files.autoSave': 'onWindowChange' },
    perform: async (window, controlSaved) => {
        await window.focusTerminal();
        await window.leaveWindowAndReturn(controlSaved);
    }
}, {
    // Auto-save off here only so that the control file shows that Save All, and nothing else, saved.
    name: 'File → Save All',
    settings: { ...DEFAULTS, 'files.autoSave': 'off' },
    perform: saveAll
}, {
    // Save participants would change the proposal: the reviewed text has no final newline.
    name: 'File → Save All with format-on-save, trim trailing whitespace and insert final newline on',
    settings: { ...DEFAULTS, 'files.autoSave': 'off', 'editor.formatOnSave': true, 'files.trimTrailingWhitespace': true, 'files.insertFinalNewline': true },
    perform: saveAll
}];

/** Rejects the reviews a failed round left open, so that the next round starts with none. */
export async function closeLeftoverDiffs(window: TheiaWindow): Promise<void> {
    if (await window.page.locator('#theia-main-content-panel .monaco-diff-editor').count()) {
        await window.runCommand('Close All Diffs');
    }
}

let controlEdits = 0;

/**
 * Drives one implicit save over the proposal a client has just opened in `window`, as a user
 * fixing it would: reverts its first change with the gutter's arrow, types at its end, edits the
 * control file too, then does what makes Theia save. Once the control file is on disk, the proposal
 * must stay pending for 5 s (`answered` names any answer the client got) and show the user's text;
 * Ctrl+S in the review then accepts it. The caller checks what the client received.
 */
export async function editThroughImplicitSave(window: TheiaWindow, workspace: string, save: ImplicitSave,
    answered: () => string | undefined | false | Promise<string | undefined | false>): Promise<void> {
    // The gutter first, while the diff is the one computed at open; then the typing.
    await window.diff.focusEndOfProposal();
    await window.diff.revertFirstChangeFromGutter();
    await until(async () => (await window.diff.proposalText()).startsWith('one\ntwo\n'), 'the first change reverted in the proposal', 10000);
    await window.diff.focusEndOfProposal();
    await window.page.keyboard.type('seven');
    // Word completion may offer "seven": the next key must not take it.
    await window.page.keyboard.press('Escape');
    await until(async () => await window.diff.proposalText() === REVIEWED, 'the proposal to show the user\'s edits', 10000)
        .catch(async error => { throw new Error(`${error.message}: ${JSON.stringify(await window.diff.proposalText())}`); });

    const control = path.join(workspace, CONTROL_FILE);
    const marker = `edited ${++controlEdits}`;
    await window.openFile(CONTROL_FILE);
    await window.page.keyboard.press('Control+End');
    await window.page.keyboard.type(marker);
    const controlSaved = async () => {
        await until(() => fs.readFileSync(control, 'utf8').includes(marker), `${CONTROL_FILE} saved by ${save.name}`, 20000);
    };
    await save.perform(window, controlSaved);

    await never(answered, `${save.name} must leave the proposal pending`, 5000);
    await window.diff.focusProposal();
    expect(await window.diff.proposalText(), 'the proposal keeps the user\'s text').to.equal(REVIEWED);
    await window.page.keyboard.press('Control+s');
}

/** The backend's word that a diff for `file` was settled, if it logged one. */
export function settledInBackend(log: string, file: string): string | undefined {
    const line = log.split('\n').find(candidate => candidate.includes(` for ${file} `) && /Diff \S+ for .* (accepted|rejected)/.test(candidate));
    return line && `the backend logged: ${line.trim()}`;
}
