import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { GeminiCliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { toRpcText } from '../../common/rpc-text';
import { RecordingLogger } from '../test/recording-logger';
import { RecordingWindow } from '../test/recording-window';
import { WindowServer } from '../window-server';
import { createWindowServer } from '../window-server-module';
import { DiffSettlement, PendingDiff, ProposalResult } from './diff-review-manager';

function shown(result: ProposalResult): PendingDiff {
    if ('refused' in result) {
        throw new Error(`refused: ${result.refused}`);
    }
    return result.shown;
}

/** Each way a proposal stops waiting settles its one promise once, with its reason (the tools turn reasons into answers). */
describe('DiffReviewManager: one settlement per proposal, with its reason', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    let window: WindowServer;
    let browser: RecordingWindow;
    let file: string;
    let logger: RecordingLogger;

    beforeEach(async () => {
        home = useTemporaryHome();
        fs.mkdirSync(path.join(home.dir, 'ws'));
        file = path.join(home.dir, 'ws', 'a.txt');
        fs.writeFileSync(file, 'old\n');
        logger = new RecordingLogger();
        window = createWindowServer({ windowId: '00000000-0000-4000-8000-0000000d1ff1', flavours: [GeminiCliFlavour], logger, serverPid: process.pid });
        await window.start([path.join(home.dir, 'ws')]);
        browser = new RecordingWindow();
        window.attachFrontend(browser);
    });

    afterEach(async () => {
        await window.stop();
        home.restore();
    });

    const propose = async (sessionId: string, newContent: string, tabName?: string) =>
        shown(await window.diffs.propose({ sessionId, filePath: file, newContent, ...(tabName ? { tabName } : {}) }));

    it('answered: the window\'s accepted text, or its rejection', async () => {
        const accepted = await propose('s1', 'a\n');
        await window.diffs.resolve(accepted.id, { accepted: true, content: toRpcText('a, edited\n') });
        expect(await accepted.settled).to.deep.equal({ reason: 'answered', answer: { accepted: true, content: 'a, edited\n' } });
        const rejected = await propose('s1', 'b\n');
        await window.diffs.resolve(rejected.id, { accepted: false });
        expect(await rejected.settled).to.deep.equal({ reason: 'answered', answer: { accepted: false } });
    });

    it('replaced: only by a newer proposal of the same session for the same file', async () => {
        const older = await propose('s1', 'one\n');
        const otherSession = await propose('s2', 'theirs\n');
        const newer = await propose('s1', 'two\n');
        expect(await older.settled).to.deep.equal({ reason: 'replaced', answer: { accepted: false } });
        expect(window.diffs.openDiffs.map(diff => diff.id)).to.deep.equal([otherSession.id, newer.id]);
    });

    it('closed-by-cli: by file or tab name, or all of the session\'s, with the text the window showed; another session\'s stay', async () => {
        const byFile = await propose('s1', 'x\n');
        browser.rightSide.set(byFile.id, 'x, edited\n');
        const others = await propose('s2', 'y\n', 'tab-y');
        const [closed] = await window.diffs.close('s1', { filePath: file });
        expect(closed).to.deep.include({ diff: byFile, shownText: 'x, edited\n' });
        expect(await byFile.settled).to.deep.equal({ reason: 'closed-by-cli', answer: { accepted: false } });
        expect(await window.diffs.close('s1', { tabName: 'tab-y' }), 'another session\'s tab').to.deep.equal([]);
        expect((await window.diffs.close('s2', 'all')).map(({ diff }) => diff.id)).to.deep.equal([others.id]);
        expect(await others.settled).to.deep.equal({ reason: 'closed-by-cli', answer: { accepted: false } });
    });

    it('session-ended: the proposals of a session no endpoint knows close', async () => {
        const orphan = await propose('a-session-that-ended', 'z\n');
        window.diffs.dropOrphans();
        expect(await orphan.settled).to.deep.equal({ reason: 'session-ended', answer: { accepted: false } });
        expect(browser.closed).to.deep.equal([orphan.id]);
    });

    it('window-closed: rejectAll settles every proposal and resolves only once what their proposers send about it is sent', async () => {
        const pending = await propose('s1', 'w\n');
        const seen: DiffSettlement[] = [];
        window.diffs.trackDelivery(pending.settled.then(async settlement => {
            await new Promise(resolve => setTimeout(resolve, 50));
            seen.push(settlement);
        }));
        await window.diffs.rejectAll('the window closed');
        expect(seen).to.deep.equal([{ reason: 'window-closed', answer: { accepted: false } }]);
    });

    it('settles once: a later answer for a closed proposal changes nothing, and says nothing', async () => {
        const diff = await propose('s1', 'once\n');
        await window.diffs.close('s1', 'all');
        let changes = 0;
        window.diffs.onDidChange(() => changes++);
        await window.diffs.resolve(diff.id, { accepted: true, content: toRpcText('late\n') });
        expect(await diff.settled).to.deep.equal({ reason: 'closed-by-cli', answer: { accepted: false } });
        expect(changes, 'no change fired').to.equal(0);
        expect(logger.lines.filter(line => line.includes('in the window')), 'no answer logged').to.deep.equal([]);
    });
});
