import { enableBrowserDom } from '@theia-cli-companion/ai-cli-core/lib/browser/test';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { Container } from '@theia/core/shared/inversify';
import { Event } from '@theia/core/lib/common/event';
import { ILogger } from '@theia/core/lib/common/logger';
import URI from '@theia/core/lib/common/uri';
import { defaultMsgPack } from '@theia/core/lib/common/message-rpc/rpc-message-encoder';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { applyStreamJsonLine, emptyTranscript, parseStreamJsonLine, toolCallOf } from '@theia-cli-companion/gemini-headless-protocol/lib/common';
import { AgentTaskBackend, AgentTaskSummary } from '../common/agent-task-protocol';
import { AgentTaskClientImpl } from './agent-task-client-impl';
import { AgentTaskService } from './agent-task-service';

disableDom();

/** Tool ids an agent may choose that name what every plain object inherits. */
const INHERITED_NAMES = ['__proto__', 'constructor', 'toString'];
const toolUse = (id: string) => parseStreamJsonLine(JSON.stringify({ type: 'tool_use', timestamp: 't', tool_name: `tool ${id}`, tool_id: id, parameters: {} }));
const toolResult = (id: string) => parseStreamJsonLine(JSON.stringify({ type: 'tool_result', timestamp: 't', tool_id: id, status: 'success', output: `output of ${id}` }));

/** How a value reaches the browser: Theia's RPC encodes with msgpackr (which renames a `__proto__` key); the task store with JSON. */
const WIRES: [string, <T>(value: T) => T][] = [
    ['Theia\'s RPC encoding', value => defaultMsgPack.decode(defaultMsgPack.encode(value))],
    ['JSON', value => JSON.parse(JSON.stringify(value))]
];

describe('AgentTaskService: transcripts that came from the backend', () => {

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    for (const [wireName, wire] of WIRES) {
        it(`reads tool calls named __proto__, constructor and toString after ${wireName}, and applies the lines that follow`, async () => {
            const prototypeBefore = Object.getOwnPropertyDescriptors(Object.prototype);
            const id = '6f1c3c2e-0000-4000-8000-000000000001';
            const summary: AgentTaskSummary = {
                id, request: { prompt: 'look around', cwd: '/ws', approvalMode: 'default' }, startedAt: 1, state: 'running', changes: { state: 'pending' }
            };
            // What the backend had when the window fetched the task: the three tool_use lines.
            const transcript = emptyTranscript();
            INHERITED_NAMES.forEach(name => applyStreamJsonLine(transcript, toolUse(name)));
            const toldRoots: string[][] = [];
            const backend = {
                setWorkspaceRoots: async (roots: string[]) => { toldRoots.push(roots); },
                list: async () => wire([summary]),
                get: async (taskId: string) => taskId === id ? wire({ ...summary, transcript }) : undefined
            } as unknown as AgentTaskBackend;
            const workspace = { ready: Promise.resolve(), tryGetRoots: () => [{ resource: URI.fromFilePath('/ws') }], onWorkspaceChanged: Event.None };
            const container = new Container();
            container.bind(AgentTaskBackend).toConstantValue(backend);
            container.bind(WorkspaceService).toConstantValue(workspace as unknown as WorkspaceService);
            container.bind(ILogger).toConstantValue({ warn: () => undefined } as unknown as ILogger);
            container.bind(AgentTaskClientImpl).toSelf().inSingletonScope();
            container.bind(AgentTaskService).toSelf().inSingletonScope();
            const service = container.get(AgentTaskService);
            await service.refresh();
            expect(toldRoots.at(-1), 'the window told the backend its roots').to.deep.equal(['/ws']);

            // The results stream in afterwards, each line through the RPC as well.
            INHERITED_NAMES.forEach((name, index) => service.onTaskLine(id, INHERITED_NAMES.length + index, wire(toolResult(name))));
            const shown = service.find(id)!.transcript;
            expect(shown.entries).to.deep.equal(INHERITED_NAMES.map(toolId => ({ kind: 'tool', toolId })));
            for (const name of INHERITED_NAMES) {
                expect(toolCallOf(shown, name), name).to.deep.include({ toolId: name, name: `tool ${name}`, status: 'success', output: `output of ${name}` });
            }
            expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
            expect(Object.getOwnPropertyDescriptors(Object.prototype)).to.deep.equal(prototypeBefore);
            service.dispose();
        });
    }
});
