import { interfaces } from '@theia/core/shared/inversify';
import { nls } from '@theia/core/lib/common/nls';
import { PreferenceContribution, PreferenceSchema } from '@theia/core/lib/common/preferences/preference-schema';
import { PreferenceProxy } from '@theia/core/lib/common/preferences/preference-proxy';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { createPreferenceProxy } from '@theia/core/lib/common/preferences/preference-proxy';

export const CONTEXT_DEBOUNCE_PREF = 'aiCliCompanion.context.debounceMs';
export const CONTEXT_INCLUDE_SELECTION_PREF = 'aiCliCompanion.context.includeSelectedText';

export const ideCompanionPreferenceSchema: PreferenceSchema = {
    properties: {
        [CONTEXT_DEBOUNCE_PREF]: {
            type: 'number',
            default: 50,
            minimum: 0,
            maximum: 2000,
            description: nls.localize('theia-cli-companion/ide-companion/debounceMs',
                'How long (ms) the editor must be still before the open files, cursor and selection are sent to connected CLIs. Continuous typing or cursor movement still sends an update at least every 5 × this delay (at least 250 ms).')
        },
        [CONTEXT_INCLUDE_SELECTION_PREF]: {
            type: 'boolean',
            default: true,
            description: nls.localize('theia-cli-companion/ide-companion/includeSelectedText',
                'Send the selected text of the active editor (at most 16 KiB) to connected CLIs.')
        }
    }
};

export interface IdeCompanionConfiguration {
    [CONTEXT_DEBOUNCE_PREF]: number;
    [CONTEXT_INCLUDE_SELECTION_PREF]: boolean;
}

export const IdeCompanionPreferenceContribution = Symbol('IdeCompanionPreferenceContribution');
export const IdeCompanionPreferences = Symbol('IdeCompanionPreferences');
export type IdeCompanionPreferences = PreferenceProxy<IdeCompanionConfiguration>;

export function bindIdeCompanionPreferences(bind: interfaces.Bind): void {
    bind(IdeCompanionPreferences).toDynamicValue(ctx =>
        createPreferenceProxy(ctx.container.get<PreferenceService>(PreferenceService), ideCompanionPreferenceSchema)
    ).inSingletonScope();
    bind(IdeCompanionPreferenceContribution).toConstantValue({ schema: ideCompanionPreferenceSchema });
    bind(PreferenceContribution).toService(IdeCompanionPreferenceContribution);
}
