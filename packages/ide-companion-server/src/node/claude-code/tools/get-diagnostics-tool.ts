import { inject, injectable } from 'inversify';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClaudeGetDiagnosticsArgumentsSchema, ClaudeToolName, Diagnostic, FileDiagnostics } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { z } from 'zod';
import { FileUri } from '../../file-uri';
import { diagnosticsWithinRoots, fileUriInWorkspace } from '../../tools/ide-context-tools';
import { jsonResult } from '../../tools/mcp-tool-results';
import { WindowContext } from '../../window-context';
import { ClaudeTool } from '../claude-tool';

const SEVERITY_NAMES: Record<Diagnostic['severity'], string> = { error: 'Error', warning: 'Warning', information: 'Information', hint: 'Hint' };

/** The problems of one file of the workspace, or of all its files, in Claude's shape (0-based ranges, severity names). */
@injectable()
export class GetDiagnosticsTool implements ClaudeTool<typeof ClaudeGetDiagnosticsArgumentsSchema> {
    readonly name = ClaudeToolName.GET_DIAGNOSTICS;
    readonly description = 'Problems (errors, warnings) Theia knows, for one file (uri) or all; 0-based ranges.';
    readonly schema = ClaudeGetDiagnosticsArgumentsSchema;

    @inject(WindowContext)
    protected readonly windowContext: WindowContext;

    async run({ uri }: z.infer<typeof ClaudeGetDiagnosticsArgumentsSchema>): Promise<CallToolResult> {
        const roots = this.windowContext.roots;
        const fileUri = uri ? await fileUriInWorkspace(uri.startsWith('file:') ? FileUri.fsPath(uri) : uri, roots) : undefined;
        const files = fileUri ? await this.windowContext.window.getDiagnostics(fileUri)
            : await diagnosticsWithinRoots(await this.windowContext.window.getDiagnostics(undefined), roots);
        return jsonResult(files.map(toClaudeDiagnostics));
    }
}

function toClaudeDiagnostics(file: FileDiagnostics): unknown {
    return {
        uri: FileUri.create(file.filePath).toString(),
        diagnostics: file.diagnostics.map(diagnostic => ({
            message: diagnostic.message,
            severity: SEVERITY_NAMES[diagnostic.severity],
            range: {
                start: { line: diagnostic.range.start.line - 1, character: diagnostic.range.start.character - 1 },
                end: { line: diagnostic.range.end.line - 1, character: diagnostic.range.end.character - 1 }
            },
            ...(diagnostic.source ? { source: diagnostic.source } : {}),
            ...(diagnostic.code ? { code: diagnostic.code } : {})
        }))
    };
}
