import { enableBrowserDom, UserScopeTestbed } from './test';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { Disposable } from '@theia/core/lib/common/disposable';
import type { CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import type { WindowServerStatus } from '@theia-cli-companion/ide-companion-server/lib/common';
import { AttachWindowRequest, IdeCompanionBackend } from '../common/ide-companion-protocol';
import { bindIdeCompanionPreferences, COMPANION_ENABLED_PREF, flavourPreference, ideCompanionPreferenceSchema } from '../common/ide-companion-preferences';
import { WindowEditorClientImpl } from './window-editor-client-impl';
import { WindowServerService } from './window-server-service';

disableDom();

describe('WindowServerService', () => {
    let bed: UserScopeTestbed;
    let attached: CliFlavourId[][];

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    beforeEach(async () => {
        bed = new UserScopeTestbed([ideCompanionPreferenceSchema]);
        attached = [];
        bindIdeCompanionPreferences(bed.container.bind.bind(bed.container));
        bed.container.bind(IdeCompanionBackend).toConstantValue({
            attachWindow: async (request: AttachWindowRequest) => {
                attached.push([...request.flavours]);
                return { windowId: 'window-1', terminalEnvironment: {} } as unknown as WindowServerStatus;
            }
        } as unknown as IdeCompanionBackend);
        bed.container.bind(WindowEditorClientImpl).toConstantValue({ onDidChangeStatus: () => Disposable.NULL } as unknown as WindowEditorClientImpl);
        bed.container.bind(WindowServerService).toSelf().inSingletonScope();
        await bed.ready();
    });

    const told = (preference: string) => bed.warnings.filter(warning => warning.includes(`"${preference}"`) && warning.includes('from your user settings only'));

    for (const scope of ['workspace', 'folder'] as const) {
        it(`a repository's settings (${scope}) cannot turn the companion on when the user turned it off, and the user is told`, async () => {
            await bed.set('user', COMPANION_ENABLED_PREF, false);
            await bed.set(scope, COMPANION_ENABLED_PREF, true);
            const service = bed.get(WindowServerService);
            expect(await service.whenSettled()).to.equal(undefined);
            expect(service.state.kind).to.equal('disabled');
            expect(attached, 'no server started').to.deep.equal([]);
            expect(told(COMPANION_ENABLED_PREF)).to.have.length(1);
        });

        it(`nor offer IDE mode to a CLI the user turned off (${scope})`, async () => {
            await bed.set('user', flavourPreference('gemini', 'enabled'), false);
            await bed.set(scope, flavourPreference('gemini', 'enabled'), true);
            await bed.get(WindowServerService).whenSettled();
            expect(attached).to.have.length(1);
            expect(attached[0]).to.deep.equal(['qwen', 'claude']);
            expect(told(flavourPreference('gemini', 'enabled'))).to.have.length(1);
        });
    }
});
