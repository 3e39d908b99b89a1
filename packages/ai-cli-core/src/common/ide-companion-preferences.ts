import { interfaces } from '@theia/core/shared/inversify';
import { nls } from '@theia/core/lib/common/nls';
import { PreferenceContribution, PreferenceSchema } from '@theia/core/lib/common/preferences/preference-schema';
import { PreferenceProxy, createPreferenceProxy } from '@theia/core/lib/common/preferences/preference-proxy';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { PreferenceScope } from '@theia/core/lib/common/preferences/preference-scope';
import { SNAPSHOT_INCLUDE_PREF } from './snapshot-include';
import { KEEP_AWAKE_DEFAULT_INTERVAL_SECONDS, KEEP_AWAKE_MAX_INTERVAL_SECONDS, KEEP_AWAKE_MIN_INTERVAL_SECONDS } from './keep-awake-protocol';
import { CLI_FLAVOUR_DISPLAY_NAMES, CLI_FLAVOUR_IDS, CLI_FLAVOUR_PACKAGES, CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { ACP_REVIEW_PACE_SETTING, REVIEW_PACES, ReviewPace } from '@theia-cli-companion/ide-companion-server/lib/common';

export const COMPANION_ENABLED_PREF = 'aiCliCompanion.enabled';
export const CONTEXT_DEBOUNCE_PREF = 'aiCliCompanion.context.debounceMs';
export const CONTEXT_INCLUDE_SELECTION_PREF = 'aiCliCompanion.context.includeSelectedText';
export const DIFF_WRITE_ON_ACCEPT_PREF = 'aiCliCompanion.diff.writeOnAccept';
export const DIFF_FOCUS_PREF = 'aiCliCompanion.diff.focus';

export type DiffFocus = 'auto' | 'always' | 'never';
export { ReviewPace, REVIEW_PACES };
/** The pace of the proposals ACP agents make in Theia's chat (their permission diffs). */
export const ACP_REVIEW_PACE_PREF = ACP_REVIEW_PACE_SETTING;
export const REVIEW_NOTIFY_QUEUED_PREF = 'aiCliCompanion.review.notifyQueued';
export const KEEP_AWAKE_COMMAND_PREF = 'aiCliCompanion.keepAwake.command';
export const KEEP_AWAKE_INTERVAL_PREF = 'aiCliCompanion.keepAwake.intervalSeconds';

/** `aiCliCompanion.<flavour>.enabled|command|args`: one group per CLI. */
export const flavourPreference = (flavour: CliFlavourId, key: 'enabled' | 'command' | 'args' | 'reviewPace') => `aiCliCompanion.${flavour}.${key}`;

/** A review pace setting: user scope only, since a repository must not turn review off (ReviewPaceSettings enforces it). */
export function reviewPaceProperty(who: string): PreferenceSchema['properties'][string] {
    return {
        type: 'string',
        enum: [...REVIEW_PACES],
        enumDescriptions: [
            nls.localize('theia-cli-companion/cli-core/paceOpen', 'Open each proposed change in a diff editor.'),
            nls.localize('theia-cli-companion/cli-core/paceQueue',
                'Queue proposed changes quietly: no editor opens and the focus stays where it is; review them from Pending Changes.'),
            nls.localize('theia-cli-companion/cli-core/paceAccept', 'Accept proposed changes as proposed; they stay listed in Pending Changes with Undo.')
        ],
        scope: PreferenceScope.User,
        default: 'open',
        description: nls.localize('theia-cli-companion/cli-core/reviewPace', 'How the changes {0} proposes reach you. User settings only: a workspace cannot set it.', who)
    };
}

function flavourProperties(flavour: CliFlavourId): PreferenceSchema['properties'] {
    const name = CLI_FLAVOUR_DISPLAY_NAMES[flavour];
    return {
        [flavourPreference(flavour, 'enabled')]: {
            type: 'boolean',
            // Whether a CLI is offered IDE mode is the user's choice alone: WindowServerService reads it through ExecutionSettings.
            scope: PreferenceScope.User,
            default: true,
            description: nls.localize('theia-cli-companion/cli-core/flavourEnabled',
                'Offer IDE mode to {0}: write its discovery file and give terminals its variables. Turning it off disconnects its sessions. User settings only.', name)
        },
        [flavourPreference(flavour, 'command')]: {
            type: 'string',
            // What runs is the user's choice alone: ExecutionSettings ignores workspace and folder values.
            scope: PreferenceScope.User,
            default: CLI_FLAVOUR_PACKAGES[flavour].command,
            description: nls.localize('theia-cli-companion/cli-core/flavourCommand',
                'The command "Run {0}" starts: a name looked up on the PATH of the IDE\'s terminals, or an absolute path. User settings only: a workspace cannot set it.', name)
        },
        [flavourPreference(flavour, 'args')]: {
            type: 'array',
            scope: PreferenceScope.User,
            items: { type: 'string' },
            default: [],
            description: nls.localize('theia-cli-companion/cli-core/flavourArgs', 'Arguments "Run {0}" passes to the command.', name)
        },
        [flavourPreference(flavour, 'reviewPace')]: reviewPaceProperty(name)
    };
}

export const ideCompanionPreferenceSchema: PreferenceSchema = {
    properties: {
        [COMPANION_ENABLED_PREF]: {
            type: 'boolean',
            scope: PreferenceScope.User,
            default: true,
            description: nls.localize('theia-cli-companion/cli-core/enabled',
                // eslint-disable-next-line @stylistic/max-len -- an nls default text is one string literal, and this one alone is longer than a line
                'Run a CLI Companion server for each window, so Gemini CLI and Qwen Code started in its terminals connect to it (IDE mode). Turning it off stops the server and disconnects every CLI at once. User settings only.')
        },
        ...Object.assign({}, ...CLI_FLAVOUR_IDS.map(flavourProperties)),
        [CONTEXT_DEBOUNCE_PREF]: {
            type: 'number',
            default: 50,
            minimum: 0,
            maximum: 2000,
            description: nls.localize('theia-cli-companion/cli-core/debounceMs',
                // eslint-disable-next-line @stylistic/max-len -- an nls default text is one string literal, and this one alone is longer than a line
                'How long (ms) the editor must be still before the open files, cursor and selection are sent to connected CLIs. Continuous typing or cursor movement still sends an update at least every 5 × this delay (at least 250 ms).')
        },
        [CONTEXT_INCLUDE_SELECTION_PREF]: {
            type: 'boolean',
            default: true,
            description: nls.localize('theia-cli-companion/cli-core/includeSelectedText',
                'Send the selected text of the active editor (at most 16 KiB) to connected CLIs.')
        },
        [DIFF_WRITE_ON_ACCEPT_PREF]: {
            type: 'boolean',
            // What the IDE itself writes is the user's choice alone: ExecutionSettings ignores workspace and folder values.
            scope: PreferenceScope.User,
            default: false,
            description: nls.localize('theia-cli-companion/cli-core/writeOnAccept',
                // eslint-disable-next-line @stylistic/max-len -- an nls default text is one string literal, and this one alone is longer than a line
                'When you accept a proposed change, also write it to the file from the IDE at once (open editors show it immediately), rather than only when the CLI writes it. User settings only: a workspace cannot set it.')
        },
        [DIFF_FOCUS_PREF]: {
            type: 'string',
            enum: ['auto', 'always', 'never'],
            enumDescriptions: [
                nls.localize('theia-cli-companion/cli-core/focusAuto', 'Focus the diff unless you are typing in a terminal.'),
                nls.localize('theia-cli-companion/cli-core/focusAlways', 'Always focus the diff.'),
                nls.localize('theia-cli-companion/cli-core/focusNever', 'Never take focus: the diff opens in the background.')
            ],
            default: 'auto',
            description: nls.localize('theia-cli-companion/cli-core/diffFocus', 'Whether a diff proposed by a CLI takes the keyboard focus when it opens.')
        },
        [SNAPSHOT_INCLUDE_PREF]: {
            type: 'array',
            items: { type: 'string', minLength: 1, maxLength: 500 },
            maxItems: 100,
            // What snapshots copy is the user's choice alone: a repository's `**` would copy node_modules into every one.
            scope: PreferenceScope.User,
            default: [],
            description: nls.localize('theia-cli-companion/cli-core/snapshotInclude',
                // eslint-disable-next-line @stylistic/max-len -- an nls default text is one string literal, and this one alone is longer than a line
                'Ignored files that the snapshots of agent tasks and chat turns record anyway (globs relative to each folder, e.g. `.env`, `generated/**`). Patterns for every file (`**`) or all of node_modules or .git are not used. User settings only: a workspace cannot set it.')
        },
        [ACP_REVIEW_PACE_PREF]: reviewPaceProperty(nls.localize('theia-cli-companion/cli-core/chatAgents', 'an agent in the chat')),
        [REVIEW_NOTIFY_QUEUED_PREF]: {
            type: 'boolean',
            default: false,
            description: nls.localize('theia-cli-companion/cli-core/notifyQueued', 'Show a notification when a proposed change is queued for review.')
        },
        [KEEP_AWAKE_COMMAND_PREF]: {
            type: 'string',
            // What runs is the user's choice alone: KeepAwakeClientImpl reads it through ExecutionSettings.
            scope: PreferenceScope.User,
            default: '',
            description: nls.localize('theia-cli-companion/cli-core/keepAwakeCommand',
                // eslint-disable-next-line @stylistic/max-len -- an nls default text is one string literal, and this one alone is longer than a line
                'The id of an IDE command that tells your platform the workspace is in use, run while an agent works (a chat turn, an agent task) so that it does not put the workspace to sleep. Theia Cloud\'s monitor command is run by itself when it is there. User settings only: a workspace cannot set it.')
        },
        [KEEP_AWAKE_INTERVAL_PREF]: {
            type: 'number',
            scope: PreferenceScope.User,
            default: KEEP_AWAKE_DEFAULT_INTERVAL_SECONDS,
            minimum: KEEP_AWAKE_MIN_INTERVAL_SECONDS,
            maximum: KEEP_AWAKE_MAX_INTERVAL_SECONDS,
            description: nls.localize('theia-cli-companion/cli-core/keepAwakeInterval',
                'How often (seconds) activity is reported while an agent works. Nothing is reported while no agent works. User settings only.')
        }
    }
};

type FlavourConfiguration = { [K in CliFlavourId as `aiCliCompanion.${K}.enabled`]: boolean }
    & { [K in CliFlavourId as `aiCliCompanion.${K}.command`]: string }
    & { [K in CliFlavourId as `aiCliCompanion.${K}.args`]: string[] }
    & { [K in CliFlavourId as `aiCliCompanion.${K}.reviewPace`]: ReviewPace };

export type IdeCompanionConfiguration = FlavourConfiguration & {
    [COMPANION_ENABLED_PREF]: boolean;
    [CONTEXT_DEBOUNCE_PREF]: number;
    [CONTEXT_INCLUDE_SELECTION_PREF]: boolean;
    [DIFF_WRITE_ON_ACCEPT_PREF]: boolean;
    [DIFF_FOCUS_PREF]: DiffFocus;
    [ACP_REVIEW_PACE_PREF]: ReviewPace;
    [REVIEW_NOTIFY_QUEUED_PREF]: boolean;
    [SNAPSHOT_INCLUDE_PREF]: string[];
    [KEEP_AWAKE_COMMAND_PREF]: string;
    [KEEP_AWAKE_INTERVAL_PREF]: number;
};

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
