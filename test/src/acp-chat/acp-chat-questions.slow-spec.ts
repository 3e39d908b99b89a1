import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { until } from '../support/processes';
import { updateTheiaSettings } from '../support/sandbox';
import { AcpChatTestbed } from '../support/acp-chat-testbed';
import { fakeAgent } from '../support/fake-acp-agent';

/**
 * An agent's questions (ACP elicitation) in the chat of a real browser, with the scripted agent: a form checked
 * before it is sent, declined, withdrawn by the agent, malformed (refused, said in the chat), and a URL that opens
 * only when the user clicks.
 */
describe('ACP chat: the agent\'s questions as forms in the chat', function (): void {
    this.timeout(300000);
    let agentLog = '';
    const bed = AcpChatTestbed.install({ 'notes.md': '# Notes\n' }, sandbox => {
        agentLog = path.join(sandbox.tmp, 'fake-agent.jsonl');
        updateTheiaSettings(sandbox, {
            'ai-features.chat.defaultChatAgent': 'Fake',
            'aiCliCompanion.acp.agents': [fakeAgent('Fake', agentLog)]
        });
    });

    beforeEach(() => bed.chat.newChat());

    const form = (response: Awaited<ReturnType<typeof bed.chat.send>>) => response.locator('form.acp-question');
    const field = (response: Awaited<ReturnType<typeof bed.chat.send>>, key: string) => form(response).locator(`[data-field="${key}"]`);

    it('asks a form in the turn; an answer that does not fit is refused with the reason, a fitting one reaches the agent', async () => {
        const response = await bed.chat.send('question');
        await form(response).waitFor({ state: 'visible', timeout: 20000 });
        expect(await form(response).locator('.acp-question-message').innerText()).to.equal('Which colour, and how many?');
        // Required and bounded: nothing goes to the agent until the answer fits.
        await field(response, 'count').locator('input').fill('7');
        await form(response).locator('button[type="submit"]').click();
        expect(await field(response, 'colour').locator('.acp-question-error').innerText()).to.equal('Required');
        expect(await field(response, 'count').locator('.acp-question-error').innerText()).to.equal('At most 3');
        await field(response, 'colour').locator('select').selectOption({ label: 'Blue' });
        await field(response, 'count').locator('input').fill('2');
        await field(response, 'urgent').locator('input').check();
        await field(response, 'sizes').locator('label', { hasText: 'Large' }).locator('input').check();
        await form(response).locator('button[type="submit"]').click();
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('answer: {"action":"accept","content":{"colour":"blue","count":2,"urgent":true,"sizes":["l"]}}');
        expect(await form(response).getAttribute('data-question-state')).to.equal('answered');
    });

    it('Decline tells the agent so; a question the agent withdraws leaves the form closed', async () => {
        const declined = await bed.chat.send('question');
        await form(declined).locator('button', { hasText: 'Decline' }).click();
        await bed.chat.finished(declined);
        expect(await bed.chat.text(declined)).to.contain('answer: {"action":"decline"}');

        const withdrawn = await bed.chat.send('question withdrawn');
        await form(withdrawn).waitFor({ state: 'visible', timeout: 20000 });
        fs.writeFileSync(`${agentLog}.withdraw`, '');
        await bed.chat.finished(withdrawn);
        expect(await bed.chat.text(withdrawn)).to.match(/answer: withdrawn/);
        expect(await form(withdrawn).getAttribute('data-question-state')).to.equal('withdrawn');
        expect(await form(withdrawn).locator('button').count(), 'nothing left to answer').to.equal(0);
    });

    it('Stop closes the turn\'s open question: the agent is answered at once, and the next message goes through', async () => {
        const stopped = await bed.chat.send('question');
        await form(stopped).waitFor({ state: 'visible', timeout: 20000 });
        await bed.chat.stop();
        await until(async () => await form(stopped).getAttribute('data-question-state') === 'stopped', 'the question closed by Stop', 10000);
        expect(await form(stopped).innerText()).to.contain('not answered: the turn was stopped');
        const next = await bed.chat.send('echo after the stop');
        await bed.chat.finished(next);
        expect(await bed.chat.text(next)).to.contain('echo after the stop');
    });

    it('says in the turn when the agent asks a form the chat cannot show; the agent gets the protocol\'s error', async () => {
        const response = await bed.chat.send('question bad');
        await bed.chat.finished(response);
        const text = await bed.chat.text(response);
        expect(text).to.contain('The agent\'s question has a form the chat cannot show');
        expect(text).to.contain('answer: error -32602');
    });

    it('shows a URL question with its host and opens it only when the user clicks', async () => {
        const context = bed.window.page.context();
        // Loopback only: the page the agent names is answered here, never looked up.
        await context.route('https://login.example.com/**', route => route.fulfill({ contentType: 'text/html', body: '<p>sign-in page</p>' }));
        const pagesBefore = context.pages().length;
        const response = await bed.chat.send('question url');
        await form(response).waitFor({ state: 'visible', timeout: 20000 });
        expect(await form(response).innerText()).to.contain('asks you to open a page on login.example.com').and.contain('https://login.example.com/authorize?state=x');
        expect(context.pages().length, 'nothing opened by itself').to.equal(pagesBefore);
        const opened = context.waitForEvent('page', { timeout: 20000 });
        await form(response).locator('button', { hasText: 'Open login.example.com' }).click();
        const page = await opened;
        expect(page.url()).to.contain('login.example.com');
        await page.close();
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('answer: {"action":"accept"}');
        // The agent said the sign-in is done (elicitation/complete).
        await until(async () => await form(response).getAttribute('data-question-state') === 'completed', 'the question completed', 10000);
    });

    it('nests each subagent\'s work under the tool call that started it; a subagent\'s permission request is asked in the answer', async () => {
        const response = await bed.chat.send('subagents');
        const question = response.locator('.theia-QuestionPartRenderer-root').last();
        await question.waitFor({ state: 'visible', timeout: 20000 });
        expect(await question.innerText()).to.contain('echo counted');
        const claudeStyle = response.locator('.acp-subagent[data-tool-call-id="task-1"]');
        expect(await claudeStyle.locator('.acp-subagent-summary').innerText()).to.contain('(3 steps)');
        const claudeWork = await claudeStyle.locator('.acp-subagent-parts').innerText();
        expect(claudeWork).to.contain('Looking at the notes.').and.to.contain('Read notes.md').and.to.contain('echo counted');
        await question.locator('button.theia-QuestionPartRenderer-option', { hasText: 'Allow' }).click();
        await bed.chat.finished(response);

        // Each subagent's work closes once its call is done; a click opens it again.
        const qwenStyle = response.locator('.acp-subagent[data-tool-call-id="task-2"]');
        expect(await qwenStyle.locator('details.acp-subagent-activity').getAttribute('open')).to.equal(null);
        await qwenStyle.locator('.acp-subagent-summary').click();
        expect(await qwenStyle.locator('.acp-subagent-parts').innerText()).to.contain('wc -w notes.md').and.to.contain('Counted 12 words.');
        expect(await claudeStyle.innerText(), 'the call itself, drawn as any tool call').to.contain('Task: Survey the notes');
        expect(await claudeStyle.locator('details.acp-subagent-activity').getAttribute('open')).to.equal(null);
        // The answer's own text is the main agent's: the subagents' words are only under their calls.
        const ownText = await response.locator('.acp-agent-markdown').evaluateAll(nodes => nodes.filter(node => !node.closest('.acp-subagent'))
            .map(node => (node as HTMLElement).innerText).join(' '));
        expect(ownText).to.contain('Both subagents are done (permission: yes).').and.not.to.contain('Looking at the notes.').and.not.to.contain('Counted 12 words.');
    });

    it('closes a permission request the agent withdraws: no choice is taken any more, and the answer says so', async () => {
        const withdraw = `${agentLog}.withdraw`;
        fs.rmSync(withdraw, { force: true });
        const response = await bed.chat.send('ask withdrawn');
        const question = response.locator('.theia-QuestionPartRenderer-root').last();
        await question.waitFor({ state: 'visible', timeout: 20000 });
        expect(await question.locator('button.theia-QuestionPartRenderer-option').first().isEnabled()).to.equal(true);
        fs.writeFileSync(withdraw, '');
        await bed.chat.finished(response);
        fs.rmSync(withdraw, { force: true });
        const text = await bed.chat.text(response);
        expect(text).to.contain('Fake withdrew its request to run rm -rf build.').and.to.contain('permission: {"outcome":"withdrawn"}');
        expect(await question.locator('button.theia-QuestionPartRenderer-option').evaluateAll(buttons => buttons.map(button => (button as HTMLButtonElement).disabled)))
            .to.deep.equal([true, true]);
        expect(await question.locator('button.theia-QuestionPartRenderer-option.selected').count()).to.equal(0);
    });
});
