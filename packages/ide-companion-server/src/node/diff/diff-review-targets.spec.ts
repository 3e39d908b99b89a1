import { expect } from 'chai';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GeminiCliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { connectTestClient, TestClient } from '../test/mcp-test-client';
import { RecordingLogger } from '../test/recording-logger';
import { RecordingWindow } from '../test/recording-window';
import { WindowServer } from '../window-server';
import { createWindowServer } from '../window-server-module';

/**
 * What openDiff will not show, whatever a CLI asks: anything in the workspace that is not a regular
 * file (a named pipe would hang the read, a device is no text), and a link to a device outside.
 */
describe('openDiff refuses special files', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    let workspace: string;
    let window: WindowServer;
    let browser: RecordingWindow;
    let cli: TestClient;

    const openDiff = async (filePath: string) => {
        const result = await cli.client.callTool({ name: 'openDiff', arguments: { filePath, newContent: 'x\n' } }) as CallToolResult;
        return { isError: result.isError === true, text: (result.content[0] as { text: string }).text };
    };

    beforeEach(async () => {
        home = useTemporaryHome();
        workspace = path.join(home.dir, 'ws');
        fs.mkdirSync(workspace);
        window = createWindowServer({
            windowId: '00000000-0000-4000-8000-0000000d1ff5', flavours: [GeminiCliFlavour], logger: new RecordingLogger(), serverPid: process.pid, streamGraceMs: 200
        });
        await window.start([workspace]);
        browser = new RecordingWindow();
        window.attachFrontend(browser);
        cli = await connectTestClient(window.server.port, window.endpointFor('gemini').authToken);
    });

    afterEach(async () => {
        await cli.client.close();
        await window.stop();
        home.restore();
    });

    it('a named pipe inside the workspace: refused at once, never opened', async () => {
        const fifo = path.join(workspace, 'pipe.txt');
        expect(spawnSync('mkfifo', [fifo]).status).to.equal(0);
        expect(await openDiff(fifo)).to.deep.equal({ isError: true, text: `${fifo} is not a regular file` });
        expect(browser.opened).to.deep.equal([]);
    });

    it('a character device inside the workspace (a copy of /dev/null, made as root)', async function (): Promise<void> {
        const device = path.join(workspace, 'null.txt');
        if (spawnSync('mknod', [device, 'c', '1', '3']).status !== 0) {
            // mknod needs root (CI runs as root) and a file system that allows device nodes.
            this.skip();
        }
        expect(fs.statSync(device).isCharacterDevice()).to.equal(true);
        expect(await openDiff(device)).to.deep.equal({ isError: true, text: `${device} is not a regular file` });
        expect(browser.opened).to.deep.equal([]);
    });

    it('a link in the workspace to a device outside it', async () => {
        const link = path.join(workspace, 'zero.txt');
        fs.symlinkSync('/dev/zero', link);
        const answer = await openDiff(link);
        expect(answer.isError).to.equal(true);
        expect(answer.text).to.match(/outside the workspace folders/);
        expect(browser.opened).to.deep.equal([]);
    });
});
