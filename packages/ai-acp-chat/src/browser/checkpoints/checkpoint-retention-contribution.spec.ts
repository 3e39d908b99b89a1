import { enableBrowserDom } from '@theia-cli-companion/ai-cli-core/lib/browser/test';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { Container } from '@theia/core/shared/inversify';
import { Emitter } from '@theia/core/lib/common/event';
import { ILogger } from '@theia/core/lib/common/logger';
import { MessageService } from '@theia/core/lib/common/message-service';
import { PreferenceChange, PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { AcpChatBackend } from '../../common/acp-chat-protocol';
import { CheckpointRetention } from '../../common/checkpoint-retention';
import { CheckpointRetentionContribution } from './checkpoint-retention-contribution';

disableDom();

describe('CheckpointRetentionContribution', () => {
    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    /** Per setting: the user's value and the workspace's. */
    let values: Record<string, { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }>;
    let sent: CheckpointRetention[];
    let warnings: string[];
    const changes = new Emitter<PreferenceChange>();

    function contribution(): CheckpointRetentionContribution {
        const container = new Container();
        container.bind(PreferenceService).toConstantValue({
            ready: Promise.resolve(),
            inspect: (name: string) => ({ preferenceName: name, ...values[name] }),
            onPreferenceChanged: changes.event
        } as unknown as PreferenceService);
        container.bind(AcpChatBackend).toConstantValue({ setCheckpointRetention: async (retention: CheckpointRetention) => { sent.push(retention); } } as AcpChatBackend);
        container.bind(MessageService).toConstantValue({ warn: async (message: string) => { warnings.push(message); } } as unknown as MessageService);
        const log = () => undefined;
        container.bind(ILogger).toConstantValue({ warn: log, info: log, error: log, debug: log } as unknown as ILogger);
        container.bind(CheckpointRetentionContribution).toSelf();
        return container.get(CheckpointRetentionContribution);
    }

    beforeEach(() => {
        values = {};
        sent = [];
        warnings = [];
    });

    it('sends the user\'s values, never the workspace\'s, at start and when one changes', async () => {
        values['aiCliCompanion.checkpoints.turnsPerChat'] = { globalValue: 20, workspaceValue: 1 };
        values['aiCliCompanion.checkpoints.maxStorageMegabytes'] = { workspaceFolderValue: 1024 * 1024 };
        const retention = contribution();
        retention.onStart();
        await new Promise(resolve => setTimeout(resolve, 0));
        expect(sent).to.deep.equal([{ turnsPerChat: 20, maxStorageMegabytes: 1024 }]);
        values['aiCliCompanion.checkpoints.maxStorageMegabytes'] = { globalValue: 256, workspaceValue: 16 };
        changes.fire({ preferenceName: 'aiCliCompanion.checkpoints.maxStorageMegabytes' } as PreferenceChange);
        await new Promise(resolve => setTimeout(resolve, 0));
        expect(sent[1]).to.deep.equal({ turnsPerChat: 20, maxStorageMegabytes: 256 });
        expect(warnings).to.deep.equal([]);
    });

    it('replaces a value out of bounds by its default, with one notice', () => {
        values['aiCliCompanion.checkpoints.turnsPerChat'] = { globalValue: 0 };
        values['aiCliCompanion.checkpoints.maxStorageMegabytes'] = { globalValue: 512 };
        const retention = contribution();
        expect(retention.retention()).to.deep.equal({ turnsPerChat: 100, maxStorageMegabytes: 512 });
        expect(retention.retention()).to.deep.equal({ turnsPerChat: 100, maxStorageMegabytes: 512 });
        expect(warnings).to.have.length(1);
        expect(warnings[0]).to.contain('aiCliCompanion.checkpoints.turnsPerChat');
    });
});
