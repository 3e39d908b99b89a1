import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { AcpChatTestbed } from '../support/acp-chat-testbed';
import { prepareGeminiAcp } from '../clis/gemini-acp-setup';
import { MockGeminiApi } from '../mocks/mock-gemini-api';

const KEY = 'AIza-typed-by-the-user-0123456789';

/** The real `gemini --acp` with no API key configured: the chat signs the user in and keeps the key secret. */
describe('ACP chat: signing in to the real gemini --acp from the chat', function (): void {
    this.timeout(300000);
    const mock = new MockGeminiApi(() => ({ text: 'Signed in and answering.' }));
    before(() => mock.start());
    after(() => mock.stop());
    const bed = AcpChatTestbed.install({ 'README.md': '# Project\n' }, sandbox => prepareGeminiAcp(sandbox, mock.url));

    it('offers the agent\'s sign-in methods, asks for the key, and the agent answers with it', async () => {
        const response = await bed.chat.send('Hello');
        const question = response.locator('.theia-QuestionPartRenderer-root').last();
        await question.waitFor({ state: 'visible', timeout: 60000 });
        expect(await question.innerText()).to.match(/Gemini needs credentials \(Gemini API key is missing or not configured\.\)/);
        await question.locator('button.theia-QuestionPartRenderer-option', { hasText: 'Gemini API key' }).click();
        const input = bed.window.page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible', timeout: 10000 });
        expect(await input.getAttribute('type')).to.equal('password');
        await bed.window.page.keyboard.type(KEY);
        await bed.window.page.keyboard.press('Enter');
        await bed.chat.finished(response);
        expect(await bed.chat.text(response)).to.contain('Signed in and answering.');
        expect(mock.requests[mock.requests.length - 1].apiKey).to.equal(KEY);
    });

    it('uses the kept key for the next agent without asking, and the key is in no log or settings file', async () => {
        await bed.chat.newChat();
        const asked = mock.requests.length;
        const response = await bed.chat.send('Hello again');
        await bed.chat.finished(response);
        expect(await response.locator('.theia-QuestionPartRenderer-root').count()).to.equal(0);
        expect(await bed.chat.text(response)).to.contain('Signed in and answering.');
        expect(mock.requests.slice(asked).every(request => request.apiKey === KEY)).to.equal(true);
        expect(bed.backend.log).to.not.contain(KEY);
        const settings = [path.join(bed.sandbox.theiaConfig, 'settings.json'), path.join(bed.sandbox.home, '.gemini', 'settings.json')];
        settings.forEach(file => expect(fs.readFileSync(file, 'utf8')).to.not.contain(KEY));
    });
});
