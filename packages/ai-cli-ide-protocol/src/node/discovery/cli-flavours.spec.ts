import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { GeminiDiscoveryFileSchema, QwenLockFileSchema } from '../../common/discovery-files';
import { DiscoveryEndpoint } from './cli-flavour';
import { GeminiCliFlavour } from './gemini-cli-flavour';
import { QwenCodeFlavour, qwenHome } from './qwen-code-flavour';
import { ClaudeCodeFlavour } from './claude-code-flavour';
import { IDE_MODE_FLAVOURS } from './ide-mode-flavours';
import { useTemporaryHome } from '../test/temporary-home';
import { currentProcessIdentity } from '@theia-cli-companion/cli-process/lib/node';
import { privateTmpDirectory } from '@theia-cli-companion/safe-files/lib/node';

const endpoint: DiscoveryEndpoint = { port: 41234, authToken: 'secret-token', workspaceRoots: ['/work/a b', '/work/ü'], serverPid: 4242 };
const stdio = { command: '/usr/bin/node', args: ['/bridge.js', '--discovery', '/f'] };

describe('CLI flavours', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    beforeEach(() => home = useTemporaryHome());
    afterEach(() => home.restore());

    describe('Gemini CLI', () => {
        it('writes gemini-ide-server-<PID>-<PORT>.json under the standard <tmpdir>/gemini/ide when this user holds it, and says so', () => {
            expect(GeminiCliFlavour.discoveryDirectory()).to.equal(path.join(process.env.TMPDIR!, 'gemini', 'ide'));
            expect(GeminiCliFlavour.describeDiscoveryDirectory!()).to.match(/^the standard directory/);
            expect(GeminiCliFlavour.discoveryFileName(endpoint)).to.equal('gemini-ide-server-4242-41234.json');
        });

        it('advertises ideInfo, the joined roots and the stdio fallback, and records its writer', () => {
            const body = GeminiDiscoveryFileSchema.parse(GeminiCliFlavour.discoveryFileContent(endpoint, stdio));
            expect(body).to.deep.equal({
                port: 41234, workspacePath: '/work/a b:/work/ü', authToken: 'secret-token',
                ideInfo: { name: 'theia', displayName: 'Eclipse Theia' }, stdio, theiaCompanion: currentProcessIdentity()
            });
        });

        it('writes an empty workspacePath, never an empty segment, for a window without folders', () => {
            const body = GeminiCliFlavour.discoveryFileContent({ ...endpoint, workspaceRoots: [] }) as { workspacePath: string };
            expect(body.workspacePath).to.equal('');
            expect(() => GeminiCliFlavour.discoveryFileContent({ ...endpoint, workspaceRoots: ['/a', ''] })).to.throw(/absolute/);
            expect(() => GeminiCliFlavour.discoveryFileContent({ ...endpoint, workspaceRoots: ['/a:b'] })).to.throw(/delimiter/);
        });

        it('points terminals at the server by port and PID, with no TMPDIR: its file is where the CLI looks anyway', () => {
            expect(GeminiCliFlavour.terminalEnvironment(endpoint)).to.deep.equal({
                GEMINI_CLI_IDE_SERVER_PORT: '41234',
                GEMINI_CLI_IDE_WORKSPACE_PATH: '/work/a b:/work/ü',
                GEMINI_CLI_IDE_PID: '4242'
            });
        });

        it('recognises only its own files', () => {
            const ours = JSON.stringify(GeminiCliFlavour.discoveryFileContent(endpoint));
            expect(GeminiCliFlavour.ownedFile('gemini-ide-server-4242-41234.json', ours)).to.deep.equal({ pid: 4242, port: 41234, writer: currentProcessIdentity() });
            const vscode = JSON.stringify({ port: 1, workspacePath: '/w', authToken: 't', ideInfo: { name: 'vscode', displayName: 'VS Code' } });
            expect(GeminiCliFlavour.ownedFile('gemini-ide-server-1-1.json', vscode)).to.equal(undefined);
            expect(GeminiCliFlavour.ownedFile('gemini-ide-server-1-1.json', '{corrupt')).to.equal(undefined);
            expect(GeminiCliFlavour.ownedFile('gemini-ide-server-4242.json', ours)).to.equal(undefined);
        });
    });

    describe('Qwen Code', () => {
        it('writes <PORT>.lock under ~/.qwen/ide or $QWEN_HOME/ide', () => {
            expect(QwenCodeFlavour.discoveryDirectory()).to.equal(path.join(process.env.HOME!, '.qwen', 'ide'));
            process.env.QWEN_HOME = path.join(home.dir, 'q');
            expect(QwenCodeFlavour.discoveryDirectory()).to.equal(path.join(home.dir, 'q', 'ide'));
            expect(qwenHome({ HOME: '/h', QWEN_HOME: '~/custom' })).to.equal('/h/custom');
            expect(QwenCodeFlavour.discoveryFileName(endpoint)).to.equal('41234.lock');
        });

        it('advertises a live ppid, ideName and ideInfo, and records its writer', () => {
            const body = QwenLockFileSchema.parse(QwenCodeFlavour.discoveryFileContent(endpoint, stdio));
            expect(body).to.deep.equal({
                port: 41234, workspacePath: '/work/a b:/work/ü', authToken: 'secret-token', ppid: 4242,
                ideName: 'Eclipse Theia', ideInfo: { name: 'theia', displayName: 'Eclipse Theia' }, stdio, theiaCompanion: currentProcessIdentity()
            });
        });

        it('points terminals at the server by port', () => {
            expect(QwenCodeFlavour.terminalEnvironment(endpoint)).to.deep.equal({
                QWEN_CODE_IDE_SERVER_PORT: '41234',
                QWEN_CODE_IDE_WORKSPACE_PATH: '/work/a b:/work/ü'
            });
        });

        it('gives terminals the private TMPDIR, as Gemini CLI\'s flavour does, where the standard <tmpdir>/gemini is refused (its legacy files are read there)', () => {
            fs.symlinkSync(home.dir, path.join(process.env.TMPDIR!, 'gemini'));
            const tmp = { TMPDIR: privateTmpDirectory() };
            expect(QwenCodeFlavour.terminalEnvironment(endpoint)).to.include(tmp);
            expect(GeminiCliFlavour.terminalEnvironment(endpoint)).to.include(tmp);
            expect(GeminiCliFlavour.discoveryDirectory()).to.equal(path.join(privateTmpDirectory(), 'gemini', 'ide'));
        });

        it('recognises only its own locks', () => {
            const ours = JSON.stringify(QwenCodeFlavour.discoveryFileContent(endpoint));
            expect(QwenCodeFlavour.ownedFile('41234.lock', ours)).to.deep.equal({ pid: 4242, port: 41234, writer: currentProcessIdentity() });
            const vscode = JSON.stringify({ port: 1, workspacePath: '/w', authToken: 't', ppid: 1, ideName: 'VS Code' });
            expect(QwenCodeFlavour.ownedFile('1.lock', vscode)).to.equal(undefined);
            expect(QwenCodeFlavour.ownedFile('notes.txt', ours)).to.equal(undefined);
        });
    });

    describe('in a VS Code-API host (code-server, the Theia IDE\'s plugin host)', () => {
        const codeServer = { ...endpoint, ideInfo: { name: 'code-server', displayName: 'code-server' } };

        it('names the host, never "vscode", in every file, and still knows each file as its own', () => {
            const gemini = GeminiCliFlavour.discoveryFileContent(codeServer) as { ideInfo: unknown };
            expect(gemini.ideInfo).to.deep.equal({ name: 'code-server', displayName: 'code-server' });
            const qwen = QwenCodeFlavour.discoveryFileContent(codeServer) as { ideInfo: unknown; ideName: string };
            expect([qwen.ideInfo, qwen.ideName]).to.deep.equal([{ name: 'code-server', displayName: 'code-server' }, 'code-server']);
            expect((ClaudeCodeFlavour.discoveryFileContent(codeServer) as { ideName: string }).ideName).to.equal('code-server');
            for (const flavour of Object.values(IDE_MODE_FLAVOURS)) {
                const content = JSON.stringify(flavour.discoveryFileContent(codeServer));
                expect(flavour.ownedFile(flavour.discoveryFileName(codeServer), content), flavour.id).to.include({ pid: 4242, port: 41234 });
            }
        });

        it('leaves the official companions\' files alone: they record no writer', () => {
            const official = { port: 1, workspacePath: '/w', authToken: 't', ideInfo: { name: 'vscode', displayName: 'VS Code' } };
            expect(GeminiCliFlavour.ownedFile('gemini-ide-server-1-1.json', JSON.stringify(official))).to.equal(undefined);
            expect(QwenCodeFlavour.ownedFile('1.lock', JSON.stringify({ ...official, ppid: 1, ideName: 'VS Code' }))).to.equal(undefined);
        });
    });
});
