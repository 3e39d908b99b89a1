import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GeminiCliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/discovery/gemini-cli-flavour';
import { QwenCodeFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/discovery/qwen-code-flavour';
import { WindowCompanion } from './window-companion';
import { RecordingLogger } from './test/recording-logger';

describe('WindowCompanion', () => {
    let root: string;
    let saved: Record<string, string | undefined>;
    let companion: WindowCompanion | undefined;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'window-companion-spec-')));
        saved = { TMPDIR: process.env.TMPDIR, HOME: process.env.HOME, QWEN_HOME: process.env.QWEN_HOME };
        process.env.TMPDIR = path.join(root, 'tmp');
        process.env.HOME = path.join(root, 'home');
        delete process.env.QWEN_HOME;
        fs.mkdirSync(process.env.TMPDIR);
        fs.mkdirSync(process.env.HOME);
    });
    afterEach(async () => {
        await companion?.stop();
        companion = undefined;
        for (const [key, value] of Object.entries(saved)) {
            if (value === undefined) {
                delete process.env[key];
            } else {
                process.env[key] = value;
            }
        }
        fs.rmSync(root, { recursive: true, force: true });
    });

    const create = (logger = new RecordingLogger()) => companion = new WindowCompanion({
        windowId: '00000000-0000-4000-8000-000000000000', flavours: [GeminiCliFlavour, QwenCodeFlavour], logger, serverPid: process.pid,
        stdioFor: file => ({ command: process.execPath, args: ['bridge.js', '--discovery', file] })
    });
    const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

    it('writes both discovery files on start, with realpath\'d roots and a stdio entry naming the file itself', async () => {
        const real = path.join(root, 'real project');
        fs.mkdirSync(real);
        const link = path.join(root, 'link');
        fs.symlinkSync(real, link);
        const window = create();
        await window.start([link]);
        const files = window.discoveryFilePaths;
        const gemini = read(files.get('gemini')!);
        expect(gemini.workspacePath).to.equal(real);
        expect(gemini.stdio.args).to.deep.equal(['bridge.js', '--discovery', files.get('gemini')]);
        expect(read(files.get('qwen')!).stdio.args[2]).to.equal(files.get('qwen'));
        expect(window.terminalEnvironment()).to.deep.equal({
            GEMINI_CLI_IDE_SERVER_PORT: String(window.server.port), GEMINI_CLI_IDE_WORKSPACE_PATH: real, GEMINI_CLI_IDE_PID: String(process.pid),
            QWEN_CODE_IDE_SERVER_PORT: String(window.server.port), QWEN_CODE_IDE_WORKSPACE_PATH: real
        });
    });

    it('rewrites the files when roots change, skipping roots that do not exist or contain the delimiter', async () => {
        const a = path.join(root, 'a');
        const b = path.join(root, 'b:c');
        fs.mkdirSync(a);
        fs.mkdirSync(b);
        const logger = new RecordingLogger();
        const window = create(logger);
        await window.start([a]);
        await window.setRoots([a, b, path.join(root, 'missing')]);
        expect(read(window.discoveryFilePaths.get('gemini')!).workspacePath).to.equal(a);
        expect(logger.lines.filter(line => line.startsWith('WARN'))).to.have.length(2);
        await window.setRoots([]);
        expect(read(window.discoveryFilePaths.get('qwen')!).workspacePath).to.equal('');
    });

    it('removes its files on stop', async () => {
        const window = create();
        await window.start([root]);
        const files = [...window.discoveryFilePaths.values()];
        expect(files.every(file => fs.existsSync(file))).to.equal(true);
        await window.stop();
        companion = undefined;
        expect(files.some(file => fs.existsSync(file))).to.equal(false);
    });

    it('refuses to write into a discovery directory owned by someone else', async function (): Promise<void> {
        if (process.getuid?.() !== 0) {
            this.skip();
        }
        const dir = path.join(process.env.TMPDIR!, 'gemini', 'ide');
        fs.mkdirSync(dir, { recursive: true });
        fs.chownSync(dir, 65534, 65534);
        const window = create();
        let error: Error | undefined;
        await window.start([root]).catch(e => error = e);
        expect(error?.message).to.match(/belongs to uid 65534/);
    });
});
