import * as vscode from 'vscode';

/**
 * The variables that point a CLI started in this window's terminals at this window's server, through
 * the host's environment variable collection: new terminals get them, and the host offers to
 * relaunch open ones when they change. Not persisted: a new window has a new server.
 */
export class TerminalEnvironment {
    protected applied = '';

    constructor(protected readonly collection: vscode.GlobalEnvironmentVariableCollection) {
        collection.persistent = false;
        collection.description = vscode.l10n.t('Points Gemini CLI, Qwen Code and Claude Code at this window');
    }

    apply(variables: Readonly<Record<string, string>>): void {
        const key = JSON.stringify(Object.entries(variables).sort());
        if (key === this.applied) {
            return;
        }
        this.applied = key;
        this.collection.clear();
        for (const [name, value] of Object.entries(variables)) {
            this.collection.replace(name, value);
        }
    }

    clear(): void {
        this.applied = '';
        this.collection.clear();
    }
}
