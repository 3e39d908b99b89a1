import { inject, injectable, named } from '@theia/core/shared/inversify';
import { FrontendApplicationContribution } from '@theia/core/lib/browser/frontend-application-contribution';
import { ILogger } from '@theia/core/lib/common/logger';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import type { JSONValue } from '@theia/core/shared/@lumino/coreutils';
import type { ZodType } from 'zod';
import { formatZodIssues } from '@theia-cli-companion/cli-process/lib/common';
import { AcpChatBackend } from '../../common/acp-chat-protocol';
import {
    CHECKPOINT_MAX_STORAGE_PREF, CHECKPOINT_TURNS_PER_CHAT_PREF, CheckpointRetention, CheckpointRetentionSchema, DEFAULT_CHECKPOINT_RETENTION
} from '../../common/checkpoint-retention';

/**
 * Sends the user's checkpoint retention to the backend, at start and on every change. The values come from
 * the user's settings only (a workspace's are ignored: a repository must not wipe the user's checkpoints or
 * fill the disk); a value the schema refuses is replaced by the default, with a notice.
 */
@injectable()
export class CheckpointRetentionContribution implements FrontendApplicationContribution {

    @inject(PreferenceService) protected readonly preferences: PreferenceService;
    @inject(AcpChatBackend) protected readonly backend: AcpChatBackend;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(ILogger) @named('ai-acp-chat:CheckpointRetention') protected readonly logger: ILogger;

    protected readonly noticed = new Set<string>();

    onStart(): void {
        void this.preferences.ready.then(() => this.send());
        this.preferences.onPreferenceChanged(change => {
            if (change.preferenceName === CHECKPOINT_TURNS_PER_CHAT_PREF || change.preferenceName === CHECKPOINT_MAX_STORAGE_PREF) {
                void this.send();
            }
        });
    }

    /** The user's values, each checked: one the backend would refuse is left out (its default instead, with a notice). */
    retention(): CheckpointRetention {
        return {
            turnsPerChat: this.userValue(CHECKPOINT_TURNS_PER_CHAT_PREF, CheckpointRetentionSchema.shape.turnsPerChat, DEFAULT_CHECKPOINT_RETENTION.turnsPerChat),
            maxStorageMegabytes: this.userValue(CHECKPOINT_MAX_STORAGE_PREF, CheckpointRetentionSchema.shape.maxStorageMegabytes, DEFAULT_CHECKPOINT_RETENTION.maxStorageMegabytes)
        };
    }

    protected userValue(name: string, schema: ZodType<number>, fallback: number): number {
        const value = this.preferences.inspect<JSONValue>(name)?.globalValue;
        if (value === undefined) {
            return fallback;
        }
        const parsed = schema.safeParse(value);
        if (parsed.success) {
            return parsed.data;
        }
        const problem = formatZodIssues(parsed.error, name);
        if (!this.noticed.has(problem)) {
            this.noticed.add(problem);
            this.messages.warn(nls.localize('theia-cli-companion/acp-chat/retentionInvalid', 'Setting {0} is not used (its default is): {1}', name, problem));
        }
        return fallback;
    }

    protected async send(): Promise<void> {
        try {
            await this.backend.setCheckpointRetention(this.retention());
        } catch (error) {
            this.logger.warn(`The checkpoint retention could not be sent: ${error}`);
        }
    }
}
