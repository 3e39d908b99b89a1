import { expect } from 'chai';
import * as http from 'http';
import { AddressInfo } from 'net';
import { Container, injectable } from '@theia/core/shared/inversify';
import { bindContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { ILogger } from '@theia/core/lib/common/logger';
import { RecordingLogger } from '@theia-cli-companion/ide-companion-server/lib/node/test';
import { KeepAwakeClient, KeepAwakeState } from '../../common/keep-awake-protocol';
import { AgentWorkRegistry } from './agent-work-registry';
import { KeepAwakeService } from './keep-awake-service';
import { TheiaCloudSessionReporter, theiaCloudSessionOf } from './theia-cloud-session-reporter';
import { WindowCommandReporter } from './window-command-reporter';
import { WorkspaceActivityReporter } from './workspace-activity-reporter';

/** Time passes 100 times faster: an interval of 5 "seconds" is 50 ms. */
@injectable()
class FastKeepAwakeService extends KeepAwakeService {
    protected override readonly secondMs = 10;
}

/** A window as the backend sees it over RPC: it runs its activity commands and is told the state. */
class Window implements KeepAwakeClient {
    readonly reasons: string[] = [];
    readonly states: KeepAwakeState[] = [];
    constructor(protected readonly mechanisms: string[] = ['Theia Cloud monitor command']) { }
    async reportActivity(reason: string): Promise<string[]> {
        this.reasons.push(reason);
        return this.mechanisms;
    }
    stateChanged(state: KeepAwakeState): void {
        this.states.push(state);
    }
}

/** Theia Cloud's service, as far as session activity goes: it records each request. */
async function startTheiaCloudService(status = 200): Promise<{ url: string; requests: { method: string; path: string; body: unknown }[]; close(): Promise<void> }> {
    const requests: { method: string; path: string; body: unknown }[] = [];
    const server = http.createServer((req, res) => {
        let body = '';
        req.on('data', chunk => body += chunk);
        req.on('end', () => {
            requests.push({ method: req.method!, path: req.url!, body: JSON.parse(body || 'null') });
            res.writeHead(status).end();
        });
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/theia-cloud`;
    return { url, requests, close: () => new Promise(resolve => server.close(() => resolve())) };
}

const until = async (condition: () => boolean, what: string, timeoutMs = 2000) => {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
        if (Date.now() > deadline) {
            throw new Error(`Timed out waiting for ${what}`);
        }
        await new Promise(resolve => setTimeout(resolve, 5));
    }
};

describe('KeepAwakeService: activity is reported while an agent works, and only then', () => {
    const TOKEN = 'app-token-that-must-not-be-logged';
    let container: Container;
    let logger: RecordingLogger;
    const VARIABLES = ['THEIACLOUD_SERVICE_URL', 'THEIACLOUD_SESSION_NAME', 'THEIACLOUD_SERVICE_AUTH_TOKEN', 'THEIACLOUD_APP_ID'];
    let saved: Record<string, string | undefined>;

    const setUp = () => {
        container = new Container();
        logger = new RecordingLogger();
        container.bind(ILogger).toConstantValue(logger as unknown as ILogger);
        container.bind(AgentWorkRegistry).toSelf().inSingletonScope();
        bindContributionProvider(container.bind.bind(container), WorkspaceActivityReporter);
        container.bind(WindowCommandReporter).toSelf().inSingletonScope();
        container.bind(WorkspaceActivityReporter).toService(WindowCommandReporter);
        container.bind(TheiaCloudSessionReporter).toSelf().inSingletonScope();
        container.bind(WorkspaceActivityReporter).toService(TheiaCloudSessionReporter);
        container.bind(KeepAwakeService).to(FastKeepAwakeService).inSingletonScope();
        const service = container.get(KeepAwakeService);
        service.setIntervalSeconds(5);
        return { service, work: container.get(AgentWorkRegistry), windows: container.get(WindowCommandReporter) };
    };

    beforeEach(() => {
        saved = Object.fromEntries(VARIABLES.map(name => [name, process.env[name]]));
        VARIABLES.forEach(name => delete process.env[name]);
    });
    afterEach(() => {
        for (const [name, value] of Object.entries(saved)) {
            if (value === undefined) {
                delete process.env[name];
            } else {
                process.env[name] = value;
            }
        }
    });

    it('reports nothing while no agent works; at once when one starts, every interval while it works, and nothing after it ended', async () => {
        const { work, windows } = setUp();
        const window = new Window();
        windows.add(window);
        await new Promise(resolve => setTimeout(resolve, 120));
        expect(window.reasons, 'idle: nothing reported').to.deep.equal([]);

        const turn = work.begin('a chat turn with Gemini');
        await until(() => window.reasons.length >= 3, 'three reports while the turn works');
        expect(window.reasons[0]).to.equal('Theia CLI Companion: a chat turn with Gemini');
        turn.dispose();
        const reported = window.reasons.length;
        await new Promise(resolve => setTimeout(resolve, 150));
        expect(window.reasons.length, 'nothing after the turn ended').to.equal(reported);
        expect(window.states.at(-1)).to.deep.include({ work: [], mechanisms: ['Theia Cloud monitor command'] });
    });

    it('names everything that works, once each, and goes on until the last of it ends', async () => {
        const { service, work, windows } = setUp();
        const window = new Window();
        windows.add(window);
        const turn = work.begin('a chat turn with Gemini');
        const task = work.begin('an agent task in app');
        const second = work.begin('a chat turn with Gemini');
        expect(service.state().work).to.deep.equal(['a chat turn with Gemini', 'an agent task in app']);
        turn.dispose();
        task.dispose();
        expect(service.state().work).to.deep.equal(['a chat turn with Gemini']);
        const before = window.reasons.length;
        await until(() => window.reasons.length > before, 'a report while the second turn still works');
        second.dispose();
        expect(service.state().work).to.deep.equal([]);
    });

    it('with no window and no platform to tell, says so in its state; with several windows, each runs its commands', async () => {
        const { service, work, windows } = setUp();
        const turn = work.begin('a chat turn with Qwen');
        await until(() => service.state().lastReportAt !== undefined, 'the first report');
        expect(service.state()).to.deep.include({ mechanisms: [], backendMechanisms: [] });
        const [first, second] = [new Window(['Theia Cloud monitor command']), new Window(['the command my.activity'])];
        windows.add(first);
        windows.add(second);
        await until(() => first.reasons.length > 0 && second.reasons.length > 0, 'both windows to run their commands');
        await until(() => service.state().mechanisms.length === 2, 'both ways in the state');
        expect(service.state().mechanisms).to.have.members(['Theia Cloud monitor command', 'the command my.activity']);
        turn.dispose();
    });

    it('tells Theia Cloud\'s service of the session\'s activity, also with no window open, and never logs the app\'s token', async () => {
        const cloud = await startTheiaCloudService();
        Object.assign(process.env, { THEIACLOUD_SERVICE_URL: cloud.url, THEIACLOUD_SESSION_NAME: 'ws-ada-1', THEIACLOUD_SERVICE_AUTH_TOKEN: TOKEN });
        try {
            const { service, work } = setUp();
            expect(service.state().backendMechanisms).to.deep.equal([`Theia Cloud service (${new URL(cloud.url).origin}, session ws-ada-1)`]);
            const task = work.begin('an agent task in app');
            await until(() => cloud.requests.length >= 2, 'two reports to the service');
            task.dispose();
            expect(cloud.requests[0]).to.deep.equal({
                method: 'PATCH', path: '/theia-cloud/service/session', body: { kind: 'sessionActivityRequest', appId: TOKEN, sessionName: 'ws-ada-1' }
            });
            expect(service.state().mechanisms).to.deep.equal(['Theia Cloud service']);
            expect(logger.lines.join('\n')).not.to.include(TOKEN);
        } finally {
            await cloud.close();
        }
    });

    it('says why the service was not reached (an error status, nobody listening), once in the log, with no token', async () => {
        const cloud = await startTheiaCloudService(403);
        Object.assign(process.env, { THEIACLOUD_SERVICE_URL: cloud.url, THEIACLOUD_SESSION_NAME: 'ws-ada-1', THEIACLOUD_SERVICE_AUTH_TOKEN: TOKEN });
        try {
            const { service, work } = setUp();
            const task = work.begin('a chat turn with Claude');
            await until(() => cloud.requests.length >= 3, 'three refused reports');
            task.dispose();
            expect(service.state()).to.deep.include({ mechanisms: [], problem: 'Theia Cloud service answered HTTP 403' });
            expect(logger.lines.filter(line => line.includes('HTTP 403')), 'one warning, not one per interval').to.have.length(1);
        } finally {
            await cloud.close();
        }
        Object.assign(process.env, { THEIACLOUD_SERVICE_URL: cloud.url });
        const { service, work } = setUp();
        const task = work.begin('a chat turn with Claude');
        await until(() => service.state().problem !== undefined, 'the failed report');
        task.dispose();
        expect(service.state().problem).to.match(/^Theia Cloud service at http:\/\/127\.0\.0\.1:\d+ not reached: /);
        expect(logger.lines.join('\n')).not.to.include(TOKEN);
    });

    it('keeps the interval within its bounds, whatever a window sends', () => {
        const { service } = setUp();
        service.setIntervalSeconds(0.01);
        expect(service.state().intervalSeconds).to.equal(5);
        service.setIntervalSeconds(1e9);
        expect(service.state().intervalSeconds).to.equal(600);
        service.setIntervalSeconds(Number.NaN);
        expect(service.state().intervalSeconds).to.equal(60);
    });
});

describe('AgentWorkRegistry: work waiting for the user is not work', () => {
    it('leaves out the work of an owner while any of its waits is open, and only that owner\'s', () => {
        const work = new AgentWorkRegistry();
        const chat = work.begin('a chat turn with Gemini', 'chat-1');
        const task = work.begin('an agent task in app');
        const permission = work.waitForUser('chat-1');
        const question = work.waitForUser('chat-1');
        expect(work.current()).to.deep.equal(['an agent task in app']);
        permission.dispose();
        permission.dispose();
        expect(work.current(), 'one wait still open; a second dispose changes nothing').to.deep.equal(['an agent task in app']);
        question.dispose();
        expect(work.current()).to.deep.equal(['a chat turn with Gemini', 'an agent task in app']);
        chat.dispose();
        task.dispose();
        expect(work.current()).to.deep.equal([]);
    });
});

describe('theiaCloudSessionOf: the Theia Cloud session from the environment Theia Cloud gives its pods', () => {
    it('needs the service URL (http or https), the session name and the app\'s token (or the older app id)', () => {
        const env = { THEIACLOUD_SERVICE_URL: 'https://service.example.com', THEIACLOUD_SESSION_NAME: 's', THEIACLOUD_SERVICE_AUTH_TOKEN: 't' };
        expect(theiaCloudSessionOf(env)).to.deep.include({ sessionName: 's', appToken: 't' });
        expect(theiaCloudSessionOf({ ...env, THEIACLOUD_SERVICE_AUTH_TOKEN: undefined, THEIACLOUD_APP_ID: 'old' })).to.deep.include({ appToken: 'old' });
        expect(theiaCloudSessionOf({ ...env, THEIACLOUD_SESSION_NAME: '' })).to.equal(undefined);
        expect(theiaCloudSessionOf({ ...env, THEIACLOUD_SERVICE_URL: 'file:///etc/passwd' })).to.equal(undefined);
        expect(theiaCloudSessionOf({ ...env, THEIACLOUD_SERVICE_URL: 'not a url' })).to.equal(undefined);
        expect(theiaCloudSessionOf({})).to.equal(undefined);
    });
});
