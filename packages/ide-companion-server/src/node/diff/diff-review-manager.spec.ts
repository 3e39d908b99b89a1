import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { connectTestClient, TestClient, until } from '../test/mcp-test-client';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GeminiCliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { toRpcText } from '../../common/rpc-text';
import { WindowServer } from '../window-server';
import { createWindowServer } from '../window-server-module';
import { RecordingLogger } from '../test/recording-logger';
import { RecordingWindow } from '../test/recording-window';

interface Cli extends TestClient { call(name: string, args: unknown): Promise<CallToolResult> }

async function connectCli(window: WindowServer): Promise<Cli> {
    const connected = await connectTestClient(window.server.port, window.endpointFor('gemini').authToken, 'spec-cli', '1.0.0');
    return { ...connected, call: (name, args) => connected.client.callTool({ name, arguments: args as Record<string, unknown> }) as Promise<CallToolResult> };
}

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('DiffReviewManager', () => {
    let root: string;
    let home: ReturnType<typeof useTemporaryHome>;
    let window: WindowServer;
    let browser: RecordingWindow;
    let file: string;

    beforeEach(async () => {
        home = useTemporaryHome();
        root = home.dir;
        fs.mkdirSync(path.join(root, 'ws', 'dir'), { recursive: true });
        file = path.join(root, 'ws', 'a.txt');
        fs.writeFileSync(file, 'old\n');
        window = createWindowServer({
            windowId: '00000000-0000-4000-8000-000000000001', flavours: [GeminiCliFlavour], logger: new RecordingLogger(), serverPid: process.pid, streamGraceMs: 200
        });
        await window.start([path.join(root, 'ws')]);
        browser = new RecordingWindow();
        window.attachFrontend(browser);
    });

    afterEach(async () => {
        await window.stop();
        home.restore();
    });

    it('lists openDiff and closeDiff with input schemas', async () => {
        const cli = await connectCli(window);
        const tools = await cli.client.listTools();
        expect(tools.tools.map(tool => tool.name)).to.include.members(['closeDiff', 'openDiff']);
        const openDiff = tools.tools.find(tool => tool.name === 'openDiff')!;
        expect(openDiff.inputSchema.required).to.deep.equal(['filePath', 'newContent']);
        await cli.client.close();
    });

    it('opens the diff in the window and routes the user\'s answer to the session that asked, once', async () => {
        const cli = await connectCli(window);
        const result = await cli.call('openDiff', { filePath: file, newContent: 'new\n' });
        expect(result).to.deep.equal({ content: [] });
        expect(browser.opened).to.have.length(1);
        expect(browser.opened[0]).to.include({ fileExists: true, newContent: 'new\n', proposedBy: 'Gemini CLI (spec-cli 1.0.0)' });
        expect(window.status.pendingDiffs.map(diff => diff.filePath)).to.deep.equal([file]);
        await window.diffs.resolve(browser.opened[0].id, { accepted: true, content: toRpcText('new, edited\n') });
        await window.diffs.resolve(browser.opened[0].id, { accepted: false });
        expect(window.status.pendingDiffs).to.deep.equal([]);
        await until(() => cli.notifications.length === 1);
        await new Promise(resolve => setTimeout(resolve, 100));
        expect(cli.notifications).to.deep.equal([{ method: 'ide/diffAccepted', params: { filePath: file, content: 'new, edited\n' } }]);
        await cli.client.close();
    });

    it('replaces an open diff of the same file from the same session and tells that session it was rejected', async () => {
        const cli = await connectCli(window);
        await cli.call('openDiff', { filePath: file, newContent: 'one\n' });
        await cli.call('openDiff', { filePath: file, newContent: 'two\n' });
        await until(() => cli.notifications.length === 1);
        expect(cli.notifications[0]).to.deep.equal({ method: 'ide/diffRejected', params: { filePath: file } });
        expect(browser.closed).to.deep.equal([browser.opened[0].id]);
        expect(window.diffs.openDiffs.map(diff => diff.id)).to.deep.equal([browser.opened[1].id]);
        await cli.client.close();
    });

    it('keeps another session\'s proposal for the same file: both wait, each settles on its own answer', async () => {
        const first = await connectCli(window);
        const second = await connectCli(window);
        await first.call('openDiff', { filePath: file, newContent: 'one\n' });
        await second.call('openDiff', { filePath: file, newContent: 'two\n' });
        expect(browser.closed, 'the first session\'s review stays open').to.deep.equal([]);
        expect(window.diffs.openDiffs.map(diff => [diff.id, diff.sessionId])).to.deep.equal([
            [browser.opened[0].id, first.transport.sessionId], [browser.opened[1].id, second.transport.sessionId]
        ]);
        expect(browser.opened.map(proposal => proposal.id)).to.satisfy((ids: string[]) => ids[0] !== ids[1]);
        await window.diffs.resolve(browser.opened[1].id, { accepted: true, content: toRpcText('two\n') });
        await until(() => second.notifications.length === 1);
        expect(second.notifications[0]).to.deep.equal({ method: 'ide/diffAccepted', params: { filePath: file, content: 'two\n' } });
        expect(first.notifications, 'the other session\'s answer is not the first\'s').to.deep.equal([]);
        expect(window.diffs.openDiffs.map(diff => diff.sessionId)).to.deep.equal([first.transport.sessionId]);
        await window.diffs.resolve(browser.opened[0].id, { accepted: false });
        await until(() => first.notifications.length === 1);
        expect(first.notifications[0]).to.deep.equal({ method: 'ide/diffRejected', params: { filePath: file } });
        expect(second.notifications).to.have.length(1);
        await first.client.close();
        await second.client.close();
    });

    it('answers closeDiff with the right side\'s text, notifying only without suppressNotification', async () => {
        const cli = await connectCli(window);
        await cli.call('openDiff', { filePath: file, newContent: 'x\n' });
        browser.rightSide.set(browser.opened[0].id, 'x, edited\n');
        const closed = await cli.call('closeDiff', { filePath: file, suppressNotification: true });
        expect(JSON.parse(text(closed))).to.deep.equal({ content: 'x, edited\n' });
        await cli.call('openDiff', { filePath: file, newContent: 'y\n' });
        const closedLoudly = await cli.call('closeDiff', { filePath: file });
        expect(JSON.parse(text(closedLoudly))).to.deep.equal({ content: 'y\n' });
        await until(() => cli.notifications.length === 1);
        expect(cli.notifications[0].method).to.equal('ide/diffRejected');
        const none = await cli.call('closeDiff', { filePath: file });
        expect(JSON.parse(text(none))).to.deep.equal({ content: null });
        await cli.client.close();
    });

    it('closeDiff from one session neither returns nor closes another session\'s proposal', async () => {
        const proposer = await connectCli(window);
        const other = await connectCli(window);
        await proposer.call('openDiff', { filePath: file, newContent: 'from the proposer\n' });
        const closed = await other.call('closeDiff', { filePath: file });
        expect(closed.isError).to.not.equal(true);
        expect(JSON.parse(text(closed))).to.deep.equal({ content: null });
        expect(browser.closed).to.deep.equal([]);
        expect(window.diffs.openDiffs.map(diff => diff.sessionId)).to.deep.equal([proposer.transport.sessionId]);
        expect(proposer.notifications).to.deep.equal([]);
        const own = await proposer.call('closeDiff', { filePath: file, suppressNotification: true });
        expect(JSON.parse(text(own))).to.deep.equal({ content: 'from the proposer\n' });
        await proposer.client.close();
        await other.client.close();
    });

    it('logs a proposed file name without control characters', async () => {
        const logger = new RecordingLogger();
        await window.stop();
        window = createWindowServer({ windowId: '00000000-0000-4000-8000-000000000002', flavours: [GeminiCliFlavour], logger, serverPid: process.pid, streamGraceMs: 200 });
        await window.start([path.join(root, 'ws')]);
        window.attachFrontend(browser);
        const cli = await connectCli(window);
        const forged = path.join(root, 'ws', 'new\nINFO Diff accepted\u001b[2K.txt');
        expect(await cli.call('openDiff', { filePath: forged, newContent: 'x\n' })).to.deep.equal({ content: [] });
        await cli.call('openDiff', { filePath: path.join(root, 'outside\n\u001b[31mforged.txt'), newContent: 'x\n' });
        const lines = logger.lines.filter(line => /Diff .* opened|Refused to show/.test(line));
        expect(lines).to.have.length(2);
        for (const line of lines) {
            expect(line).to.not.match(/[\u0000-\u001f\u007f-\u009f]/);
        }
        await cli.client.close();
    });

    it('keeps several diffs from different sessions and files apart, multi-MB content intact', async () => {
        const other = path.join(root, 'ws', 'b.txt');
        const big = '\uFEFF' + 'ü😀\r\n'.repeat(700 * 1024);
        const first = await connectCli(window);
        const second = await connectCli(window);
        expect(await first.call('openDiff', { filePath: file, newContent: big })).to.deep.equal({ content: [] });
        expect(await second.call('openDiff', { filePath: other, newContent: 'b\n' })).to.deep.equal({ content: [] });
        expect(browser.opened.map(proposal => proposal.newContent.length)).to.deep.equal([big.length, 2]);
        expect(browser.opened[1].fileExists).to.equal(false);
        await window.diffs.resolve(browser.opened[1].id, { accepted: false });
        await window.diffs.resolve(browser.opened[0].id, { accepted: true, content: toRpcText(big) });
        await until(() => first.notifications.length === 1 && second.notifications.length === 1);
        expect(second.notifications[0]).to.deep.equal({ method: 'ide/diffRejected', params: { filePath: other } });
        expect((first.notifications[0].params as { content: string }).content === big).to.equal(true);
        await first.client.close();
        await second.client.close();
    });

    it('refuses an accepted answer whose text is not RpcText, and keeps the diff waiting', async () => {
        const cli = await connectCli(window);
        await cli.call('openDiff', { filePath: file, newContent: 'x\n' });
        let error: Error | undefined;
        await window.diffs.resolve(browser.opened[0].id, { accepted: true, content: 'a plain string' as never }).catch(e => error = e);
        expect(error?.message).to.match(/bom: boolean, text: string/);
        expect(window.status.pendingDiffs).to.have.length(1);
        expect(cli.notifications).to.deep.equal([]);
        await cli.client.close();
    });

    it('closes the diffs of a session that disconnects', async () => {
        const cli = await connectCli(window);
        await cli.call('openDiff', { filePath: file, newContent: 'z\n' });
        await cli.client.close();
        await until(() => browser.closed.length === 1);
        expect(window.diffs.openDiffs).to.deep.equal([]);
    });

    it('refuses bad requests with a reason and opens nothing', async () => {
        const cli = await connectCli(window);
        fs.writeFileSync(path.join(root, 'ws', 'image.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
        const cases: [unknown, RegExp][] = [
            [{ filePath: 'relative.txt', newContent: 'x' }, /must be absolute/],
            [{ filePath: path.join(root, 'outside.txt'), newContent: 'x' }, /outside the workspace folders/],
            [{ filePath: path.join(root, 'ws', 'dir'), newContent: 'x' }, /is a directory/],
            [{ filePath: path.join(root, 'ws', 'image.bin'), newContent: 'x' }, /binary file/],
            [{ filePath: file }, /newContent/],
            [{ filePath: file, newContent: 'x', extra: 1 }, /extra|Unrecognized/i],
            [{ filePath: file, newContent: 42 }, /newContent/]
        ];
        for (const [args, reason] of cases) {
            const result = await cli.call('openDiff', args);
            expect(result.isError, JSON.stringify(args)).to.equal(true);
            expect(text(result), JSON.stringify(args)).to.match(reason);
        }
        window.attachFrontend(undefined);
        const away = await cli.call('openDiff', { filePath: file, newContent: 'x' });
        expect(text(away)).to.match(/window of this session is not open/);
        expect(browser.opened).to.deep.equal([]);
        await cli.client.close();
    });

    it('refuses a "new file" that is a dangling link to outside the workspace, and shows one that lands inside', async () => {
        // An untrusted repository can carry such a link: accepting the "new file" would write through it.
        const outsideTarget = path.join(root, 'home', '.ssh', 'authorized_keys');
        fs.mkdirSync(path.dirname(outsideTarget), { recursive: true });
        const notes = path.join(root, 'ws', 'notes.md');
        fs.symlinkSync('../home/.ssh/authorized_keys', notes);
        const cli = await connectCli(window);
        const refused = await cli.call('openDiff', { filePath: notes, newContent: 'ssh-ed25519 AAAA attacker\n' });
        expect(refused.isError).to.equal(true);
        expect(text(refused)).to.equal(`${notes} is outside the workspace folders (${path.join(root, 'ws')}) (it leads to ${outsideTarget}); refusing to show a change to it`);
        expect(browser.opened).to.deep.equal([]);
        expect(fs.existsSync(outsideTarget), 'nothing created outside').to.equal(false);

        const later = path.join(root, 'ws', 'later.md');
        fs.symlinkSync('dir/later.md', later);
        expect(await cli.call('openDiff', { filePath: later, newContent: 'fine\n' })).to.deep.equal({ content: [] });
        expect(browser.opened.map(opened => opened.fileExists)).to.deep.equal([false]);
        await cli.client.close();
    });
});
