import type { Page } from 'playwright-core';

/** The editor area of a window: files opened, the cursor moved and text selected as a user does. */
export interface IdeEditorArea {
    /** Opens a workspace file with Quick Open (Ctrl+P) and waits until its editor has the focus. */
    openFile(relativePath: string): Promise<void>;
    /** Closes the editor whose tab shows `name`. */
    closeEditor(name: string): Promise<void>;
    /** Moves the cursor with Go to Line (Ctrl+G), 1-based, and waits until the status bar shows it there. */
    goTo(line: number, column: number): Promise<void>;
    /** Selects the `characters` to the right of the cursor with Shift+→, and waits until the status bar shows the cursor at their end. */
    selectRight(characters: number): Promise<void>;
    /** Waits until the editor's own status bar item shows this 1-based position. */
    waitForCursorStatus(line: number, column: number): Promise<void>;
}

/** The window's terminal panel: a CLI is started there and inherits its environment. */
export interface IdeTerminalPanel {
    /** Opens a new terminal (Ctrl+Shift+`) and waits until its shell runs commands. */
    openTerminal(): Promise<void>;
    /** The environment of the focused terminal's shell, as a CLI started there would see it. */
    terminalEnvironment(cwd?: string): Promise<Record<string, string>>;
    /** Types a command into the focused terminal and waits until the shell has run it. */
    run(command: string, timeoutMs?: number): Promise<void>;
}

/** The diff editor a CLI's proposal opens in: the user edits the proposed side, then accepts or rejects it. */
export interface IdeDiffView {
    /** Waits until the current editor is the diff of a proposal for the file `name`. */
    waitForDiff(name: string, timeoutMs?: number): Promise<void>;
    /** Waits until no diff editor is open. */
    waitForNoDiff(timeoutMs?: number): Promise<void>;
    /** Types `text` at the end of the proposed side, once the diff has been computed. */
    typeAtEndOfProposal(text: string): Promise<void>;
    /** Reverts the diff's first change with the arrow in its gutter. */
    revertFirstChange(): Promise<void>;
    /** Clicks into the proposed side, as a user does before pressing a key there. */
    focusProposal(): Promise<void>;
    /** The text the proposed side shows, one line per row. */
    proposalText(): Promise<string>;
    /** Saves the proposed side (Ctrl+S there): the companion takes that as accepting it. */
    saveProposal(): Promise<void>;
    /** Accepts the proposal with the diff's ✓ title action. */
    acceptDiff(): Promise<void>;
    /** Rejects the proposal with the diff's ✗ title action. */
    rejectDiff(): Promise<void>;
}

/** How a CLI's proposals reach the user, as the Set Review Pace… picker names the paces. */
export type ReviewPaceLabel = 'Open each diff' | 'Queue quietly' | 'Accept automatically';

/** Pending Changes and the review pace: a window's review beyond one diff. */
export interface IdeReviewWorkflow {
    /** Sets a CLI's pace from the status bar menu (Set Review Pace…), as a user does; resolves once the window paces by it. */
    setReviewPace(cli: string, pace: ReviewPaceLabel): Promise<void>;
    /** How many proposals the status bar counts as waiting (0 when it counts none). */
    pendingCount(): Promise<number>;
    /** Shows Pending Changes; resolves with the file names it lists as waiting and as applied without review. */
    pendingChanges(): Promise<{ waiting: string[]; applied: string[] }>;
    /** Accepts the waiting proposal for the file `name` with its ✓ in Pending Changes. */
    acceptPending(name: string): Promise<void>;
    /** Undoes the change applied without review to the file `name`, from Pending Changes. */
    undoApplied(name: string): Promise<void>;
    /** How many diff editors the window shows. */
    diffCount(): Promise<number>;
    /** The texts of the notifications the window shows. */
    notifications(): Promise<string[]>;
}

/** The command palette and the companion's status bar item. */
export interface IdeWorkbench {
    /** Runs a command from the command palette (F1), picking the row that shows `label`. */
    runCommand(label: string): Promise<void>;
    /** The text of the companion's status bar item. */
    statusText(): Promise<string>;
    /** Waits until the companion's status bar item matches `pattern`, and returns its text. */
    waitForStatus(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/**
 * One IDE window in a browser (a Theia window, a code-server window), driven the way a user drives it.
 * A scenario written against this runs on every host that implements it.
 */
export interface IdeWindow extends IdeEditorArea, IdeTerminalPanel, IdeDiffView, IdeWorkbench, IdeReviewWorkflow {
    /** Which host this is, for failure messages. */
    readonly host: string;
    readonly page: Page;
    /** A screenshot under test-results/ and what the window shows, to explain a failure in CI logs. */
    describeForFailure(what: string): Promise<string>;
    close(): Promise<void>;
}
