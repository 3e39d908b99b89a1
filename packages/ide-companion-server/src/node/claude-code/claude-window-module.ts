import { ContainerModule } from 'inversify';
import { bindContributions } from '../contributions';
import { McpEndpoint } from '../mcp-endpoint';
import { McpToolContribution, registerContributedTools } from '../tools/mcp-tool-contribution';
import { contributedToolsOf } from '../window-server-module';
import { WindowContext } from '../window-context';
import { WindowCredentials } from '../guards/window-credentials';
import { ClaudeIdeTools } from './claude-ide-tools';
import { ClaudeTool } from './claude-tool';
import { ClaudeWebSocketServer } from './claude-websocket-server';
import { CheckDocumentDirtyTool } from './tools/check-document-dirty-tool';
import { CloseAllDiffTabsTool } from './tools/close-all-diff-tabs-tool';
import { CloseTabTool } from './tools/close-tab-tool';
import { GetCurrentSelectionTool } from './tools/get-current-selection-tool';
import { GetDiagnosticsTool } from './tools/get-diagnostics-tool';
import { GetLatestSelectionTool } from './tools/get-latest-selection-tool';
import { GetOpenEditorsTool } from './tools/get-open-editors-tool';
import { GetWorkspaceFoldersTool } from './tools/get-workspace-folders-tool';
import { OpenDiffTool } from './tools/open-diff-tool';
import { OpenFileTool } from './tools/open-file-tool';
import { SaveDocumentTool } from './tools/save-document-tool';

/** Claude Code's tools, in the order its sessions list them. */
const CLAUDE_TOOLS = [
    OpenDiffTool, CloseTabTool, CloseAllDiffTabsTool, GetDiagnosticsTool, GetOpenEditorsTool, GetWorkspaceFoldersTool,
    GetCurrentSelectionTool, GetLatestSelectionTool, CheckDocumentDirtyTool, SaveDocumentTool, OpenFileTool
];

/** What Claude Code needs in each window's graph: its WebSocket endpoint and its own tools. */
export const claudeWindowModule = new ContainerModule(bind => {
    bindContributions(bind, ClaudeTool);
    for (const tool of CLAUDE_TOOLS) {
        bind(ClaudeTool).to(tool).inSingletonScope();
    }
    bind(ClaudeIdeTools).toSelf().inSingletonScope();
    bind(McpToolContribution).toService(ClaudeIdeTools);
    bind(ClaudeWebSocketServer).toDynamicValue(context => {
        const credentials = context.container.get(WindowCredentials);
        return new ClaudeWebSocketServer({
            authTokens: () => credentials.credentialsFor('claude-code-websocket'), logger: context.container.get(WindowContext).log,
            configureSession: registerContributedTools(contributedToolsOf(context), 'claude-code-websocket')
        });
    }).inSingletonScope();
    bind(McpEndpoint).toService(ClaudeWebSocketServer);
});
