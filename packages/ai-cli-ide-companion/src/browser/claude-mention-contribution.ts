import { inject, injectable } from '@theia/core/shared/inversify';
import { CommandContribution, CommandRegistry, CommandService } from '@theia/core/lib/common/command';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import { UriAwareCommandHandler } from '@theia/core/lib/common/uri-command-handler';
import { SelectionService } from '@theia/core/lib/common/selection-service';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { IdeCompanionBackend } from '@theia-cli-companion/ai-cli-core/lib/common';
import { CompanionCommands } from './companion-commands';
import { CompanionOutput } from '@theia-cli-companion/ai-cli-core/lib/browser';

/**
 * "CLI Companion: Send Selection to Claude Code": from an editor, the file and the selected lines;
 * from the file explorer, the selected files. Claude Code puts `@file#La-b` into its prompt.
 */
@injectable()
export class ClaudeMentionContribution implements CommandContribution {
    @inject(IdeCompanionBackend) protected readonly backend: IdeCompanionBackend;
    @inject(EditorManager) protected readonly editors: EditorManager;
    @inject(SelectionService) protected readonly selection: SelectionService;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(CommandService) protected readonly commands: CommandService;
    @inject(CompanionOutput) protected readonly output: CompanionOutput;

    registerCommands(registry: CommandRegistry): void {
        registry.registerCommand(CompanionCommands.SEND_TO_CLAUDE, UriAwareCommandHandler.MultiSelect(this.selection, {
            // From the explorer the handler gets the selected files; from an editor (or the palette), the editor's.
            execute: (uris: URI[]) => this.send(uris),
            isEnabled: (uris: URI[]) => uris.some(uri => uri.scheme === 'file')
        }));
    }

    async send(uris: URI[]): Promise<number> {
        // The explorer's selection is a list of its nodes: whole files. An editor's is one text selection.
        const fromExplorer = Array.isArray(this.selection.selection);
        const editor = fromExplorer ? undefined : this.editors.currentEditor?.editor;
        const mentions = uris.filter(uri => uri.scheme === 'file').map(uri => {
            if (editor && editor.uri.isEqual(uri)) {
                const { start, end } = editor.selection;
                const empty = start.line === end.line && start.character === end.character;
                // A selection ending at the start of a line does not take that line.
                const lastLine = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
                return empty ? { fileUri: uri.toString() } : { fileUri: uri.toString(), lineStart: start.line, lineEnd: lastLine };
            }
            return { fileUri: uri.toString() };
        });
        let reached = 0;
        for (const mention of mentions) {
            reached = await this.backend.sendToClaude(mention);
        }
        if (reached === 0) {
            const run = CompanionCommands.RUN.claude.label!;
            const answer = await this.messages.info(nls.localize('theia-cli-companion/ide-companion/noClaudeSession',
                'No Claude Code session is connected to this window. Start Claude Code in one of its terminals first.'), run);
            if (answer === run) {
                await this.commands.executeCommand(CompanionCommands.RUN.claude.id);
            }
        }
        return reached;
    }
}
