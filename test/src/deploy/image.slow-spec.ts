import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { CLAUDE_OFFLINE_ENV, claudeCodeConfig, FAKE_ANTHROPIC_API_KEY } from '../clis/claude-code-setup';
import { CLIENTS_ROOT } from '../clis/client-packages';
import { IdeProbe } from '../hosts/ide-probe';
import { podman, podmanRunDefaults, PodmanContainer } from '../hosts/podman-container';
import { REPO_ROOT } from '../hosts/theia-backend';
import { TheiaWindow } from '../hosts/theia-window';
import { until } from '../support/processes';
import { createSandbox, Sandbox } from '../support/sandbox';
import { BuiltImage, buildImage, IMAGE, IMAGE_REF } from './container-image';

const ARBITRARY_UID = 1000770000;
/**
 * Kubernetes (CRI-O, containerd) starts an arbitrary UID with no passwd entry; podman would add one
 * (`--passwd`, its default), with the working folder as its home. The tests run it as Kubernetes does.
 */
const AS_KUBERNETES_RUNS_IT = ['--user', `${ARBITRARY_UID}:0`, '--passwd=false'];
/** What a window's terminals get so that a CLI started there joins that window. */
const PORT_VARIABLES = ['GEMINI_CLI_IDE_SERVER_PORT', 'QWEN_CODE_IDE_SERVER_PORT', 'CLAUDE_CODE_SSE_PORT'];
const FIXTURES = path.join(REPO_ROOT, 'test', 'fixtures');
const CLIENT_MODULES = path.join(CLIENTS_ROOT, 'node_modules');

/** `podman run --rm <image> <command…>` with the given user and options: the output and exit code. */
async function runOnce(args: string[]): Promise<{ output: string; code: number }> {
    return podman(['run', '--rm', ...podmanRunDefaults(), ...args], 120_000)
        .then(output => ({ output, code: 0 }))
        .catch((error: { stdout?: string; stderr?: string; code?: number }) => ({ output: `${error.stdout ?? ''}${error.stderr ?? ''}`, code: error.code ?? -1 }));
}

/** Where each CLI looks for its discovery file, by the rules each applies to the environment it starts in. */
function discoveryDirectories(env: Record<string, string>): Record<'gemini' | 'qwen' | 'claude', string> {
    return {
        gemini: path.join(env.TMPDIR || '/tmp', 'gemini', 'ide'),
        qwen: path.join(env.QWEN_HOME || path.join(env.HOME, '.qwen'), 'ide'),
        claude: path.join(env.CLAUDE_CONFIG_DIR || path.join(env.HOME, '.claude'), 'ide')
    };
}

/**
 * The image as a platform runs it: a container of it with the IDE port published on the host's
 * loopback, a browser on that port, and what the tests reach inside (the real clients' packages and
 * probe scripts, read-only; the terminal's marker folder) mounted at the same paths.
 */
class ImageUnderTest {
    readonly sandbox: Sandbox = createSandbox();
    container!: PodmanContainer;
    window!: TheiaWindow;
    inside!: (containerPath: string) => string;

    constructor(protected readonly runOptions: string[] = []) { }

    async start(): Promise<void> {
        // The container's user writes the terminal's marker files here.
        fs.chmodSync(this.sandbox.tmp, 0o777);
        this.container = await PodmanContainer.start(IMAGE_REF, {
            runOptions: this.runOptions, publish: IMAGE.port,
            volumes: { [this.sandbox.tmp]: this.sandbox.tmp, [CLIENT_MODULES]: `${CLIENT_MODULES}:ro`, [FIXTURES]: `${FIXTURES}:ro` }
        });
        const url = await this.container.url(IMAGE.port);
        await until(async () => (await fetch(url).catch(() => undefined))?.ok, `the IDE to answer on ${url}`, 60_000, 250)
            .catch(async error => { throw new Error(`${error.message}\n${await this.container.logs()}`); });
        this.inside = await this.container.rootfs();
        this.window = await TheiaWindow.open(this.sandbox, url, undefined, { theiaConfig: this.inside(path.join(IMAGE.home, '.theia')) });
    }

    /** Waits for the companion's status item, opens a terminal, and returns its environment with the three port variables checked. */
    async terminalEnvironment(): Promise<Record<string, string>> {
        await this.window.waitForStatus(/CLI/, 30_000);
        await this.window.openTerminal();
        const env = await this.window.terminalEnvironment();
        for (const name of PORT_VARIABLES) {
            expect(env[name], name).to.match(/^\d+$/);
        }
        expect(env.HOME).to.equal(IMAGE.home);
        return env;
    }

    /** The real Gemini CLI IdeClient, run by the container's Node with a terminal's environment. */
    geminiClient(env: Record<string, string>): IdeProbe {
        return new IdeProbe('gemini', env, IMAGE.workspace, (argv, probeEnv, cwd) => this.container.spawnNode(argv, probeEnv, cwd, this.sandbox.root));
    }

    /** The files in each CLI's discovery folder inside the container. */
    discoveryFiles(env: Record<string, string>): Record<string, string[]> {
        return Object.fromEntries(Object.entries(discoveryDirectories(env)).map(([cli, dir]) => {
            const onHost = this.inside(dir);
            return [cli, fs.existsSync(onHost) ? fs.readdirSync(onHost) : []];
        }));
    }

    async dispose(): Promise<void> {
        await this.window?.close();
        await this.container?.dispose();
        this.sandbox.dispose();
    }
}

/**
 * The image `npm run image` builds (Debian base made here, Node, the pinned CLIs, the production app),
 * run with podman as Theia Cloud, Che and OpenShift run it: its default user, then an arbitrary UID
 * of gid 0; the real Gemini CLI IdeClient and the real `claude` inside it.
 */
describe('The container image, started as the platforms start it', function (): void {
    this.timeout(900_000);
    let built: BuiltImage;

    before(async () => {
        built = await buildImage();
        console.log(`        image ${built.ref}: ${built.megabytes} MB, built in ${built.seconds} s`);
    });

    it('is non-root (uid 101, gid 0), on port 3000 under tini, labelled, and holds no secret, cache or set-user-ID program', async () => {
        expect(built.ref).to.equal(IMAGE_REF);
        // Measured 2,459 MB (the CLIs' native binaries are 1.8 GB of it): a layer that doubles fails here.
        expect(built.megabytes).to.be.within(500, 3000);
        const [config] = JSON.parse(await podman(['image', 'inspect', IMAGE_REF]));
        expect(config.Config.User).to.equal(`${IMAGE.uid}:0`);
        expect(Object.keys(config.Config.ExposedPorts)).to.deep.equal([`${IMAGE.port}/tcp`]);
        expect(config.Config.Entrypoint).to.deep.equal(['/usr/bin/tini', '--', '/usr/local/bin/theia-cli-companion-entrypoint']);
        expect(config.Config.Labels).to.include({ 'org.opencontainers.image.version': IMAGE.tag, 'org.opencontainers.image.licenses': 'EPL-2.0' });
        expect(config.Config.Labels['org.opencontainers.image.revision']).to.match(/^[0-9a-f]{40}$/);
        expect(config.Config.Env, 'the CLIs sign in without a browser on the server').to.include('NO_BROWSER=1');
        const envNames = (config.Config.Env as string[]).map(entry => entry.split('=')[0]);
        expect(envNames.filter(name => /KEY|TOKEN|SECRET|PASSWORD|AUTH/i.test(name)), 'no credential in the image\'s environment').to.deep.equal([]);

        const { output, code } = await runOnce([IMAGE_REF, 'bash', '-c', [
            'echo "setuid: $(find / -xdev -type f -perm /6000 | tr "\\n" " ")"',
            'echo "credentials: $(find / -xdev \\( -name .npmrc -o -name .git-credentials -o -name .netrc -o -name "*.pem" -path "*/home/*" \\) | tr "\\n" " ")"',
            'echo "caches: $(ls -d /root/.npm /root/.cache /home/theia/.npm /home/theia/.cache 2>/dev/null | tr "\\n" " ")"',
            'echo "home: $(ls -A /home/theia | tr "\\n" " ")"'
        ].join('; ')]);
        expect(code, output).to.equal(0);
        expect(output).to.match(/^setuid: *$/m);
        expect(output).to.match(/^credentials: *$/m);
        expect(output).to.match(/^caches: *$/m);
        expect(output).to.match(/^home: \.bash_logout \.bashrc \.profile *$/m);
    });

    it('puts every pinned CLI on PATH, answering --version, with Node 20', async () => {
        const pinned = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test', 'package.json'), 'utf8')).devDependencies as Record<string, string>;
        const { output, code } = await runOnce([IMAGE_REF, 'bash', '-c',
            'for cli in node gemini qwen claude opencode copilot; do echo "$cli: $($cli --version 2>&1 | head -1)"; done;'
            + ' for adapter in claude-agent-acp codex-acp; do echo "$adapter: $(command -v $adapter)"; done']);
        expect(code, output).to.equal(0);
        expect(output).to.include(`node: ${process.version}`);
        expect(output).to.include(`gemini: ${pinned['@google/gemini-cli']}`);
        expect(output).to.include(`qwen: ${pinned['@qwen-code/qwen-code']}`);
        expect(output).to.include(`claude: ${pinned['@anthropic-ai/claude-code']} (Claude Code)`);
        expect(output).to.include(`opencode: ${pinned['opencode-ai']}`);
        expect(output).to.include(`copilot: GitHub Copilot CLI ${pinned['@github/copilot']}`);
        expect(output).to.match(/^claude-agent-acp: \/usr\/local\/bin\/claude-agent-acp$/m);
        expect(output).to.match(/^codex-acp: \/usr\/local\/bin\/codex-acp$/m);
    });

    it('the entrypoint: a UID without a passwd entry gets a name and a writable home; a read-only image says what is not writable', async () => {
        const user = AS_KUBERNETES_RUNS_IT;
        const named = await runOnce([...user, IMAGE_REF, 'bash', '-c',
            'echo "$(id -un) $HOME"; touch "$HOME/x" && echo home-writable; git config --global user.name tester && echo git-ok;'
            + ' echo "passwd: $(stat -c "%a %u" /etc/passwd), entries of this UID: $(grep -c ":$(id -u):" /etc/passwd)"']);
        expect(named.output, 'a name from nss_wrapper, the image\'s group-writable home').to.match(new RegExp(`^user-${ARBITRARY_UID} ${IMAGE.home}$`, 'm'));
        expect(named.output).to.include('home-writable').and.to.include('git-ok');
        expect(named.output, 'the name comes from nss_wrapper, /etc/passwd stays root\'s').to.include('passwd: 644 0, entries of this UID: 0');

        const podmanEntry = await runOnce(['--user', `${ARBITRARY_UID}:0`, IMAGE_REF, 'bash', '-c', 'echo "$(id -un) $HOME"']);
        expect(podmanEntry.output.trim(), 'podman\'s own passwd entry, whose home would be the workspace').to.equal(`${ARBITRARY_UID} ${IMAGE.home}`);

        const unwritableHome = await runOnce([...user, '--env', 'HOME=/proc/no-home', IMAGE_REF, 'bash', '-c', 'echo "$HOME"']);
        expect(unwritableHome.output.trim(), 'a HOME it cannot write is replaced').to.equal(IMAGE.home);

        const readOnly = await runOnce([...user, '--read-only', '--tmpfs', '/tmp', IMAGE_REF]);
        expect(readOnly.code, readOnly.output).to.equal(1);
        expect(readOnly.output).to.include(`the workspace ${IMAGE.workspace} is not writable by uid ${ARBITRARY_UID}`);
        const tmpHome = await runOnce([...user, '--read-only', '--tmpfs', '/tmp', IMAGE_REF, 'bash', '-c', 'echo "$HOME"']);
        expect(tmpHome.output.trim(), 'no writable home in the image: a private one under /tmp').to.match(new RegExp(`^/tmp/home-${ARBITRARY_UID}\\.\\w+$`));
    });

    describe('as its default user (uid 101)', () => {
        const ide = new ImageUnderTest();
        let env: Record<string, string>;
        before(() => ide.start());
        after(() => ide.dispose());

        it('serves the workbench through the published port, with the companion\'s status item; a terminal has the three port variables', async () => {
            env = await ide.terminalEnvironment();
        });

        it('runs every process as uid 101; only the IDE\'s port listens beyond 127.0.0.1, the companion\'s servers on 127.0.0.1', async () => {
            const processes = await ide.container.exec('ps -eo uid=,args=');
            const uids = processes.trim().split('\n').map(row => row.trim().split(/\s+/)[0]);
            expect([...new Set(uids)], processes).to.deep.equal([String(IMAGE.uid)]);
            const listening = await ide.container.listening();
            const open = listening.filter(socket => !['127.0.0.1', '::1'].includes(socket.address));
            expect(open.map(socket => socket.port), JSON.stringify(listening)).to.deep.equal([IMAGE.port]);
            const loopbackPorts = listening.filter(socket => socket.address === '127.0.0.1').map(socket => socket.port);
            for (const name of PORT_VARIABLES) {
                expect(loopbackPorts, name).to.include(Number(env[name]));
            }
        });

        it('the real Gemini CLI IdeClient inside the container connects with a terminal\'s environment; an openDiff accepted in the browser returns that text', async () => {
            await ide.container.exec(`printf 'one\\ntwo\\n' > ${IMAGE.workspace}/hello.txt`);
            const client = ide.geminiClient(env);
            try {
                const connected = await client.connected(60_000);
                expect(connected.status.status, JSON.stringify(connected)).to.equal('connected');
                expect(connected.ide?.displayName).to.equal('Eclipse Theia');
                // In a container Gemini CLI does not dial loopback: it starts the relay the discovery file names, from the app's node_modules.
                expect(connected.transport).to.equal('stdio');
                const file = path.posix.join(IMAGE.workspace, 'hello.txt');
                client.openDiff(file, 'one\nTWO\n');
                await ide.window.waitForDiff('hello.txt', 30_000);
                await ide.window.acceptDiff();
                const outcome = await client.diffOutcome('diff', file, 30_000);
                expect(outcome.result).to.deep.equal({ status: 'accepted', content: 'one\nTWO\n' });
            } finally {
                await client.close();
            }
        });

        it('the real claude inside the container finds its lock file and connects to the window', async () => {
            const config = claudeCodeConfig(IMAGE.workspace);
            await ide.container.exec('mkdir -p ~/.claude && cat > ~/.claude.json', { input: config.globalConfig });
            await ide.container.exec('cat > ~/.claude/settings.json', { input: config.settings });
            const lock = path.join(discoveryDirectories(env).claude, `${env.CLAUDE_CODE_SSE_PORT}.lock`);
            expect(JSON.parse(fs.readFileSync(ide.inside(lock), 'utf8'))).to.deep.include({ workspaceFolders: [IMAGE.workspace], ideName: 'Eclipse Theia' });
            // No model is reachable from the container (nothing listens on port 9): connecting to the IDE needs none.
            const offline = Object.entries({ ...CLAUDE_OFFLINE_ENV, ANTHROPIC_API_KEY: FAKE_ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' })
                .map(([name, value]) => `${name}=${value}`).join(' ');
            await ide.window.focusTerminal();
            await ide.window.page.keyboard.type(`${offline} claude --permission-mode default\n`);
            await ide.window.runCommand('CLI Companion: Show Status');
            const row = ide.window.page.locator('.ai-cli-companion-session', { hasText: 'Claude Code' });
            await row.waitFor({ timeout: 90_000 }).catch(async error => {
                throw new Error(`${error.message}; ${await ide.window.describeForFailure('image-claude')}\n${(await ide.container.logs()).slice(-3000)}`);
            });
            expect(await row.innerText()).to.match(/^Claude Code\s+claude-code 2\.1\.332/);
            await ide.window.closeEditor('CLI Companion');
        });

        it('podman stop ends it within 10 s with exit 0, and leaves no discovery file', async () => {
            expect(Object.values(ide.discoveryFiles(env)).flat(), 'the files were there while it ran').to.have.length.greaterThan(0);
            const stopped = await ide.container.stop(10);
            expect(stopped.exitCode, await ide.container.logs()).to.equal(0);
            expect(stopped.seconds).to.be.below(10);
            ide.inside = await ide.container.rootfs();
            expect(ide.discoveryFiles(env)).to.deep.equal({ gemini: [], qwen: [], claude: [] });
        });
    });

    describe(`as an arbitrary UID of gid 0 (${ARBITRARY_UID}:0, as OpenShift and Che run it)`, () => {
        const ide = new ImageUnderTest(AS_KUBERNETES_RUNS_IT);
        let env: Record<string, string>;
        before(() => ide.start());
        after(() => ide.dispose());

        it('serves the same workbench and terminal, as a named user with a writable home', async () => {
            env = await ide.terminalEnvironment();
            const marker = path.join(ide.sandbox.tmp, 'whoami');
            await ide.window.run(`echo "$(id -un) $(id -u) $(id -g)" > ${marker}; touch ${IMAGE.workspace}/written-by-any-uid`);
            expect(fs.readFileSync(marker, 'utf8').trim()).to.equal(`user-${ARBITRARY_UID} ${ARBITRARY_UID} 0`);
        });

        it('writes each CLI\'s discovery file where that CLI looks, private to the UID, and the real Gemini IdeClient connects', async () => {
            const files = ide.discoveryFiles(env);
            expect(files.gemini.filter(name => name.endsWith(`-${env.GEMINI_CLI_IDE_SERVER_PORT}.json`)), JSON.stringify(files)).to.have.length(1);
            expect(files.qwen, JSON.stringify(files)).to.include(`${env.QWEN_CODE_IDE_SERVER_PORT}.lock`);
            expect(files.claude, JSON.stringify(files)).to.include(`${env.CLAUDE_CODE_SSE_PORT}.lock`);
            const claudeLock = fs.statSync(ide.inside(path.join(discoveryDirectories(env).claude, `${env.CLAUDE_CODE_SSE_PORT}.lock`)));
            expect({ uid: claudeLock.uid, mode: claudeLock.mode & 0o777 }).to.deep.equal({ uid: ARBITRARY_UID, mode: 0o600 });
            const client = ide.geminiClient(env);
            try {
                const connected = await client.connected(60_000);
                expect(connected.status.status, JSON.stringify(connected)).to.equal('connected');
            } finally {
                await client.close();
            }
        });

        it('podman stop ends it within 10 s with exit 0, and leaves no discovery file', async () => {
            const stopped = await ide.container.stop(10);
            expect(stopped.exitCode, await ide.container.logs()).to.equal(0);
            expect(stopped.seconds).to.be.below(10);
            ide.inside = await ide.container.rootfs();
            expect(ide.discoveryFiles(env)).to.deep.equal({ gemini: [], qwen: [], claude: [] });
        });
    });
});
