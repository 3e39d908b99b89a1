import * as vscode from 'vscode';
import { z } from 'zod';
import { CLI_FLAVOUR_IDS, CLI_FLAVOUR_PACKAGES, CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { cliCommandLine, REVIEW_PACES, ReviewOrigin, ReviewPace, reviewPaceSetting } from '@theia-cli-companion/ide-companion-server/lib/common';
import { formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import type { WindowLogger } from '@theia-cli-companion/ide-companion-server/lib/node';

export const SECTION = 'aiCliCompanion';

const CommandSchema = z.string().trim().min(1, 'must not be empty').max(4096);
const ArgsSchema = z.array(z.string().max(4096)).max(256);
const DebounceSchema = z.number().int().min(0).max(2000);
const ReviewPaceSchema = z.enum(REVIEW_PACES);

/**
 * The extension's settings (`aiCliCompanion.*`), read and validated on every use: a bad value is
 * reported in the output channel and its default used. What "Run <CLI>" executes, and whether the
 * companion and each CLI's IDE mode are on, are read from the user's settings only, whatever a
 * workspace or folder says: a cloned repository's `.vscode/settings.json` never chooses them (also in
 * hosts that do not honour the settings' `application` scope); that it tried is logged once.
 */
export class CompanionSettings {
    /** Settings a workspace tried to set, already logged: once each. */
    protected readonly toldWorkspaceSets = new Set<string>();

    constructor(protected readonly logger: WindowLogger) { }

    protected get configuration(): vscode.WorkspaceConfiguration {
        return vscode.workspace.getConfiguration(SECTION);
    }

    /** Whether the window runs a companion server: the user's setting only. */
    get enabled(): boolean {
        return this.valid('enabled', z.boolean(), this.userValue('enabled'), true);
    }

    /** The CLIs to advertise: each one's `enabled` setting, the user's only. */
    get flavours(): CliFlavourId[] {
        return CLI_FLAVOUR_IDS.filter(id => this.valid(`${id}.enabled`, z.boolean(), this.userValue(`${id}.enabled`), true));
    }

    get debounceMs(): number {
        return this.valid('context.debounceMs', DebounceSchema, this.configuration.get('context.debounceMs'), 50);
    }

    get includeSelectedText(): boolean {
        return this.boolean('context.includeSelectedText', true);
    }

    /** The command line of "Run <CLI>", from the user's settings only. */
    commandLine(flavour: CliFlavourId): string[] {
        const command = this.valid(`${flavour}.command`, CommandSchema, this.userValue(`${flavour}.command`), CLI_FLAVOUR_PACKAGES[flavour].command);
        const args = this.valid(`${flavour}.args`, ArgsSchema, this.userValue(`${flavour}.args`), []);
        return cliCommandLine(flavour, command, args);
    }

    /**
     * How an origin's proposals reach the user (`aiCliCompanion.<cli>.reviewPace`): the user's settings
     * only, since a repository that could choose `accept` would have its own agent's edits applied unseen.
     */
    reviewPace(origin: Pick<ReviewOrigin, 'kind' | 'flavour'>): ReviewPace {
        const key = reviewPaceSetting(origin)?.slice(SECTION.length + 1);
        return key ? this.valid(key, ReviewPaceSchema, this.userValue(key), 'open') : 'open';
    }

    async setReviewPace(flavour: CliFlavourId, pace: ReviewPace): Promise<void> {
        await this.configuration.update(`${flavour}.reviewPace`, pace, vscode.ConfigurationTarget.Global);
    }

    /** Whether a queued proposal is announced with a notification. */
    get notifyQueued(): boolean {
        return this.boolean('review.notifyQueued', false);
    }

    /** Whether a proposal's diff takes the keyboard focus when it opens. */
    get diffFocus(): 'always' | 'never' {
        return this.valid('diff.focus', z.enum(['always', 'never']), this.configuration.get('diff.focus'), 'always');
    }

    /** Whether a change touches the setting `key` (relative to the section). */
    affects(event: vscode.ConfigurationChangeEvent, key: string): boolean {
        return event.affectsConfiguration(`${SECTION}.${key}`);
    }

    /** The value of the user's settings, never a workspace's or folder's. */
    protected userValue(key: string): unknown {
        const inspection = this.configuration.inspect(key);
        if ((inspection?.workspaceValue !== undefined || inspection?.workspaceFolderValue !== undefined) && !this.toldWorkspaceSets.has(key)) {
            this.toldWorkspaceSets.add(key);
            this.logger.warn(`Setting ${SECTION}.${key} of this workspace ignored: it is read from your user settings only, so a repository cannot choose it`);
        }
        return inspection?.globalValue;
    }

    protected boolean(key: string, fallback: boolean): boolean {
        return this.valid(key, z.boolean(), this.configuration.get(key), fallback);
    }

    protected valid<T>(key: string, schema: z.ZodType<T>, value: unknown, fallback: T): T {
        if (value === undefined) {
            return fallback;
        }
        const parsed = schema.safeParse(value);
        if (parsed.success) {
            return parsed.data;
        }
        this.logger.warn(`Setting ${SECTION}.${key} ignored (${formatZodIssues(parsed.error)}): using ${JSON.stringify(fallback)}`);
        return fallback;
    }
}
