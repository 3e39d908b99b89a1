import { URI } from 'vscode-uri';

/** `file://` URIs as both hosts' editors write them (Theia's and VS Code's URIs are vscode-uri's). */
export namespace FileUri {
    export function create(fsPath: string): URI {
        return URI.file(fsPath);
    }
    export function fsPath(uri: string): string {
        return URI.parse(uri).fsPath;
    }
}
