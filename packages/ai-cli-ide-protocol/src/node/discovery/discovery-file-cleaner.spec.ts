import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { GeminiCliFlavour } from './gemini-cli-flavour';
import { QwenCodeFlavour } from './qwen-code-flavour';
import { removeStaleDiscoveryFiles } from './discovery-file-cleaner';
import { deadPid, useTemporaryHome } from '../test/temporary-home';
import { DiscoveryEndpoint } from './cli-flavour';

describe('removeStaleDiscoveryFiles', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    beforeEach(() => home = useTemporaryHome());
    afterEach(() => home.restore());

    function place(dir: string, name: string, body: string | object): string {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        const file = path.join(dir, name);
        fs.writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body), { mode: 0o600 });
        return file;
    }
    const endpoint = (serverPid: number, port: number): DiscoveryEndpoint => ({ port, authToken: 't', workspaceRoots: ['/w'], serverPid });

    it('removes Gemini files of dead companions and keeps live, foreign and corrupt ones', async () => {
        const dir = GeminiCliFlavour.discoveryDirectory();
        const dead = deadPid();
        const stale = place(dir, `gemini-ide-server-${dead}-1000.json`, GeminiCliFlavour.discoveryFileContent(endpoint(dead, 1000)));
        const live = place(dir, `gemini-ide-server-1-1001.json`, GeminiCliFlavour.discoveryFileContent(endpoint(1, 1001)));
        const foreign = place(dir, `gemini-ide-server-${dead}-1002.json`, { port: 1002, workspacePath: '/w', authToken: 't', ideInfo: { name: 'vscode', displayName: 'VS Code' } });
        const corrupt = place(dir, `gemini-ide-server-${dead}-1003.json`, '{"port":');
        const unrelated = place(dir, 'notes.txt', 'hello');

        const removed = await removeStaleDiscoveryFiles(GeminiCliFlavour, process.pid);

        expect(removed.map(r => r.file)).to.deep.equal([stale]);
        expect(removed[0].reason).to.contain(String(dead));
        for (const kept of [live, foreign, corrupt, unrelated]) {
            expect(fs.existsSync(kept), kept).to.equal(true);
        }
    });

    it('treats files carrying its own PID as left by an earlier process, unless the port is live', async () => {
        const dir = GeminiCliFlavour.discoveryDirectory();
        const earlier = place(dir, `gemini-ide-server-${process.pid}-2000.json`, GeminiCliFlavour.discoveryFileContent(endpoint(process.pid, 2000)));
        const current = place(dir, `gemini-ide-server-${process.pid}-2001.json`, GeminiCliFlavour.discoveryFileContent(endpoint(process.pid, 2001)));
        await removeStaleDiscoveryFiles(GeminiCliFlavour, process.pid, new Set([2001]));
        expect(fs.existsSync(earlier)).to.equal(false);
        expect(fs.existsSync(current)).to.equal(true);
    });

    it('removes Qwen locks whose ppid is dead and unfinished temporary files of dead writers', async () => {
        const dir = QwenCodeFlavour.discoveryDirectory();
        const dead = deadPid();
        const stale = place(dir, '3000.lock', QwenCodeFlavour.discoveryFileContent(endpoint(dead, 3000)));
        const live = place(dir, '3001.lock', QwenCodeFlavour.discoveryFileContent(endpoint(1, 3001)));
        const temporary = place(dir, `.3002.lock.${dead}-0123456789ab.tmp`, 'partial');
        const removed = await removeStaleDiscoveryFiles(QwenCodeFlavour, process.pid);
        expect(removed.map(r => r.file).sort()).to.deep.equal([stale, temporary].sort());
        expect(fs.existsSync(live)).to.equal(true);
    });

    it('does nothing when the directory does not exist', async () => {
        expect(await removeStaleDiscoveryFiles(QwenCodeFlavour, process.pid)).to.deep.equal([]);
    });
});
