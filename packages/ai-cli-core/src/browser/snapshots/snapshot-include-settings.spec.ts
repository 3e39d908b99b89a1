import { enableBrowserDom, UserScopeTestbed } from '../test';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { ideCompanionPreferenceSchema } from '../../common/ide-companion-preferences';
import { SNAPSHOT_INCLUDE_PREF } from '../../common/snapshot-include';
import { SnapshotIncludeSettings } from './snapshot-include-settings';

disableDom();

describe('SnapshotIncludeSettings', () => {
    let bed: UserScopeTestbed;
    let settings: SnapshotIncludeSettings;

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    beforeEach(async () => {
        bed = new UserScopeTestbed([ideCompanionPreferenceSchema]);
        bed.container.bind(SnapshotIncludeSettings).toSelf().inSingletonScope();
        settings = bed.get(SnapshotIncludeSettings);
        await bed.ready();
    });

    for (const scope of ['workspace', 'folder'] as const) {
        it(`ignores the ${scope}'s patterns ("**": node_modules in every snapshot) and uses the user's, and tells the user`, async () => {
            await bed.set('user', SNAPSHOT_INCLUDE_PREF, ['.env']);
            await bed.set(scope, SNAPSHOT_INCLUDE_PREF, ['**', 'secrets/**']);
            // What a plain read of Theia's preferences gives (the code before): the repository's list.
            expect(bed.preferences.get(SNAPSHOT_INCLUDE_PREF, [], UserScopeTestbed.FOLDER)).to.deep.equal(['**', 'secrets/**']);
            expect(settings.get()).to.deep.equal(['.env']);
            expect(settings.get()).to.deep.equal(['.env']);
            expect(bed.warnings, 'told once').to.have.length(1);
            expect(bed.warnings[0]).to.contain(`"${SNAPSHOT_INCLUDE_PREF}"`).and.contain('from your user settings only');
        });
    }

    it('leaves out the user\'s own patterns that are wider than safe, says why, and keeps the others', async () => {
        await bed.set('user', SNAPSHOT_INCLUDE_PREF, ['**', '.env', 'node_modules', '**/*.js', 'generated/**', 'node_modules/some-package/dist/**']);
        expect(settings.get()).to.deep.equal(['.env', 'generated/**', 'node_modules/some-package/dist/**']);
        expect(bed.warnings).to.have.length(1);
        expect(bed.warnings[0]).to.contain(SNAPSHOT_INCLUDE_PREF)
            .and.contain('"**" would record every ignored file')
            .and.contain('"node_modules" would record node_modules wholesale')
            .and.contain('"**/*.js" would record node_modules wholesale');
    });

    it('uses nothing of a value that is not a list of patterns', async () => {
        await bed.set('user', SNAPSHOT_INCLUDE_PREF, '.env');
        expect(settings.get()).to.deep.equal([]);
        expect(bed.warnings).to.have.length(1);
    });
});
