import { fakeSettings } from './test/fake-vscode';

import { expect } from 'chai';
import { RecordingLogger } from '@theia-cli-companion/ide-companion-server/lib/node/test';
import { CompanionSettings } from './companion-settings';

describe('CompanionSettings (the .vsix)', () => {
    let logger: RecordingLogger;
    let settings: CompanionSettings;

    beforeEach(() => {
        fakeSettings.clear();
        logger = new RecordingLogger();
        settings = new CompanionSettings(logger);
    });

    for (const layer of ['workspaceValue', 'workspaceFolderValue'] as const) {
        it(`a repository's .vscode/settings.json cannot turn the companion or a CLI on (${layer}), and the log says it tried`, () => {
            fakeSettings.set('globalValue', 'aiCliCompanion.enabled', false);
            fakeSettings.set(layer, 'aiCliCompanion.enabled', true);
            fakeSettings.set('globalValue', 'aiCliCompanion.claude.enabled', false);
            fakeSettings.set(layer, 'aiCliCompanion.claude.enabled', true);
            expect(settings.enabled).to.equal(false);
            expect(settings.flavours).to.deep.equal(['gemini', 'qwen']);
            expect(settings.enabled).to.equal(false);
            const told = logger.lines.filter(line => line.startsWith('WARN') && line.includes('of this workspace ignored'));
            expect(told, 'once per setting').to.have.length(2);
            expect(told.join('\n')).to.contain('aiCliCompanion.enabled').and.contain('aiCliCompanion.claude.enabled');
        });
    }

    it('nor turn them off: what the user set, else on', () => {
        fakeSettings.set('workspaceValue', 'aiCliCompanion.enabled', false);
        fakeSettings.set('workspaceValue', 'aiCliCompanion.gemini.enabled', false);
        expect(settings.enabled).to.equal(true);
        expect(settings.flavours).to.deep.equal(['gemini', 'qwen', 'claude']);
        fakeSettings.set('globalValue', 'aiCliCompanion.gemini.enabled', false);
        expect(settings.flavours).to.deep.equal(['qwen', 'claude']);
    });

    it('runs the user\'s command only', () => {
        fakeSettings.set('globalValue', 'aiCliCompanion.gemini.command', '/opt/user/gemini');
        fakeSettings.set('workspaceFolderValue', 'aiCliCompanion.gemini.command', './evil.sh');
        expect(settings.commandLine('gemini')[0]).to.equal('/opt/user/gemini');
    });

    it('paces a CLI\'s proposals by the user\'s setting only: a repository cannot have them accepted unseen, and a bad value opens each', () => {
        fakeSettings.set('workspaceValue', 'aiCliCompanion.gemini.reviewPace', 'accept');
        expect(settings.reviewPace({ kind: 'cli', flavour: 'gemini' })).to.equal('open');
        fakeSettings.set('globalValue', 'aiCliCompanion.gemini.reviewPace', 'queue');
        expect(settings.reviewPace({ kind: 'cli', flavour: 'gemini' })).to.equal('queue');
        expect(settings.reviewPace({ kind: 'cli', flavour: 'qwen' }), 'another CLI').to.equal('open');
        fakeSettings.set('globalValue', 'aiCliCompanion.qwen.reviewPace', 'ACCEPT');
        expect(settings.reviewPace({ kind: 'cli', flavour: 'qwen' })).to.equal('open');
        expect(logger.lines.some(line => line.startsWith('WARN') && line.includes('aiCliCompanion.qwen.reviewPace ignored'))).to.equal(true);
        expect(settings.reviewPace({ kind: 'task' }), 'an origin with no pace').to.equal('open');
    });
});
