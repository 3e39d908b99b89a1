import * as vscode from 'vscode';

/** The right side of a review: the proposal, editable, kept in memory until it is decided. */
export const PROPOSAL_SCHEME = 'ai-cli-proposal';

/**
 * An in-memory file system for the proposals under review, so that the right side of the diff is a
 * document the user can edit. Saving it (Ctrl+S is bound to Accept instead; auto-save; Save All) only
 * updates this copy: nothing reaches the user's file until the proposal is accepted, and then the CLI
 * writes it. Only proposals the review created exist here; nothing can be created, moved or deleted.
 */
export class ProposalFileSystem implements vscode.FileSystemProvider {
    protected readonly files = new Map<string, { content: Uint8Array; ctime: number; mtime: number }>();
    protected readonly onDidChangeFileEmitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
    readonly onDidChangeFile = this.onDidChangeFileEmitter.event;
    protected readonly onDidSaveEmitter = new vscode.EventEmitter<vscode.Uri>();
    /** The user (or auto-save) saved a proposal's document: only this copy changed. */
    readonly onDidSave = this.onDidSaveEmitter.event;

    /** Creates or replaces a proposal's document. */
    set(uri: vscode.Uri, content: Uint8Array): void {
        const now = Date.now();
        const existed = this.files.has(uri.toString());
        this.files.set(uri.toString(), { content, ctime: now, mtime: now });
        this.onDidChangeFileEmitter.fire([{ type: existed ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
    }

    forget(uri: vscode.Uri): void {
        if (this.files.delete(uri.toString())) {
            this.onDidChangeFileEmitter.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
        }
    }

    watch(): vscode.Disposable {
        return new vscode.Disposable(() => undefined);
    }

    stat(uri: vscode.Uri): vscode.FileStat {
        if (uri.path === '/') {
            return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
        }
        const file = this.lookup(uri);
        return { type: vscode.FileType.File, ctime: file.ctime, mtime: file.mtime, size: file.content.byteLength };
    }

    readDirectory(): [string, vscode.FileType][] {
        return [];
    }

    createDirectory(uri: vscode.Uri): void {
        throw vscode.FileSystemError.NoPermissions(uri);
    }

    readFile(uri: vscode.Uri): Uint8Array {
        return this.lookup(uri).content;
    }

    writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
        const file = this.files.get(uri.toString());
        if (!file) {
            // Only the review creates proposals: "Save As" into this scheme gets nowhere.
            throw options.create ? vscode.FileSystemError.NoPermissions(uri) : vscode.FileSystemError.FileNotFound(uri);
        }
        file.content = content;
        file.mtime = Date.now();
        this.onDidChangeFileEmitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
        this.onDidSaveEmitter.fire(uri);
    }

    delete(uri: vscode.Uri): void {
        throw vscode.FileSystemError.NoPermissions(uri);
    }

    rename(uri: vscode.Uri): void {
        throw vscode.FileSystemError.NoPermissions(uri);
    }

    dispose(): void {
        this.files.clear();
        this.onDidChangeFileEmitter.dispose();
        this.onDidSaveEmitter.dispose();
    }

    protected lookup(uri: vscode.Uri): { content: Uint8Array; ctime: number; mtime: number } {
        const file = this.files.get(uri.toString());
        if (!file) {
            throw vscode.FileSystemError.FileNotFound(uri);
        }
        return file;
    }
}
