import { expect } from 'chai';
import * as fs from 'fs';
import { until } from '@theia-cli-companion/ide-companion-server/lib/node/test';
import { AcpBackendTestbed } from './test/acp-backend-testbed';

/**
 * The agent's questions (elicitation/create) through the window's backend service, with the scripted agent: the form
 * checked before the window sees it, the answer checked again before the agent gets it, a malformed form refused with
 * the protocol's error, a withdrawn question closed in the window, a URL question completed by the agent.
 */
describe('AcpAgentQuestions', function (): void {
    this.timeout(20000);
    const bed = new AcpBackendTestbed();
    beforeEach(() => bed.setUp());
    afterEach(() => bed.tearDown());

    const ask = async (kind = '') => {
        await bed.start();
        const result = await bed.backend.prompt('chat-1', [{ type: 'text', text: `question ${kind}`.trim() }]);
        expect(result).to.deep.include({ ok: true, stopReason: 'end_turn' });
        return bed.messages.join('');
    };

    it('asks the window the form, checked, and gives the agent the answer; an answer that does not fit the form is not sent', async () => {
        bed.onAskQuestion = async () => ({ action: 'accept', content: { colour: 'blue', count: 2, sizes: ['l'] } });
        expect(await ask()).to.equal('answer: {"action":"accept","content":{"colour":"blue","count":2,"sizes":["l"]}}');
        expect(bed.questions[0]).to.deep.include({ message: 'Which colour, and how many?' });
        expect(bed.questions[0].fields?.map(field => field.key)).to.deep.equal(['colour', 'count', 'note', 'urgent', 'sizes']);

        bed.messages.length = 0;
        bed.onAskQuestion = async () => ({ action: 'accept', content: { colour: 'green', count: 9 } });
        expect(await ask(), 'a window answer outside the form is dismissed').to.equal('answer: {"action":"cancel"}');
    });

    it('refuses a form the chat cannot show with invalid params, and tells the window why; the turn goes on', async () => {
        expect(await ask('bad')).to.equal('answer: error -32602');
        expect(bed.questions).to.deep.equal([]);
        expect(bed.refusedQuestions[0]).to.match(/^The agent's question has a form the chat cannot show \(properties\.inner/);
    });

    it('closes a question in the window when the agent withdraws it', async () => {
        bed.onAskQuestion = () => new Promise(resolve => {
            void until(() => bed.closedQuestions.length > 0, 'the question closed', 10000).then(() => resolve({ action: 'cancel' }));
        });
        const asked = ask('withdrawn');
        await until(() => bed.questions.length === 1, 'the question asked', 10000);
        fs.writeFileSync(`${bed.agentLog}.withdraw`, '');
        expect(await asked).to.match(/^answer: withdrawn/);
        expect(bed.closedQuestions).to.deep.equal([`${bed.questions[0].id}: withdrawn`]);
    });

    it('tells the window when the agent withdraws a permission request; the agent hears nothing more of it', async () => {
        let asked = 0;
        bed.onAskPermission = () => {
            asked++;
            // The window's question stays open until the window hears of the withdrawal.
            return until(() => bed.withdrawnPermissions.length > 0, 'the request withdrawn', 10000).then(() => ({ outcome: 'cancelled' }));
        };
        await bed.start();
        const turn = bed.backend.prompt('chat-1', [{ type: 'text', text: 'ask withdrawn' }]);
        await until(() => asked === 1, 'the permission asked', 10000);
        fs.writeFileSync(`${bed.agentLog}.withdraw`, '');
        expect(await turn).to.deep.include({ ok: true, stopReason: 'end_turn' });
        expect(bed.messages.join('')).to.equal('permission: {"outcome":"withdrawn"}');
        expect(bed.withdrawnPermissions).to.deep.equal(['ask-1']);
    });

    it('shows a URL question with its host, and closes it when the agent says it is done', async () => {
        bed.onAskQuestion = async () => ({ action: 'accept' });
        expect(await ask('url')).to.equal('answer: {"action":"accept"}');
        expect(bed.questions[0].url).to.deep.equal({ href: 'https://login.example.com/authorize?state=x', host: 'login.example.com' });
        await until(() => bed.closedQuestions.length === 1, 'the question completed', 10000);
        expect(bed.closedQuestions).to.deep.equal([`${bed.questions[0].id}: completed`]);
    });
});
