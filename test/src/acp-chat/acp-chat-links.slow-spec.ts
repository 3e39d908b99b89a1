import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { updateTheiaSettings } from '../support/sandbox';
import { AcpChatTestbed } from '../support/acp-chat-testbed';
import { fakeAgent } from '../support/fake-acp-agent';

const CHAT = '#chat-view-widget';
const DIFF_EDITOR = '#theia-main-content-panel .monaco-diff-editor';
const COMMAND = 'command:aiCliCompanion.acceptAllDiffs';

/**
 * Theia's chat opens every link of a response through the OpenerService, where `command:` runs an IDE
 * command: an agent's `[README.md](command:aiCliCompanion.acceptAllDiffs)` accepted every pending
 * proposal on one click. In a real window, with a pending proposal of the agent's own: its links to
 * commands are text, the web and the workspace's files stay links.
 */
describe('ACP chat: an agent\'s links cannot run IDE commands', function (): void {
    this.timeout(300000);
    const bed = AcpChatTestbed.install({ 'notes.md': '# Notes\n', 'proposal.txt': 'as it was\n' }, sandbox => {
        updateTheiaSettings(sandbox, {
            'ai-features.chat.defaultChatAgent': 'Fake',
            'aiCliCompanion.acp.agents': [fakeAgent('Fake', path.join(sandbox.tmp, 'fake-agent.jsonl'))]
        });
    });

    it('a command: link from the agent renders as text and a click on it runs nothing; an https link and a file link inside the workspace stay links', async () => {
        const page = bed.window.page;
        const proposal = path.join(bed.workspace, 'proposal.txt');
        const response = await bed.chat.send(`links ${bed.workspace}`);
        const question = response.locator('.theia-QuestionPartRenderer-root').last();
        await question.waitFor({ state: 'visible', timeout: 60000 }).catch(async error => {
            throw new Error(`${error.message}; ${await bed.window.describeForFailure('acp-links')}; backend log:\n${bed.backend.log.slice(-3000)}`);
        });
        await page.locator(DIFF_EDITOR).first().waitFor({ state: 'visible', timeout: 20000 });

        // Every element the chat would open on a click: `<a>` (HTML or SVG), by `href` or `xlink:href`.
        const links = await page.evaluate(chat => [...document.querySelectorAll(`${chat} a, ${chat} [href]`)]
            .map(element => element.getAttribute('href') ?? element.getAttribute('xlink:href')), CHAT);
        const notes = `file://${bed.workspace}/notes.md`;
        expect(links.sort()).to.deep.equal([notes, notes, 'https://example.com/docs']);
        expect(await page.locator(`${CHAT} a[href^="command:"]`).count()).to.equal(0);
        const text = await bed.chat.text(response);
        expect(text).to.contain(`Open README.md ${COMMAND}, ${COMMAND}, the notes ${COMMAND}, <a href="${COMMAND}">notes.md</a>, the docs, notes.md, the key file:///etc/passwd.`);
        expect(text).to.contain(`Accept everything ${COMMAND} and notes.md`).and.to.contain(`Check the notes ${COMMAND}`);
        expect(await question.innerText()).to.contain(`Fake asks to run: Writing to ${proposal}`);

        // A user clicks what used to be links (their text and their targets).
        for (const shown of await response.locator('.acp-agent-markdown code', { hasText: COMMAND }).all()) {
            await shown.click();
        }
        await response.locator('.acp-agent-markdown p', { hasText: 'Open README.md' }).click({ position: { x: 60, y: 5 } });
        // A link that stays one opens through the same OpenerService: once its editor is there, the clicks before it were handled.
        await response.locator(`a[href="${notes}"]`).first().click();
        await page.locator('#theia-main-content-panel .lm-TabBar-tab', { hasText: /^notes\.md$/ }).waitFor({ state: 'visible', timeout: 20000 });

        expect(await page.locator(DIFF_EDITOR).count(), 'the proposal is still open for review').to.be.greaterThan(0);
        expect(await question.locator('button.theia-QuestionPartRenderer-option:disabled').count(), 'the permission is still unanswered').to.equal(0);
        expect(fs.readFileSync(proposal, 'utf8')).to.equal('as it was\n');
        await question.locator('button.theia-QuestionPartRenderer-option', { hasText: /^Reject/ }).click();
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('The change was rejected.');
        expect(fs.readFileSync(proposal, 'utf8')).to.equal('as it was\n');
    });
});
