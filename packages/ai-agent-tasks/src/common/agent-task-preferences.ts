import { interfaces } from '@theia/core/shared/inversify';
import { nls } from '@theia/core/lib/common/nls';
import { PreferenceContribution, PreferenceSchema } from '@theia/core/lib/common/preferences/preference-schema';
import { PreferenceProxy, createPreferenceProxy } from '@theia/core/lib/common/preferences/preference-proxy';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { PreferenceScope } from '@theia/core/lib/common/preferences/preference-scope';
import { CLI_CATALOGUE } from '@theia-cli-companion/cli-process/lib/common';
import { APPROVAL_MODES, ApprovalMode } from '@theia-cli-companion/gemini-headless-protocol/lib/common';

export const TASKS_COMMAND_PREF = 'aiCliCompanion.tasks.command';
export const TASKS_MODEL_PREF = 'aiCliCompanion.tasks.model';
export const TASKS_APPROVAL_MODE_PREF = 'aiCliCompanion.tasks.approvalMode';

export const agentTaskPreferenceSchema: PreferenceSchema = {
    properties: {
        [TASKS_COMMAND_PREF]: {
            type: 'string',
            // What runs, and what it may do unasked, are the user's choice alone: ExecutionSettings ignores workspace values.
            scope: PreferenceScope.User,
            default: CLI_CATALOGUE.gemini.command,
            description: nls.localize('theia-cli-companion/agent-tasks/commandPref',
                'The Gemini CLI that agent tasks run: a name looked up on the PATH of the IDE\'s backend, or an absolute path. User settings only: a workspace cannot set it.')
        },
        [TASKS_MODEL_PREF]: {
            type: 'string',
            default: '',
            pattern: '^[\\w.:/-]{0,200}$',
            description: nls.localize('theia-cli-companion/agent-tasks/modelPref',
                'The model agent tasks use (`--model`), e.g. gemini-2.5-pro. Empty: the model Gemini CLI is configured with.')
        },
        [TASKS_APPROVAL_MODE_PREF]: {
            type: 'string',
            scope: PreferenceScope.User,
            enum: [...APPROVAL_MODES],
            enumDescriptions: [
                nls.localize('theia-cli-companion/agent-tasks/modeDefault', 'Read only: headless, Gemini CLI leaves out every tool that would need approval (edits, shell).'),
                nls.localize('theia-cli-companion/agent-tasks/modeAutoEdit', 'Gemini CLI may edit files; no shell commands.'),
                nls.localize('theia-cli-companion/agent-tasks/modeYolo', 'Gemini CLI may edit files and run shell commands without asking.'),
                nls.localize('theia-cli-companion/agent-tasks/modePlan', 'Plan only: read, then say what it would do.')
            ],
            default: 'auto_edit',
            description: nls.localize('theia-cli-companion/agent-tasks/approvalModePref', 'The approval mode "Run Gemini Task…" offers first.')
        }
    }
};

export interface AgentTaskConfiguration {
    [TASKS_COMMAND_PREF]: string;
    [TASKS_MODEL_PREF]: string;
    [TASKS_APPROVAL_MODE_PREF]: ApprovalMode;
}

export const AgentTaskPreferences = Symbol('AgentTaskPreferences');
export type AgentTaskPreferences = PreferenceProxy<AgentTaskConfiguration>;

export function bindAgentTaskPreferences(bind: interfaces.Bind): void {
    bind(AgentTaskPreferences).toDynamicValue(ctx =>
        createPreferenceProxy(ctx.container.get<PreferenceService>(PreferenceService), agentTaskPreferenceSchema)
    ).inSingletonScope();
    bind(PreferenceContribution).toConstantValue({ schema: agentTaskPreferenceSchema });
}
