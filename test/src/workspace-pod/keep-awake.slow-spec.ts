import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { composeApp } from '../hosts/composed-app';
import { MockTheiaCloudService } from '../mocks/mock-theia-cloud-service';
import { AcpChatTestbed } from '../support/acp-chat-testbed';
import { fakeAgent } from '../support/fake-acp-agent';
import { never, until } from '../support/processes';
import { updateTheiaSettings } from '../support/sandbox';

const THEIA_AI = ['@theia/ai-core', '@theia/ai-chat', '@theia/ai-chat-ui'];
const OURS = ['@theia-cli-companion/ai-cli-ide-companion', '@theia-cli-companion/ai-acp-chat', '@theia-cli-companion/ai-agent-tasks'];
const SESSION = 'ws-ada-keep-awake';
const APP_TOKEN = 'theia-cloud-app-token-for-the-test';
const REASON = 'Theia CLI Companion: a chat turn with Fake';
const SECTION = '.ai-cli-companion-section[data-section="keep-awake"]';

/**
 * A Theia Cloud session as the companion sees it: Theia Cloud's monitor command in the window (a
 * stand-in Theia extension that counts its calls, test/theia-cloud-monitor-stand-in) and Theia Cloud's
 * service in the backend's environment (a mock on loopback). While a chat turn of the scripted agent
 * runs, both hear of activity; before and after it, neither does, so the platform may still put an
 * idle workspace to sleep.
 */
describe('Keeping the workspace awake while an agent works: Theia Cloud\'s monitor command and service', function (): void {
    this.timeout(10 * 60_000);
    const cloud = new MockTheiaCloudService();
    let agentLog = '';
    before(() => cloud.start());
    after(() => cloud.stop());
    const bed = AcpChatTestbed.install({ 'notes.md': '# Notes\n' }, sandbox => {
        agentLog = path.join(sandbox.tmp, 'fake-agent.jsonl');
        Object.assign(sandbox.env, cloud.sessionEnvironment(SESSION, APP_TOKEN));
        updateTheiaSettings(sandbox, { 'aiCliCompanion.acp.agents': [fakeAgent('Fake', agentLog)] });
    }, undefined, () => composeApp('keep-awake', 'The browser-app with a stand-in of Theia Cloud\'s monitor command',
        [...THEIA_AI, ...OURS, '@theia-cli-companion/theia-cloud-monitor-stand-in']).main);

    const monitorReports = () => bed.window.page.evaluate(() => (window as unknown as { theiaCloudMonitorReports: { at: number; reason: string }[] })
        .theiaCloudMonitorReports.map(report => ({ at: report.at, reason: report.reason })));
    const reportCounts = async () => `${(await monitorReports()).length} monitor command calls and ${cloud.activityReports().length} service reports`;
    const statusSection = async () => {
        await bed.window.runCommand('CLI Companion: Show Status');
        const section = bed.window.page.locator(SECTION);
        await section.waitFor({ timeout: 20_000 });
        return section;
    };

    it('with the defaults: nothing while idle; at once when a 30 s turn starts, once a minute while it runs; nothing in the minute after it ended', async () => {
        await never(async () => (await monitorReports()).length + cloud.requests.length > 0 && await reportCounts(), 'nothing is reported while no agent works', 5000);

        const release = path.join(bed.sandbox.tmp, 'release-30s');
        const running = await bed.chat.send(`@Fake hold ${release}`, true);
        const started = Date.now();
        await until(async () => (await monitorReports()).length === 1 && cloud.activityReports().length === 1, 'the first report, at once', 20_000)
            .catch(async error => { throw new Error(`${error.message}: ${await reportCounts()}`); });
        expect((await monitorReports())[0].reason).to.equal(REASON);
        expect(cloud.activityReports()[0].body).to.deep.equal({ kind: 'sessionActivityRequest', appId: APP_TOKEN, sessionName: SESSION });

        const section = await statusSection();
        await until(async () => (await section.innerText()).includes('Keeping the workspace awake for a chat turn with Fake'), 'the status view to say so', 10_000);
        expect(await section.innerText()).to.match(/Activity reported every 60 s through: (Theia Cloud service, Theia Cloud monitor command|Theia Cloud monitor command, Theia Cloud service)/);

        // The turn runs 30 s: with a report a minute, none comes besides the first.
        await never(async () => (await monitorReports()).length > 1 && await reportCounts(), 'one report while a 30 s turn runs', 30_000 - (Date.now() - started));
        fs.writeFileSync(release, '');
        await bed.chat.finished(running);
        await until(async () => (await section.innerText()).includes('No agent is working'), 'the status view to say nothing keeps it awake', 10_000);
        await never(async () => ((await monitorReports()).length > 1 || cloud.activityReports().length > 1) && await reportCounts(),
            'nothing reported in the minute after the turn ended', 60_000);
        await bed.window.closeEditor('CLI Companion');
    });

    it('at the user\'s interval (5 s): a report every interval while the turn runs, in the diagnostic report too, and none after', async () => {
        await bed.window.changeSettings(bed.sandbox, { 'aiCliCompanion.keepAwake.intervalSeconds': 5 });
        const before = (await monitorReports()).length;
        const release = path.join(bed.sandbox.tmp, 'release-17s');
        const running = await bed.chat.send(`@Fake hold ${release}`, true);
        await until(async () => (await monitorReports()).length >= before + 4, 'four reports, 5 s apart', 30_000)
            .catch(async error => { throw new Error(`${error.message}: ${await reportCounts()}`); });
        const times = (await monitorReports()).slice(before).map(report => report.at);
        times.slice(1).forEach((at, index) => expect(at - times[index], 'the interval between reports').to.be.within(4000, 7000));

        await bed.window.runCommand('CLI Companion: Copy Diagnostic Report');
        const report = await until(async () => {
            const text = await bed.window.clipboardText();
            return text.includes('## Keeping the workspace awake') && text;
        }, 'the diagnostic report in the clipboard', 10_000);
        expect(report).to.contain('- Agents working: a chat turn with Fake');
        expect(report).to.contain(`- Ways to tell the platform: Theia Cloud service (${cloud.url}, session ${SESSION}), Theia Cloud monitor command`);
        expect(report).to.contain('- Interval: 5 s');
        expect(report, 'the app\'s token is no part of it').not.to.contain(APP_TOKEN);

        fs.writeFileSync(release, '');
        await bed.chat.finished(running);
        const after = await reportCounts();
        await never(async () => await reportCounts() !== after && await reportCounts(), 'nothing reported after the turn ended', 12_000);
    });
});
