import { enableBrowserDom } from '../test/browser-dom';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { until } from '@theia-cli-companion/ide-companion-server/lib/common/test';
import { fromRpcText } from '@theia-cli-companion/ide-companion-server/lib/common';
import { DiffUris } from '@theia/core/lib/browser/diff-uris';
import { DIFF_WRITE_ON_ACCEPT_PREF, REVIEW_NOTIFY_QUEUED_PREF } from '../../common/ide-companion-preferences';
import { DiffReviewTestbed, ReviewWidget } from '../test/diff-review-testbed';
import { ReviewedProposal } from './reviewed-proposal';

disableDom();

describe('DiffReviewService', () => {
    let bed: DiffReviewTestbed;

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());
    beforeEach(() => bed = new DiffReviewTestbed());

    const fileUri = DiffReviewTestbed.fileUri;
    const propose = (id: string, name: string, newContent: string, fileExists = true, options: { original?: string; groupId?: string } = {}) =>
        bed.propose(id, name, newContent, fileExists, options);
    const answers = () => bed.answers();

    it('opens the file against its proposal, titled with who proposed it, and lists it as pending', async () => {
        const widget = await propose('d1', 'a.ts', 'proposed\n');
        expect(widget.uri.scheme).to.equal('diff');
        const [left, right] = DiffUris.decode(widget.uri);
        expect(left.toString()).to.equal(fileUri('a.ts'));
        expect(right.scheme).to.not.equal('file');
        expect(decodeURIComponent(widget.uri.toString())).to.contain('a.ts ↔ proposed by Gemini CLI (test 1.0)');
        expect(bed.service.pending.map(proposal => proposal.id)).to.deep.equal(['d1']);
        expect(bed.service.idOf(widget)).to.equal('d1');
    });

    it('accepts an unedited proposal byte for byte (mixed line endings, a BOM), and an edited one as the user left it', async () => {
        const verbatim = '\uFEFFone\r\ntwo\nthree';
        await propose('d1', 'a.ts', verbatim);
        await bed.service.accept('d1');
        const widget = await propose('d2', 'b.ts', 'one\ntwo\n');
        bed.models.edited.set(widget.proposalUri, 'one\n2\nthree\n');
        await bed.service.accept('d2');
        expect(answers()).to.deep.equal([{ id: 'd1', accepted: verbatim }, { id: 'd2', accepted: 'one\n2\nthree\n' }]);
        expect(bed.opened.every(review => review.isDisposed), 'every accepted review closed').to.equal(true);
        expect(bed.service.pending).to.deep.equal([]);
    });

    it('asks before accepting over unsaved edits of the file, and accepts only when the user says so', async () => {
        await propose('d1', 'a.ts', 'proposed\n');
        bed.models.dirtyFiles.add(fileUri('a.ts'));
        bed.answer = false;
        await bed.service.accept('d1');
        expect(bed.questions).to.have.length(1);
        expect(bed.questions[0].join(' ')).to.contain('a.ts has unsaved changes');
        expect(bed.resolved, 'declined: still pending').to.deep.equal([]);
        expect(bed.service.pending.map(proposal => proposal.id)).to.deep.equal(['d1']);
        bed.answer = true;
        await bed.service.accept('d1');
        expect(answers()).to.deep.equal([{ id: 'd1', accepted: 'proposed\n' }]);
    });

    it('asks before accepting when the file changed on disk since the diff opened, or appeared since', async () => {
        await propose('d1', 'a.ts', 'proposed\n');
        bed.files.set(fileUri('a.ts'), 'someone else wrote this\n');
        await propose('d2', 'new.ts', 'new file\n', false);
        bed.files.set(fileUri('new.ts'), 'created meanwhile\n');
        await bed.service.accept('d1');
        await bed.service.accept('d2');
        expect(bed.questions.map(problems => problems.join(' '))).to.satisfy((texts: string[]) =>
            texts[0].includes('a.ts changed on disk') && texts[1].includes('new.ts changed on disk'));
        expect(answers().map(outcome => outcome.id)).to.deep.equal(['d1', 'd2']);
    });

    it('accepts a new file without asking when nothing appeared at its path', async () => {
        await propose('d1', 'new.ts', 'new file\n', false);
        await bed.service.accept('d1');
        expect(bed.questions).to.deep.equal([]);
        expect(answers()).to.deep.equal([{ id: 'd1', accepted: 'new file\n' }]);
    });

    it('rejects when the review is closed, edited or not, once, and without a save prompt', async () => {
        const plain = await propose('d1', 'a.ts', 'proposed\n');
        const edited = await propose('d2', 'b.ts', 'proposed\n');
        bed.models.edited.set(edited.proposalUri, 'edited\n');
        plain.close();
        edited.close();
        await bed.service.accept('d1');
        await bed.service.reject('d2');
        expect(answers()).to.deep.equal([{ id: 'd1', rejected: true }, { id: 'd2', rejected: true }]);
        expect(edited.isDisposed, 'closed at once: the close of an edited review asks nothing').to.equal(true);
    });

    it('settles only the diff it is asked to among several, and rejects the rest at once', async () => {
        const first = await propose('d1', 'a.ts', 'a\n');
        const second = await propose('d2', 'b.ts', 'b\n');
        await propose('d3', 'c.ts', 'c\n');
        await bed.service.accept('d2');
        expect(second.isDisposed).to.equal(true);
        expect(first.isDisposed).to.equal(false);
        expect(bed.service.pending.map(proposal => proposal.id)).to.deep.equal(['d1', 'd3']);
        await bed.service.rejectAll();
        expect(answers()).to.deep.equal([{ id: 'd2', accepted: 'b\n' }, { id: 'd1', rejected: true }, { id: 'd3', rejected: true }]);
        expect(bed.opened.every(widget => widget.isDisposed)).to.equal(true);
    });

    it('shows two sessions\' proposals for one file as two reviews, each settled on its own', async () => {
        const first = await propose('s1', 'a.ts', 'from the first\n', true, { groupId: 'session-1' });
        const second = await propose('s2', 'a.ts', 'from the second\n', true, { groupId: 'session-2' });
        expect(first.uri.toString(), 'two editors, not one replaced').to.not.equal(second.uri.toString());
        expect(DiffUris.decode(first.uri)[0].toString()).to.equal(DiffUris.decode(second.uri)[0].toString());
        expect(bed.service.pending.map(proposal => [proposal.id, proposal.origin.groupId])).to.deep.equal([['s1', 'session-1'], ['s2', 'session-2']]);
        await bed.service.accept('s2');
        expect(second.isDisposed).to.equal(true);
        expect(first.isDisposed, 'the other session\'s review stays open').to.equal(false);
        expect(bed.service.pending.map(proposal => proposal.id)).to.deep.equal(['s1']);
        // The second session's CLI writes its accepted text: the first review was made against the old content.
        bed.files.set(fileUri('a.ts'), 'from the second\n');
        await bed.service.accept('s1');
        expect(bed.questions.map(problems => problems.join(' '))).to.satisfy((texts: string[]) => texts.length === 1 && texts[0].includes('a.ts changed on disk'));
        expect(answers()).to.deep.equal([{ id: 's2', accepted: 'from the second\n' }, { id: 's1', accepted: 'from the first\n' }]);
    });

    it('closes without an answer when the CLI decided, and returns what the proposal shows', async () => {
        const widget = await propose('d1', 'a.ts', 'proposed\n');
        bed.models.edited.set(widget.proposalUri, 'proposed, edited\n');
        expect(fromRpcText((await bed.cli.closeDiff('d1'))!)).to.equal('proposed, edited\n');
        expect(widget.isDisposed).to.equal(true);
        expect(bed.resolved).to.deep.equal([]);
        expect(await bed.cli.closeDiff('unknown')).to.equal(undefined);
    });

    it('accepts a proposal with one change rejected as the proposal with exactly that change reverted, each line ending from where its line came', async () => {
        const original = 'one\ntwo\nthree\nfour\nfive\n';
        const widget = await propose('d1', 'a.ts', 'ONE\r\ntwo\r\nTHREE\r\nfour\r\nFIVE\r\n', true, { original });
        // What Monaco's model shows after Reject Change on the second change: one EOL, the original's line back.
        bed.models.edited.set(widget.proposalUri, 'ONE\r\ntwo\r\nthree\r\nfour\r\nFIVE\r\n');
        await bed.service.accept('d1');
        expect(answers()).to.deep.equal([{ id: 'd1', accepted: 'ONE\r\ntwo\r\nthree\nfour\r\nFIVE\r\n' }]);
    });

    it('Accept All answers each pending proposal once, to its own session, even when run twice at once; a group\'s Accept All only its own', async () => {
        await propose('g1', 'a.ts', 'a\n', true, { groupId: 'gemini' });
        await propose('q1', 'b.ts', 'b\n', true, { groupId: 'qwen' });
        await propose('q2', 'c.ts', 'c\n', true, { groupId: 'qwen' });
        await bed.service.acceptAll('qwen');
        expect(answers().map(answer => answer.id)).to.deep.equal(['q1', 'q2']);
        await propose('c1', 'd.ts', 'd\n', true, { groupId: 'claude' });
        await Promise.all([bed.service.acceptAll(), bed.service.acceptAll(), bed.service.rejectAll()]);
        expect(answers().map(answer => answer.id).sort()).to.deep.equal(['c1', 'g1', 'q1', 'q2']);
        expect(bed.service.pending).to.deep.equal([]);
    });

    it('queues a proposal when its CLI\'s pace is "queue": nothing opens, it is pending; opened later, closing its editor keeps it queued', async () => {
        bed.userSettings.set('aiCliCompanion.gemini.reviewPace', 'queue');
        const before = bed.opened.length;
        await propose('d1', 'a.ts', 'proposed\n');
        expect(bed.opened.length, 'no editor opens').to.equal(before);
        expect(bed.service.pending.map(proposal => proposal.id)).to.deep.equal(['d1']);
        expect(bed.infos, 'no notification unless asked for').to.deep.equal([]);
        const widget = await bed.service.open('d1') as ReviewWidget;
        expect(widget).to.equal(bed.opened[bed.opened.length - 1]);
        await widget.closeWithoutSaving();
        expect(answers(), 'closing a queued review is no reject').to.deep.equal([]);
        expect(bed.service.pending.map(proposal => proposal.id)).to.deep.equal(['d1']);
        await bed.service.accept('d1');
        expect(answers()).to.deep.equal([{ id: 'd1', accepted: 'proposed\n' }]);

        bed.preferences[REVIEW_NOTIFY_QUEUED_PREF] = true;
        await propose('d2', 'b.ts', 'proposed\n');
        expect(bed.infos).to.have.length(1);
        expect(bed.infos[0]).to.contain('b.ts').and.to.contain('Pending Changes');
    });

    it('accepts as proposed when the pace is "accept", lists the change as applied, and Undo puts the file back (asking if it changed since)', async () => {
        bed.userSettings.set('aiCliCompanion.gemini.reviewPace', 'accept');
        const before = bed.opened.length;
        await propose('d1', 'a.ts', 'proposed\n', true, { original: 'mine\n' });
        expect(bed.opened.length).to.equal(before);
        expect(answers()).to.deep.equal([{ id: 'd1', accepted: 'proposed\n' }]);
        expect(bed.appliedChanges.applied.map(change => change.proposal.id)).to.deep.equal(['d1']);
        bed.files.set(fileUri('a.ts'), 'proposed\n');
        await bed.appliedChanges.undo('d1');
        expect(bed.files.contents.get(fileUri('a.ts'))?.text).to.equal('mine\n');
        expect(bed.questions, 'the file held what was applied: nothing to ask').to.deep.equal([]);
        expect(bed.appliedChanges.applied).to.deep.equal([]);

        await propose('d2', 'b.ts', 'new file\n', false);
        bed.files.set(fileUri('b.ts'), 'new file, edited since\n');
        bed.answer = false;
        await bed.appliedChanges.undo('d2');
        expect(bed.questions).to.have.length(1);
        expect(bed.files.contents.get(fileUri('b.ts'))?.text, 'the user said no').to.equal('new file, edited since\n');
        bed.answer = true;
        await bed.appliedChanges.undo('d2');
        expect(bed.files.contents.has(fileUri('b.ts')), 'a created file is removed').to.equal(false);

        bed.recordFails = true;
        const opened = bed.opened.length;
        await propose('d3', 'c.ts', 'proposed\n');
        expect(bed.opened.length - opened, 'without Undo, the change is reviewed rather than accepted').to.equal(1);
        expect(answers().map(answer => answer.id)).to.deep.equal(['d1', 'd2']);
    });

    it('ignores a review pace the workspace sets (a repository must not turn review off) and says so once', async () => {
        bed.workspaceSettings.set('aiCliCompanion.gemini.reviewPace', 'accept');
        const before = bed.opened.length;
        await propose('d1', 'a.ts', 'proposed\n');
        await propose('d2', 'b.ts', 'proposed\n');
        expect(bed.opened.length - before, 'both opened for review').to.equal(2);
        expect(answers()).to.deep.equal([]);
        expect(bed.warnings).to.have.length(1);
        expect(bed.warnings[0]).to.contain('aiCliCompanion.gemini.reviewPace').and.contain('cannot turn review off');
    });

    it('gives the answer to its own handler for a review the window opened (an ACP permission), not to a CLI', async () => {
        const outcomes: unknown[] = [];
        const proposal: ReviewedProposal = { id: 'acp-1', fileUri: fileUri('a.ts'), newContent: 'agent\n', fileExists: true, proposedBy: 'Gemini',
            origin: { kind: 'acp', groupId: 'chat-1', label: 'Gemini' } };
        bed.files.set(fileUri('a.ts'), 'old\n');
        void (await bed.service.review(proposal)).outcome.then(outcome => outcomes.push(outcome));
        bed.userSettings.set(DIFF_WRITE_ON_ACCEPT_PREF, true);
        await bed.service.accept('acp-1');
        await until(() => outcomes.length > 0);
        expect(outcomes).to.deep.equal([{ kind: 'accepted', content: 'agent\n' }]);
        expect(bed.resolved).to.deep.equal([]);
        expect(bed.files.written, 'the agent writes through the ACP client, not the review').to.deep.equal([]);
    });

    it('writes the accepted text itself only when the preference says so', async () => {
        await propose('d1', 'a.ts', 'one\n');
        await bed.service.accept('d1');
        bed.userSettings.set(DIFF_WRITE_ON_ACCEPT_PREF, true);
        await propose('d2', 'b.ts', 'two\n');
        await bed.service.accept('d2');
        expect(bed.files.written).to.deep.equal([{ uri: fileUri('b.ts'), text: 'two\n' }]);
    });

    it('does not write the accepted text itself when only the workspace\'s settings say so, and tells the user', async () => {
        bed.workspaceSettings.set(DIFF_WRITE_ON_ACCEPT_PREF, true);
        await propose('d1', 'a.ts', 'one\n');
        await bed.service.accept('d1');
        expect(answers()).to.deep.equal([{ id: 'd1', accepted: 'one\n' }]);
        expect(bed.files.written, 'the workspace cannot make the IDE write').to.deep.equal([]);
        expect(bed.warnings).to.have.length(1);
        expect(bed.warnings[0]).to.contain(`"${DIFF_WRITE_ON_ACCEPT_PREF}"`).and.contain('what the IDE itself writes comes from your user settings only');
    });

    it('tells the user when the answer cannot reach the backend', async () => {
        await propose('d1', 'a.ts', 'proposed\n');
        bed.resolveFails = true;
        await bed.service.accept('d1');
        await until(() => bed.errors.length > 0);
        expect(bed.errors[0]).to.contain('connection lost');
    });
});
