import { MAX_OPEN_FILES, MAX_SELECTED_TEXT_LENGTH } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';

/** What the frontend knows about one open file editor; URIs, not paths: the backend knows its OS. */
export interface OpenEditorState {
    readonly uri: string;
    /** Unix time in milliseconds when this file was last focused. */
    readonly timestamp: number;
    readonly isActive?: boolean;
    /** 1-based. */
    readonly cursor?: { line: number; character: number };
    readonly selectedText?: string;
    /** 0-based, as the editor reports it (Claude Code's `selection_changed` wants it so). */
    readonly selection?: EditorSelection;
}

export interface EditorSelection {
    readonly start: { line: number; character: number };
    readonly end: { line: number; character: number };
}

/** A window's editor state as sent from the frontend to its companion server. */
export interface WindowEditorState {
    readonly openFiles: readonly OpenEditorState[];
    readonly isTrusted: boolean;
}

export interface ActiveEditorDetails {
    /** 1-based. */
    readonly cursor: { line: number; character: number };
    readonly selectedText: string;
    /** 0-based. */
    readonly selection?: EditorSelection;
}

/**
 * Most-recently-focused list of file editors of one window. Pure bookkeeping, no Theia services, so
 * its rules (ordering, caps, truncation, rename/close) are tested without a browser.
 */
export class OpenEditorsModel {
    /** Most recently focused first. */
    protected entries: { uri: string; timestamp: number }[] = [];
    protected activeUri?: string;
    protected activeDetails?: ActiveEditorDetails;

    constructor(protected readonly now: () => number = Date.now) { }

    /** A file editor took focus (or is the current editor when tracking starts). */
    focus(uri: string): void {
        // Timestamps strictly increase so the CLIs' sort by timestamp equals our order.
        const latest = this.entries[0]?.timestamp ?? 0;
        this.entries = [{ uri, timestamp: Math.max(this.now(), latest + 1) }, ...this.entries.filter(entry => entry.uri !== uri)];
        this.activeUri = uri;
        this.activeDetails = undefined;
    }

    /** Focus moved to something that is not a file editor (terminal, settings, untitled, diff). */
    blur(): void {
        this.activeUri = undefined;
        this.activeDetails = undefined;
    }

    /** Opened in the background (restored layout): listed, but after everything focused. */
    open(uri: string, timestamp = 0): void {
        if (!this.entries.some(entry => entry.uri === uri)) {
            this.entries.push({ uri, timestamp });
        }
    }

    close(uri: string): void {
        this.entries = this.entries.filter(entry => entry.uri !== uri);
        if (this.activeUri === uri) {
            this.blur();
        }
    }

    /** A file or a folder was deleted: everything at or below it leaves the list. */
    delete(uri: string): void {
        for (const entry of [...this.entries]) {
            if (isEqualOrChild(entry.uri, uri)) {
                this.close(entry.uri);
            }
        }
    }

    /** A file or folder moved: entries at or below it take the new name and keep their place. */
    rename(from: string, to: string): void {
        this.entries = this.entries.map(entry => isEqualOrChild(entry.uri, from) ? { ...entry, uri: to + entry.uri.slice(from.length) } : entry);
        if (this.activeUri && isEqualOrChild(this.activeUri, from)) {
            this.activeUri = to + this.activeUri.slice(from.length);
        }
    }

    setActiveDetails(uri: string, details: ActiveEditorDetails): void {
        if (uri === this.activeUri) {
            this.activeDetails = details;
        }
    }

    /** The state to send: at most 10 files, cursor and selection only on the active one. */
    snapshot(isTrusted: boolean): WindowEditorState {
        const openFiles = this.entries.slice(0, MAX_OPEN_FILES).map(entry => {
            if (entry.uri !== this.activeUri) {
                return { uri: entry.uri, timestamp: entry.timestamp };
            }
            const details = this.activeDetails;
            return {
                uri: entry.uri, timestamp: entry.timestamp, isActive: true,
                ...(details ? { cursor: details.cursor } : {}),
                ...(details?.selectedText ? { selectedText: truncateSelection(details.selectedText) } : {}),
                ...(details?.selection ? { selection: details.selection } : {})
            };
        });
        return { openFiles, isTrusted };
    }
}

/** Truncates to the clients' limit without splitting a surrogate pair. */
export function truncateSelection(text: string): string {
    if (text.length <= MAX_SELECTED_TEXT_LENGTH) {
        return text;
    }
    let end = MAX_SELECTED_TEXT_LENGTH;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) {
        end--;
    }
    return text.slice(0, end);
}

function isEqualOrChild(uri: string, parent: string): boolean {
    return uri === parent || uri.startsWith(parent.endsWith('/') ? parent : parent + '/');
}
