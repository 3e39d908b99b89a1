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
import { AcpChatBackend } from '../../common/acp-chat-protocol';
import { AcpToolCallEvents } from '../acp-tool-call-events';
import { FollowAgentContribution } from './follow-agent-contribution';

disableDom();

describe('FollowAgentContribution', () => {
    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    let toolCalls: Emitter<{ chatSessionId: string; toolCall: ToolCallState }>;
    let following: boolean;
    let opened: { uri: string; line: number; mode: unknown }[];
    /** What the backend was asked (chat, path), and where it says paths land: as written, unless listed (undefined: outside). */
    let asked: string[][];
    let landings: Map<string, string | undefined>;

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
        asked = [];
        landings = new Map();
        const container = new Container();
        container.bind(AcpChatBackend).toConstantValue({
            landingInWorkspace: async (chatSessionId: string, filePath: string) => {
                asked.push([chatSessionId, filePath]);
                return landings.has(filePath) ? landings.get(filePath) : filePath;
            }
        } as unknown as AcpChatBackend);
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

    it('asks the backend where a path lands and shows nothing that lands outside, however it is spelled', async () => {
        // The repository has `up -> ../../../..`: the path is inside /w as written, the file is the user's key.
        landings.set('/w/up/home/u/.ssh/id_rsa', undefined);
        landings.set('/w/docs/a.md', '/w/src/docs/a.md');
        await report('chat-1', toolCall('call-1', '/w/up/home/u/.ssh/id_rsa', 1));
        await report('chat-1', toolCall('call-2', '/w/docs/a.md', 2));
        expect(asked).to.deep.equal([['chat-1', '/w/up/home/u/.ssh/id_rsa'], ['chat-1', '/w/docs/a.md']]);
        expect(opened, 'a link that stays inside is followed').to.deep.equal([{ uri: '/w/docs/a.md', line: 1, mode: 'reveal' }]);
    });
});
