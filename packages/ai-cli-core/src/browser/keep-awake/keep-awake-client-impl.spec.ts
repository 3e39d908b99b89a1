import { enableBrowserDom, UserScopeTestbed } from '../test';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { CommandContribution, CommandRegistry } from '@theia/core/lib/common/command';
import { bindContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { ILogger } from '@theia/core/lib/common/logger';
import { ideCompanionPreferenceSchema, KEEP_AWAKE_COMMAND_PREF } from '../../common/ide-companion-preferences';
import { THEIA_CLOUD_ACTIVITY_COMMAND } from '../../common/keep-awake-protocol';
import { KeepAwakeClientImpl, THEIA_CLOUD_MONITOR_MECHANISM } from './keep-awake-client-impl';
import { describeKeepAwake } from './keep-awake-status-section';

disableDom();

describe('KeepAwakeClientImpl: the window\'s activity commands', () => {
    let bed: UserScopeTestbed;
    let client: KeepAwakeClientImpl;
    let commands: CommandRegistry;
    const calls: { command: string; reason: unknown }[] = [];

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    const register = (id: string, fail = false) => commands.registerCommand({ id }, {
        execute: (reason: unknown) => {
            calls.push({ command: id, reason });
            if (fail) {
                throw new Error('the monitor is gone');
            }
        }
    });

    beforeEach(async () => {
        calls.length = 0;
        bed = new UserScopeTestbed([ideCompanionPreferenceSchema]);
        bindContributionProvider(bed.container.bind.bind(bed.container), CommandContribution);
        bed.container.bind(CommandRegistry).toSelf().inSingletonScope();
        bed.container.rebind(ILogger).toConstantValue({ warn: async () => undefined, error: async () => undefined, info: async () => undefined } as unknown as ILogger);
        bed.container.bind(KeepAwakeClientImpl).toSelf().inSingletonScope();
        commands = bed.get(CommandRegistry);
        client = bed.get(KeepAwakeClientImpl);
        await bed.ready();
    });

    it('runs nothing where no platform registered its command and the user named none', async () => {
        expect(await client.reportActivity('Theia CLI Companion: a chat turn with Gemini')).to.deep.equal([]);
        expect(client.availableMechanisms()).to.deep.equal([]);
    });

    it('runs Theia Cloud\'s monitor command with the reason, when an extension registered it', async () => {
        register(THEIA_CLOUD_ACTIVITY_COMMAND);
        expect(client.availableMechanisms()).to.deep.equal([THEIA_CLOUD_MONITOR_MECHANISM]);
        expect(await client.reportActivity('Theia CLI Companion: a chat turn with Gemini')).to.deep.equal([THEIA_CLOUD_MONITOR_MECHANISM]);
        expect(calls).to.deep.equal([{ command: THEIA_CLOUD_ACTIVITY_COMMAND, reason: 'Theia CLI Companion: a chat turn with Gemini' }]);
    });

    it('runs the command the user\'s settings name, besides; never one a workspace names, and tells the user', async () => {
        register(THEIA_CLOUD_ACTIVITY_COMMAND);
        register('my.platform.activity');
        register('workbench.action.reloadWindow');
        await bed.set('user', KEEP_AWAKE_COMMAND_PREF, 'my.platform.activity');
        expect(await client.reportActivity('r')).to.deep.equal([THEIA_CLOUD_MONITOR_MECHANISM, 'the command my.platform.activity']);
        calls.length = 0;
        await bed.set('folder', KEEP_AWAKE_COMMAND_PREF, 'workbench.action.reloadWindow');
        await client.reportActivity('r');
        expect(calls.map(call => call.command)).to.deep.equal([THEIA_CLOUD_ACTIVITY_COMMAND, 'my.platform.activity']);
        expect(bed.warnings[0]).to.contain(`"${KEEP_AWAKE_COMMAND_PREF}"`);
    });

    it('goes on when a command is missing or fails: the others still run, and it says which ran', async () => {
        register(THEIA_CLOUD_ACTIVITY_COMMAND, true);
        await bed.set('user', KEEP_AWAKE_COMMAND_PREF, 'not.registered');
        expect(await client.reportActivity('r')).to.deep.equal([]);
        expect(calls).to.have.length(1);
    });
});

describe('describeKeepAwake: the status view\'s rows', () => {
    const idle = { work: [], intervalSeconds: 60, backendMechanisms: [], mechanisms: [] };

    it('shows nothing while no agent works (the section says the workspace may sleep)', () => {
        expect(describeKeepAwake(idle)).to.deep.equal([]);
    });

    it('shows each work with how the platform hears of it, or that nothing could tell it, and the last problem', () => {
        const working = { ...idle, work: ['a chat turn with Gemini', 'an agent task in app'], mechanisms: [THEIA_CLOUD_MONITOR_MECHANISM], lastReportAt: 1 };
        expect(describeKeepAwake(working).map(row => [row.label, row.detail])).to.deep.equal([
            ['Keeping the workspace awake for a chat turn with Gemini', 'Activity reported every 60 s through: Theia Cloud monitor command'],
            ['Keeping the workspace awake for an agent task in app', 'Activity reported every 60 s through: Theia Cloud monitor command']
        ]);
        const unheard = describeKeepAwake({ ...working, mechanisms: [], problem: 'Theia Cloud service answered HTTP 403' });
        expect(unheard[0].detail).to.match(/^No way to tell the platform was found here/);
        expect(unheard.at(-1)).to.deep.include({ label: 'Last report', detail: 'Theia Cloud service answered HTTP 403' });
    });
});
