import { enableBrowserDom } from '../test/browser-dom';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { Deferred } from '@theia/core/lib/common/promise-util';
import { fromRpcText } from '@theia-cli-companion/ide-companion-server/lib/common';
import { until } from '@theia-cli-companion/ide-companion-server/lib/common/test';
import { DIFF_WRITE_ON_ACCEPT_PREF } from '../../common/ide-companion-preferences';
import { DiffReviewTestbed } from '../test/diff-review-testbed';
import { ReviewedProposal, ReviewOutcome } from './reviewed-proposal';

disableDom();

/** Who hears a review's outcome: the CLI route answers through `resolveDiff`, every other proposer through its own adapter. */
describe('CliDiffRequests and the one review entry point', () => {
    let bed: DiffReviewTestbed;

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());
    beforeEach(() => bed = new DiffReviewTestbed());

    const fileUri = DiffReviewTestbed.fileUri;
    const chatProposal = (id: string, name: string): ReviewedProposal => ({ id, fileUri: fileUri(name), newContent: 'agent\n', fileExists: true, proposedBy: 'Agent',
        origin: { kind: 'acp', groupId: 'chat-1', label: 'Agent' } });

    it('reports a CLI proposal\'s outcome to resolveDiff once, with the reviewed text, however often it is settled after', async () => {
        const widget = await bed.propose('d1', 'a.ts', 'proposed\n');
        bed.models.edited.set(widget.proposalUri, 'proposed, edited\n');
        await bed.service.accept('d1');
        await bed.service.accept('d1');
        await bed.service.reject('d1');
        expect(await bed.cli.closeDiff('d1'), 'settled: nothing left to close').to.equal(undefined);
        widget.close();
        await until(() => bed.resolved.length > 0);
        await new Promise(resolve => setImmediate(resolve));
        expect(bed.answers()).to.deep.equal([{ id: 'd1', accepted: 'proposed, edited\n' }]);
    });

    it('gives a chat\'s proposal to its own adapter only: the backend hears nothing and nothing is written, even with write-on-accept', async () => {
        bed.userSettings.set(DIFF_WRITE_ON_ACCEPT_PREF, true);
        bed.files.set(fileUri('a.ts'), 'old\n');
        bed.files.set(fileUri('b.ts'), 'old\n');
        const accepted = await bed.service.review(chatProposal('acp-1', 'a.ts'));
        const rejected = await bed.service.review(chatProposal('acp-2', 'b.ts'));
        await bed.service.accept('acp-1');
        await bed.service.reject('acp-2');
        expect(await accepted.outcome).to.deep.equal({ kind: 'accepted', content: 'agent\n' });
        expect(await rejected.outcome).to.deep.equal({ kind: 'rejected' });
        await new Promise(resolve => setImmediate(resolve));
        expect(bed.resolved).to.deep.equal([]);
        expect(bed.files.written).to.deep.equal([]);
    });

    it('writes the accepted text before it tells the CLI, for a CLI proposal the user accepted; not for one accepted by the pace', async () => {
        bed.userSettings.set(DIFF_WRITE_ON_ACCEPT_PREF, true);
        const order: string[] = [];
        const write = bed.files.service.write;
        bed.files.service.write = async (uri, text) => {
            order.push(`write ${uri.path.base}`);
            return write(uri, text);
        };
        await bed.propose('d1', 'a.ts', 'proposed\n');
        await bed.service.accept('d1');
        await until(() => bed.resolved.length === 1);
        order.push('resolveDiff');
        expect(order).to.deep.equal(['write a.ts', 'resolveDiff']);

        bed.userSettings.set('aiCliCompanion.gemini.reviewPace', 'accept');
        await bed.propose('d2', 'b.ts', 'proposed\n');
        await until(() => bed.resolved.length === 2);
        expect(bed.files.written.map(written => written.uri)).to.deep.equal([fileUri('a.ts')]);
    });

    it('reports a withdrawn proposal to nobody: a CLI\'s closeDiff, even while the user is asked about an overwrite', async () => {
        const outcomes: ReviewOutcome[] = [];
        bed.files.set(fileUri('c.ts'), 'old\n');
        const chat = await bed.service.review(chatProposal('acp-1', 'c.ts'));
        void chat.outcome.then(outcome => outcomes.push(outcome));
        expect(await bed.service.withdraw('acp-1')).to.equal('agent\n');

        await bed.propose('d1', 'a.ts', 'proposed\n');
        expect(fromRpcText((await bed.cli.closeDiff('d1'))!)).to.equal('proposed\n');

        await bed.propose('d2', 'b.ts', 'proposed\n');
        bed.models.dirtyFiles.add(fileUri('b.ts'));
        const userAnswer = new Deferred<boolean>();
        bed.answer = userAnswer.promise;
        const accepting = bed.service.accept('d2');
        await until(() => bed.questions.length === 1);
        await bed.cli.closeDiff('d2');
        userAnswer.resolve(true);
        await accepting;
        await new Promise(resolve => setImmediate(resolve));
        expect(bed.resolved, 'the CLI closed them: nobody is answered').to.deep.equal([]);
        expect(outcomes).to.deep.equal([{ kind: 'withdrawn' }]);
        expect(bed.service.pending).to.deep.equal([]);
    });

    it('closes the editor of a proposal its CLI withdrew while the editor opened, and answers nobody', async () => {
        const opening = new Deferred<void>();
        bed.opening = opening.promise;
        const proposed = bed.propose('d1', 'a.ts', 'proposed\n');
        await until(() => bed.service.pending.length === 1);
        expect(fromRpcText((await bed.cli.closeDiff('d1'))!)).to.equal('proposed\n');
        opening.resolve();
        const widget = await proposed;
        expect(widget.isDisposed, 'no review left open for a withdrawn proposal').to.equal(true);
        expect(bed.service.pending).to.deep.equal([]);
        await new Promise(resolve => setImmediate(resolve));
        expect(bed.resolved).to.deep.equal([]);
    });

    it('rejects openDiff when the proposal cannot be opened, and leaves nothing pending', async () => {
        bed.files.set(fileUri('a.ts'), 'old\n');
        bed.opensNothing = true;
        let error: unknown;
        await bed.propose('d1', 'a.ts', 'proposed\n').catch(failure => error = failure);
        expect(String(error)).to.contain('no editor opened');
        expect(bed.service.pending).to.deep.equal([]);
        expect(bed.resolved).to.deep.equal([]);
    });

    it('lists a change kept for Undo in the applied changes, and Undo puts the file back through the backend\'s ledger', async () => {
        const proposal = chatProposal('acp-write-1', 'a.ts');
        bed.files.set(fileUri('a.ts'), 'mine\n');
        await bed.appliedChanges.keep(proposal);
        bed.files.set(fileUri('a.ts'), 'agent\n');
        expect(bed.appliedChanges.applied.map(change => [change.proposal.id, change.undoId])).to.deep.equal([['acp-write-1', 'undo-1']]);
        await bed.appliedChanges.undo('acp-write-1');
        expect(bed.files.contents.get(fileUri('a.ts'))?.text).to.equal('mine\n');
        expect(bed.appliedChanges.applied).to.deep.equal([]);

        bed.recordFails = true;
        let error: unknown;
        await bed.appliedChanges.keep(chatProposal('acp-write-2', 'a.ts')).catch(failure => error = failure);
        expect(String(error)).to.contain('outside the workspace folders');
        expect(bed.appliedChanges.applied, 'nothing to undo without the bytes from before').to.deep.equal([]);
    });
});
