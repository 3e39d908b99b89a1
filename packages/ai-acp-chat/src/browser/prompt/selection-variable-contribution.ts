import { inject, injectable } from '@theia/core/shared/inversify';
import { AIVariable, AIVariableContribution, AIVariableResolutionRequest, AIVariableResolver, AIVariableService, ResolvedAIContextVariable } from '@theia/ai-core';
import { codiconArray } from '@theia/core/lib/browser/widgets/widget';
import { nls } from '@theia/core/lib/common/nls';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';

export const SELECTION_VARIABLE: AIVariable = {
    id: 'theia-cli-companion-selection',
    name: 'selection',
    label: nls.localize('theia-cli-companion/acp-chat/selectionLabel', 'Selection'),
    description: nls.localize('theia-cli-companion/acp-chat/selectionDescription',
        'The lines selected in the active editor, with their file and line numbers (what a chat agent gets as the file\'s content at those lines)'),
    iconClasses: codiconArray('selection'),
    isContextVariable: true
};

/**
 * `#selection`: the active editor's selection as context, resolved when the message is sent. Its
 * resolved `arg` is the file's URI with the lines (`file:///…/a.ts#L3-5`), which agents understand.
 */
@injectable()
export class SelectionVariableContribution implements AIVariableContribution, AIVariableResolver {
    @inject(EditorManager) protected readonly editors: EditorManager;
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;

    registerVariables(service: AIVariableService): void {
        service.registerResolver(SELECTION_VARIABLE, this);
    }

    async canResolve(request: AIVariableResolutionRequest): Promise<number> {
        return request.variable.name === SELECTION_VARIABLE.name ? 1 : 0;
    }

    async resolve(request: AIVariableResolutionRequest): Promise<ResolvedAIContextVariable | undefined> {
        const editor = (this.editors.currentEditor ?? this.editors.activeEditor)?.editor;
        if (request.variable.name !== SELECTION_VARIABLE.name || !editor || editor.uri.scheme !== 'file') {
            return undefined;
        }
        const { start, end } = editor.selection;
        // A selection that ends at the start of a line does not take that line.
        const lastLine = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
        const text = editor.document.getText(editor.selection);
        if (!text) {
            return undefined;
        }
        const lines = lastLine === start.line ? `${start.line + 1}` : `${start.line + 1}-${lastLine + 1}`;
        return {
            variable: request.variable,
            arg: `${editor.uri.toString()}#L${lines}`,
            value: `${this.workspace.getRootPrefixedPath(editor.uri)}:${lines}`,
            contextValue: text
        };
    }
}
