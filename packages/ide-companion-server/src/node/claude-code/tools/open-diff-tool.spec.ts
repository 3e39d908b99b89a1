import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { ClaudeCodeFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { toRpcText } from '../../../common';
import { ClaudeWire } from '../../test/claude-wire';
import { RecordingLogger } from '../../test/recording-logger';
import { RecordingWindow } from '../../test/recording-window';
import { until } from '../../test/mcp-test-client';
import { WindowServer } from '../../window-server';
import { createWindowServer } from '../../window-server-module';
import { claudeWindowModule } from '../claude-window-module';

/** How Claude Code's blocking openDiff answers each way its proposal settles (the answer comes in the call's own result). */
describe('Claude Code openDiff: the answer per settlement', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    let window: WindowServer;
    let frontend: RecordingWindow;
    let wire: ClaudeWire;
    let file: string;

    beforeEach(async () => {
        home = useTemporaryHome();
        const workspace = path.join(home.dir, 'project');
        fs.mkdirSync(workspace);
        file = path.join(fs.realpathSync(workspace), 'a.ts');
        fs.writeFileSync(file, 'const a = 1;\n');
        window = createWindowServer({
            windowId: '00000000-0000-4000-8000-00000000c1a1', flavours: [ClaudeCodeFlavour], logger: new RecordingLogger(), serverPid: process.pid
        }, undefined, [claudeWindowModule]);
        frontend = new RecordingWindow();
        window.attachFrontend(frontend);
        await window.start([workspace]);
        const lock = JSON.parse(fs.readFileSync(window.discoveryFilePaths.get('claude')!, 'utf8'));
        wire = await ClaudeWire.open(window.endpointOf('claude').port, { 'X-Claude-Code-Ide-Authorization': lock.authToken });
        await wire.handshake();
        await until(() => window.status.sessions.length === 1, 'the Claude session listed');
    });

    afterEach(async () => {
        wire.socket.terminate();
        await window.stop();
        home.restore();
    });

    /** Starts a blocking openDiff; resolves with the texts of its answer once it comes. */
    async function openDiff(tab: string, contents: string): Promise<{ answer: Promise<string[]> }> {
        const shownBefore = frontend.opened.length;
        const answer = wire.request('tools/call', { name: 'openDiff', arguments: { old_file_path: file, new_file_path: file, new_file_contents: contents, tab_name: tab } })
            .then(message => (message.result as { content: { text: string }[] }).content.map(block => block.text));
        await until(() => frontend.opened.length === shownBefore + 1, `the diff of ${tab} shown`);
        return { answer };
    }

    it('a newer openDiff for the same file ends the waiting one with DIFF_REJECTED; the newer one waits for its own answer', async () => {
        const older = await openDiff('tab-1', 'const a = 2;\n');
        const newer = await openDiff('tab-2', 'const a = 3;\n');
        expect(await older.answer).to.deep.equal(['DIFF_REJECTED', 'tab-1']);
        expect(window.diffs.openDiffs.map(diff => diff.tabName)).to.deep.equal(['tab-2']);
        await window.diffs.resolve(frontend.opened[1].id, { accepted: true, content: toRpcText('const a = 3; // kept\n') });
        expect(await newer.answer).to.deep.equal(['FILE_SAVED', 'const a = 3; // kept\n']);
    });

    it('close_tab ends that tab\'s waiting call with DIFF_REJECTED and nothing else; the window\'s rejection answers the same', async () => {
        const other = path.join(path.dirname(file), 'b.ts');
        const closing = await openDiff('tab-a', 'const a = 4;\n');
        const staying = wire.request('tools/call', { name: 'openDiff', arguments: { old_file_path: other, new_file_path: other, new_file_contents: 'b\n', tab_name: 'tab-b' } })
            .then(message => (message.result as { content: { text: string }[] }).content.map(block => block.text));
        await until(() => frontend.opened.length === 2, 'the second diff shown');
        expect((await wire.call('close_tab', { tab_name: 'tab-a' })).texts).to.deep.equal(['TAB_CLOSED']);
        expect(await closing.answer).to.deep.equal(['DIFF_REJECTED', 'tab-a']);
        expect(window.diffs.openDiffs.map(diff => diff.tabName)).to.deep.equal(['tab-b']);
        await window.diffs.resolve(frontend.opened[1].id, { accepted: false });
        expect(await staying).to.deep.equal(['DIFF_REJECTED', 'tab-b']);
    });
});
