import { expect } from 'chai';
import * as path from 'path';
import { until } from '../support/processes';
import { updateTheiaSettings } from '../support/sandbox';
import { AcpChatTestbed } from '../support/acp-chat-testbed';
import { AcpChat } from '../hosts/acp-chat-view';
import { TheiaBackend } from '../hosts/theia-backend';
import { waitForWorkbench } from '../hosts/browser';
import { fakeAgent, fakeAgentCalls } from '../support/fake-acp-agent';

/**
 * An agent's own sessions (ACP session/list, paged) browsed from the command palette after a backend restart, one of
 * them reopened into a new chat that continues it (session/resume), with the scripted agent keeping its sessions.
 */
describe('ACP chat: the agent\'s own sessions, browsed and continued in a chat', function (): void {
    this.timeout(300000);
    let agentLog = '';
    const bed = AcpChatTestbed.install({ 'notes.md': '# Notes\n' }, sandbox => {
        agentLog = path.join(sandbox.tmp, 'fake-agent.jsonl');
        updateTheiaSettings(sandbox, {
            'ai-features.chat.defaultChatAgent': 'Fake',
            // One session per page: the list is read page by page.
            'aiCliCompanion.acp.agents': [fakeAgent('Fake', agentLog, { FAKE_AGENT_PAGE_SIZE: '1' })]
        });
    });

    const agentCalls = () => fakeAgentCalls(agentLog);
    const rows = () => bed.window.page.locator('.quick-input-list .monaco-list-row');

    it('lists the agent\'s sessions after a backend restart, page by page, and a picked one goes on in a new chat', async () => {
        const sessionIds: string[] = [];
        for (const text of ['echo the first session', 'echo the second session']) {
            await bed.chat.newChat();
            await bed.chat.finished(await bed.chat.send(text));
            sessionIds.push([...bed.backend.log.matchAll(/Chat \S+: Fake session (\S+) started/g)].at(-1)![1]);
        }
        await bed.backend.stop();
        bed.backend = new TheiaBackend(bed.sandbox, bed.workspace);
        await bed.backend.start();
        bed.chat = new AcpChat(bed.window, bed.backend);
        await bed.window.page.goto(bed.backend.url);
        await waitForWorkbench(bed.window.page);

        await bed.window.runCommand('Browse Agent Sessions');
        // Every agent the chat offers (the built-ins too): this one.
        await bed.window.pickQuickItem('Fake');
        // The first page: one session and the way to the next (the agent starts to list them).
        await rows().filter({ hasText: 'More sessions' }).waitFor({ state: 'visible', timeout: 30000 })
            .catch(async error => { throw new Error(`${error.message}; ${await bed.window.describeForFailure('acp-browse-sessions')}; ${bed.backend.log.slice(-2000)}`); });
        expect(await rows().allInnerTexts()).to.have.length(2);
        await rows().filter({ hasText: 'More sessions' }).click();
        await until(async () => (await rows().allInnerTexts()).length === 2 && !(await rows().allInnerTexts()).some(row => row.includes('More sessions')),
            'the second page', 20000);
        const titles = await rows().allInnerTexts();
        expect(titles.join('\n')).to.contain(`Session ${sessionIds[0]}`).and.contain(`Session ${sessionIds[1]}`).and.contain(bed.workspace);
        expect(agentCalls().filter(call => call.method === 'session/list').map(call => call.params.cursor ?? null)).to.deep.equal([null, '1']);
        await rows().filter({ hasText: `Session ${sessionIds[0]}` }).click();

        const callsBefore = agentCalls().length;
        const next = await bed.chat.send('echo and it goes on');
        await bed.chat.finished(next);
        expect(await bed.chat.text(next)).to.contain('echo and it goes on').and.not.contain('could not reopen');
        const calls = agentCalls().slice(callsBefore).filter(call => call.method.startsWith('session/'));
        expect(calls.map(call => `${call.method} ${call.params.sessionId ?? ''}`.trim())).to.deep.equal([
            `session/resume ${sessionIds[0]}`, `session/prompt ${sessionIds[0]}`
        ]);

        // Picked again from another chat: the chat that holds it is shown, no second chat drives the session.
        await bed.chat.newChat();
        await next.waitFor({ state: 'detached', timeout: 10000 });
        await bed.window.runCommand('Browse Agent Sessions');
        await bed.window.pickQuickItem('Fake');
        const wanted = rows().filter({ hasText: `Session ${sessionIds[0]}` });
        await until(async () => {
            if (await wanted.count()) {
                return true;
            }
            await rows().filter({ hasText: 'More sessions' }).click().catch(() => undefined);
            return false;
        }, `session ${sessionIds[0]} listed`, 20000, 250);
        const callsBefore2 = agentCalls().length;
        await wanted.click();
        // That chat's answer is on screen again (a new chat would be empty), and the agent was asked nothing.
        await next.waitFor({ state: 'visible', timeout: 10000 });
        expect(agentCalls().slice(callsBefore2).filter(call => call.method.startsWith('session/'))).to.deep.equal([]);
    });
});
