import { enableBrowserDom, UserScopeTestbed } from '@theia-cli-companion/ai-cli-core/lib/browser/test';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { ACP_BUILT_IN_AGENTS_PREF, ACP_SHARE_MCP_SERVERS_PREF, acpChatPreferenceSchema } from '../common/acp-chat-preferences';
import { AcpAgentSettings } from './acp-agent-settings';

disableDom();

describe('AcpAgentSettings', () => {
    let bed: UserScopeTestbed;
    let settings: AcpAgentSettings;

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    beforeEach(async () => {
        bed = new UserScopeTestbed([acpChatPreferenceSchema]);
        settings = new AcpAgentSettings(bed.executionSettings);
        await bed.ready();
    });

    const toldAbout = (preference: string) => bed.warnings.filter(warning => warning.includes(`"${preference}"`) && warning.includes('from your user settings only'));

    for (const scope of ['workspace', 'folder'] as const) {
        it(`keeps the user's MCP servers from an agent the user excluded, whatever the ${scope}'s shareMcpServers says, and tells the user`, async () => {
            await bed.set('user', ACP_SHARE_MCP_SERVERS_PREF, { Codex: false, '*': true });
            await bed.set(scope, ACP_SHARE_MCP_SERVERS_PREF, { Codex: true, Evil: true });
            // Theia merges an object's keys from every scope: a plain read (the code before) hands them to Codex.
            expect(bed.preferences.get(ACP_SHARE_MCP_SERVERS_PREF, {}, UserScopeTestbed.FOLDER)).to.include({ Codex: true });
            expect(settings.sharesMcpServersWith('Codex')).to.equal(false);
            expect(settings.sharesMcpServersWith('Gemini')).to.equal(true);
            expect(toldAbout(ACP_SHARE_MCP_SERVERS_PREF)).to.have.length(1);
        });

        it(`does not bring back the built-in agents the user turned off when the ${scope} turns them on, and tells the user`, async () => {
            await bed.set('user', ACP_BUILT_IN_AGENTS_PREF, false);
            await bed.set(scope, ACP_BUILT_IN_AGENTS_PREF, true);
            expect(bed.preferences.get(ACP_BUILT_IN_AGENTS_PREF, undefined, UserScopeTestbed.FOLDER), 'a plain read').to.equal(true);
            expect(settings.builtInAgents).to.equal(false);
            expect(toldAbout(ACP_BUILT_IN_AGENTS_PREF)).to.have.length(1);
        });
    }

    it('a workspace cannot take the user\'s MCP servers from every agent either: "*": false there is ignored', async () => {
        await bed.set('workspace', ACP_SHARE_MCP_SERVERS_PREF, { '*': false });
        expect(settings.sharesMcpServersWith('Gemini')).to.equal(true);
    });

    it('reads the user\'s own choices: an agent by name, else "*", else every agent; built-ins on by default', async () => {
        expect(settings.sharesMcpServersWith('Codex')).to.equal(true);
        expect(settings.builtInAgents).to.equal(true);
        await bed.set('user', ACP_SHARE_MCP_SERVERS_PREF, { '*': false, Gemini: true });
        expect(settings.sharesMcpServersWith('Codex')).to.equal(false);
        expect(settings.sharesMcpServersWith('Gemini')).to.equal(true);
        expect(bed.warnings).to.deep.equal([]);
    });
});
