import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GeminiCliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { toRpcText } from '../../common/rpc-text';
import { connectTestClient, TestClient, until } from '../test/mcp-test-client';
import { RecordingLogger } from '../test/recording-logger';
import { RecordingWindow } from '../test/recording-window';
import { WindowServer } from '../window-server';
import { createWindowServer } from '../window-server-module';

interface Cli extends TestClient {
    call(name: string, args: unknown): Promise<CallToolResult>;
    /** The ide/diffAccepted and ide/diffRejected notifications received, in order, as `accepted <content>` or `rejected`. */
    outcomes(): string[];
}

async function connectCli(window: WindowServer): Promise<Cli> {
    const connected = await connectTestClient(window.server.port, window.endpointFor('gemini').authToken, 'spec-cli', '1.0.0');
    return {
        ...connected,
        call: (name, args) => connected.client.callTool({ name, arguments: args as Record<string, unknown> }) as Promise<CallToolResult>,
        outcomes: () => connected.notifications.filter(notification => notification.method.startsWith('ide/diff'))
            .map(({ method, params }) => method === 'ide/diffAccepted' ? `accepted ${(params as { content: string }).content}` : 'rejected')
    };
}

/**
 * What a Gemini CLI or Qwen Code session is told when its proposal settles, per reason. Notifications reach a
 * session in order on one stream: each case ends with a proposal the window accepts, so a notification that
 * should not have been sent shows up before that last one.
 */
describe('IdeDiffTools: the settlements a Gemini CLI session is notified of', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    let window: WindowServer;
    let browser: RecordingWindow;
    let logger: RecordingLogger;
    let file: string;

    beforeEach(async () => {
        home = useTemporaryHome();
        fs.mkdirSync(path.join(home.dir, 'ws'));
        file = path.join(home.dir, 'ws', 'a.txt');
        fs.writeFileSync(file, 'old\n');
        logger = new RecordingLogger();
        window = createWindowServer({
            windowId: '00000000-0000-4000-8000-0000000d1ff0', flavours: [GeminiCliFlavour], logger, serverPid: process.pid, streamGraceMs: 200
        });
        await window.start([path.join(home.dir, 'ws')]);
        browser = new RecordingWindow();
        window.attachFrontend(browser);
    });

    afterEach(async () => {
        await window.stop();
        home.restore();
    });

    /** Proposes `text`, accepts it in the window and waits until the session has heard `count` outcomes in all. */
    async function acceptLast(cli: Cli, text: string, count: number): Promise<void> {
        await cli.call('openDiff', { filePath: file, newContent: text });
        await window.diffs.resolve(browser.opened[browser.opened.length - 1].id, { accepted: true, content: toRpcText(text) });
        await until(() => cli.outcomes().length >= count, `${count} outcomes`);
    }

    it('closeDiff with suppressNotification tells nothing; closeDiff without it tells one rejection, not two', async () => {
        const cli = await connectCli(window);
        await cli.call('openDiff', { filePath: file, newContent: 'quiet\n' });
        await cli.call('closeDiff', { filePath: file, suppressNotification: true });
        await acceptLast(cli, 'marker 1\n', 1);
        expect(cli.outcomes(), 'suppressed: no rejection before the marker').to.deep.equal(['accepted marker 1\n']);

        await cli.call('openDiff', { filePath: file, newContent: 'loud\n' });
        await cli.call('closeDiff', { filePath: file });
        await acceptLast(cli, 'marker 2\n', 3);
        expect(cli.outcomes(), 'one rejection, from closeDiff').to.deep.equal(['accepted marker 1\n', 'rejected', 'accepted marker 2\n']);
        await cli.client.close();
    });

    it('a newer proposal for the same file tells the session the older one was rejected, once', async () => {
        const cli = await connectCli(window);
        await cli.call('openDiff', { filePath: file, newContent: 'older\n' });
        await acceptLast(cli, 'newer\n', 2);
        expect(cli.outcomes()).to.deep.equal(['rejected', 'accepted newer\n']);
        await cli.client.close();
    });

    it('a rejection in the window is told as a rejection', async () => {
        const cli = await connectCli(window);
        await cli.call('openDiff', { filePath: file, newContent: 'no\n' });
        await window.diffs.resolve(browser.opened[0].id, { accepted: false });
        await until(() => cli.outcomes().length === 1, 'the rejection');
        expect(cli.outcomes()).to.deep.equal(['rejected']);
        await cli.client.close();
    });

    it('closing the window tells a waiting proposal\'s session it was rejected before the endpoint goes', async () => {
        const cli = await connectCli(window);
        await cli.call('openDiff', { filePath: file, newContent: 'pending\n' });
        await window.stop();
        await until(() => cli.outcomes().length === 1, 'the rejection sent while the window closed');
        expect(cli.outcomes()).to.deep.equal(['rejected']);
        expect(logger.lines.filter(line => line.includes('could not be delivered'))).to.deep.equal([]);
        await cli.client.close().catch(() => undefined);
    });

    it('a window closing while it still opens the diff tells the session its proposal was rejected, before the endpoint goes', async () => {
        const cli = await connectCli(window);
        let show!: () => void;
        browser.openDiffHold = new Promise(resolve => show = resolve);
        const call = cli.call('openDiff', { filePath: file, newContent: 'slow\n' });
        await until(() => browser.opened.length === 1, 'the window asked to show the diff');
        const stopped = window.stop();
        show();
        await stopped;
        await call.catch(() => undefined);
        await until(() => cli.outcomes().length === 1, 'the rejection sent while the window closed');
        expect(cli.outcomes()).to.deep.equal(['rejected']);
        expect(logger.lines.filter(line => line.includes('could not be delivered'))).to.deep.equal([]);
        await cli.client.close().catch(() => undefined);
    });

    it('tries to tell nothing to a session that ended: its proposal closes without a delivery attempt', async () => {
        const cli = await connectCli(window);
        await cli.call('openDiff', { filePath: file, newContent: 'orphan\n' });
        await cli.client.close();
        await until(() => window.diffs.openDiffs.length === 0 && browser.closed.length === 1, 'the orphan closed');
        // The window's closing waits for every notification in flight: an attempt would be logged by then.
        await window.stop();
        expect(logger.lines.filter(line => /closed: its CLI session ended/.test(line))).to.have.length(1);
        expect(logger.lines.filter(line => line.includes('could not be delivered'))).to.deep.equal([]);
    });
});
