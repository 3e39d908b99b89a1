import { enableBrowserDom } from '@theia-cli-companion/ai-cli-core/lib/browser/test';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { Container } from '@theia/core/shared/inversify';
import { Emitter } from '@theia/core/lib/common/event';
import { ILogger } from '@theia/core/lib/common/logger';
import URI from '@theia/core/lib/common/uri';
import { ChatService } from '@theia/ai-chat';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import type { ToolCallState } from '@theia-cli-companion/acp-client/lib/common';
import { AcpChatPreferences, ACP_FOLLOW_AGENT_PREF } from '../../common/acp-chat-preferences';
import { AcpToolCallEvents } from '../acp-tool-call-events';
import { FollowAgentContribution } from './follow-agent-contribution';

disableDom();

describe('FollowAgentContribution', () => {
    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    let toolCalls: Emitter<{ chatSessionId: string; toolCall: ToolCallState }>;
    let following: boolean;
    let opened: { uri: string; line: number; mode: unknown }[];

    const toolCall = (id: string, path: string, line?: number): ToolCallState =>
        ({ toolCallId: id, title: `Editing ${path}`, kind: 'edit', status: 'completed', content: [], locations: [{ path, line }] }) as unknown as ToolCallState;
    const report = async (chatSessionId: string, call: ToolCallState) => {
        toolCalls.fire({ chatSessionId, toolCall: call });
        await new Promise(resolve => setTimeout(resolve, 0));
    };

    beforeEach(() => {
        toolCalls = new Emitter();
        following = true;
        opened = [];
        const container = new Container();
        container.bind(AcpToolCallEvents).toConstantValue({ onToolCall: toolCalls.event } as unknown as AcpToolCallEvents);
        container.bind(AcpChatPreferences).toConstantValue({ get [ACP_FOLLOW_AGENT_PREF](): boolean { return following; } } as unknown as AcpChatPreferences);
        container.bind(ChatService).toConstantValue({ getActiveSession: () => ({ id: 'chat-1' }) } as unknown as ChatService);
        container.bind(EditorManager).toConstantValue({
            open: async (uri: URI, options: { mode: unknown; selection: { start: { line: number } } }) => {
                opened.push({ uri: uri.path.fsPath(), line: options.selection.start.line, mode: options.mode });
            }
        } as unknown as EditorManager);
        container.bind(WorkspaceService).toConstantValue({ tryGetRoots: () => [{ resource: new URI('file:///w') }] } as unknown as WorkspaceService);
        container.bind(ILogger).toConstantValue({ debug: () => undefined } as unknown as ILogger);
        container.bind(FollowAgentContribution).toSelf().inSingletonScope();
        container.get(FollowAgentContribution).onStart();
    });

    it('reveals the file and line a tool call of the chat in view is at, without activating the editor, once per place', async () => {
        await report('chat-1', toolCall('call-1', '/w/src/a.ts', 12));
        await report('chat-1', toolCall('call-1', '/w/src/a.ts', 12));
        await report('chat-1', toolCall('call-2', '/w/b.ts'));
        expect(opened).to.deep.equal([{ uri: '/w/src/a.ts', line: 11, mode: 'reveal' }, { uri: '/w/b.ts', line: 0, mode: 'reveal' }]);
    });

    it('shows nothing outside the workspace folders (also through "..", or a relative path), of another chat, or while off', async () => {
        await report('chat-1', toolCall('call-1', '/w/../etc/passwd'));
        await report('chat-1', toolCall('call-2', '/elsewhere/a.ts'));
        await report('chat-1', toolCall('call-3', 'w/a.ts'));
        await report('chat-2', toolCall('call-4', '/w/a.ts'));
        following = false;
        await report('chat-1', toolCall('call-5', '/w/a.ts'));
        expect(opened).to.deep.equal([]);
    });
});
