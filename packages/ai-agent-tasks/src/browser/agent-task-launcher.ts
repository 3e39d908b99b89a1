import { inject, injectable } from '@theia/core/shared/inversify';
import { QuickInputService, QuickPickItem } from '@theia/core/lib/browser/quick-input/quick-input-service';
import { MessageService } from '@theia/core/lib/common/message-service';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';
import { APPROVAL_MODES, ApprovalMode } from '@theia-cli-companion/gemini-headless-protocol/lib/common';
import { AgentTaskRequest, AgentTaskSummary } from '../common/agent-task-protocol';
import { AgentTaskPreferences, TASKS_APPROVAL_MODE_PREF, TASKS_COMMAND_PREF, TASKS_MODEL_PREF, agentTaskPreferenceSchema } from '../common/agent-task-preferences';
import { AgentTaskService } from './agent-task-service';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';
import { ExecutionSettings, SnapshotIncludeSettings, WorkspaceTrustGate } from '@theia-cli-companion/ai-cli-core/lib/browser';

const MODE_LABELS: Record<ApprovalMode, () => { label: string; detail: string }> = {
    default: () => ({
        label: nls.localize('theia-cli-companion/agent-tasks/modeReadOnly', 'Read only (default)'),
        detail: nls.localize('theia-cli-companion/agent-tasks/modeReadOnlyDetail', 'Gemini CLI may read files; edits and shell commands are left out.')
    }),
    auto_edit: () => ({
        label: nls.localize('theia-cli-companion/agent-tasks/modeEdits', 'Edit files (auto_edit)'),
        detail: nls.localize('theia-cli-companion/agent-tasks/modeEditsDetail', 'Gemini CLI may read and edit files; no shell commands. You review the changes afterwards.')
    }),
    yolo: () => ({
        label: nls.localize('theia-cli-companion/agent-tasks/modeEverything', 'Edit files and run commands (yolo)'),
        detail: nls.localize('theia-cli-companion/agent-tasks/modeEverythingDetail', 'Gemini CLI may also run shell commands without asking.')
    }),
    plan: () => ({
        label: nls.localize('theia-cli-companion/agent-tasks/modePlanLabel', 'Plan only (plan)'),
        detail: nls.localize('theia-cli-companion/agent-tasks/modePlanDetail', 'Gemini CLI reads, then says what it would change.')
    })
};

/** The editor's file and selection, as a prompt starts: `@path` makes Gemini CLI read the file itself. */
interface PromptContext {
    file: URI;
    lines?: { start: number; end: number };
}

/**
 * "CLI Companion: Run Gemini Task…": the prompt (prefilled with the active file or selection as an
 * @-reference), the folder, and the approval mode; then the task runs in the backend.
 */
@injectable()
export class AgentTaskLauncher {
    @inject(QuickInputService) protected readonly quickInput: QuickInputService;
    @inject(EditorManager) protected readonly editors: EditorManager;
    @inject(WorkspaceService) protected readonly workspace: WorkspaceService;
    @inject(MessageService) protected readonly messages: MessageService;
    @inject(AgentTaskPreferences) protected readonly preferences: AgentTaskPreferences;
    @inject(AgentTaskService) protected readonly tasks: AgentTaskService;
    @inject(ExecutionSettings) protected readonly settings: ExecutionSettings;
    @inject(WorkspaceTrustGate) protected readonly trustGate: WorkspaceTrustGate;
    @inject(SnapshotIncludeSettings) protected readonly snapshotInclude: SnapshotIncludeSettings;

    async run(): Promise<AgentTaskSummary | undefined> {
        const roots = this.workspace.tryGetRoots().map(root => root.resource);
        if (!roots.length) {
            this.messages.warn(nls.localize('theia-cli-companion/agent-tasks/noFolder', 'Open a folder first: agent tasks run in a workspace folder.'));
            return undefined;
        }
        const context = this.editorContext();
        const defaultFolder = (context && roots.find(root => root.isEqualOrParent(context.file))) ?? roots[0];
        const prefill = context ? promptPrefill(context, defaultFolder) : '';
        const prompt = await this.quickInput.input({
            title: nls.localize('theia-cli-companion/agent-tasks/promptTitle', 'Run Gemini Task'),
            prompt: nls.localize('theia-cli-companion/agent-tasks/promptPrompt',
                'What should Gemini CLI do? It runs to the end on its own; you review the changed files afterwards.'),
            placeHolder: nls.localize('theia-cli-companion/agent-tasks/promptPlaceholder', 'e.g. Write unit tests for @src/parser.ts'),
            value: prefill,
            valueSelection: [prefill.length, prefill.length],
            validateInput: async value => value.trim() ? undefined : nls.localize('theia-cli-companion/agent-tasks/promptEmpty', 'Say what the task is.')
        });
        if (!prompt?.trim()) {
            return undefined;
        }
        const folder = await this.pickFolder(roots, defaultFolder, context);
        if (!folder) {
            return undefined;
        }
        const approvalMode = await this.pickApprovalMode();
        if (!approvalMode) {
            return undefined;
        }
        return this.start({
            prompt: context && !folder.isEqual(defaultFolder) ? rebaseReference(prompt, context, defaultFolder, folder) : prompt,
            cwd: folder.path.fsPath(),
            approvalMode,
            model: this.preferences[TASKS_MODEL_PREF] || undefined
        });
    }

    /**
     * Starts a task as asked (also "Run Again"), in a trusted workspace only, with the Gemini CLI of the
     * user's settings; failures to start are shown, not thrown.
     */
    async start(request: AgentTaskRequest): Promise<AgentTaskSummary | undefined> {
        if (!await this.trustGate.mayStart(nls.localize('theia-cli-companion/agent-tasks/theTask', 'The agent task'))) {
            return undefined;
        }
        const command = this.settings.get<string>(TASKS_COMMAND_PREF)?.trim() || agentTaskPreferenceSchema.properties[TASKS_COMMAND_PREF].default as string;
        try {
            return await this.tasks.start({ ...request, command, snapshotInclude: this.snapshotInclude.get() });
        } catch (error) {
            this.messages.error(nls.localize('theia-cli-companion/agent-tasks/startFailed',
                'The agent task could not start: {0}', describeError(error)));
            return undefined;
        }
    }

    protected editorContext(): PromptContext | undefined {
        const editor = this.editors.currentEditor?.editor;
        if (!editor || editor.uri.scheme !== 'file') {
            return undefined;
        }
        const selection = editor.selection;
        const empty = selection.start.line === selection.end.line && selection.start.character === selection.end.character;
        // A selection ending at column 0 of a line does not take that line.
        const endLine = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line - 1 : selection.end.line;
        return { file: editor.uri, lines: empty ? undefined : { start: selection.start.line + 1, end: endLine + 1 } };
    }

    protected async pickFolder(roots: URI[], preferred: URI, context?: PromptContext): Promise<URI | undefined> {
        const candidates = [...roots];
        const fileFolder = context?.file.parent;
        if (fileFolder && !candidates.some(candidate => candidate.isEqual(fileFolder)) && roots.some(root => root.isEqualOrParent(fileFolder))) {
            candidates.push(fileFolder);
        }
        if (candidates.length === 1) {
            return candidates[0];
        }
        const items: (QuickPickItem & { folder: URI })[] = candidates.map(folder => ({
            label: folder.path.base, description: folder.path.fsPath(), folder
        }));
        const picked = await this.quickInput.showQuickPick(items, {
            title: nls.localize('theia-cli-companion/agent-tasks/folderTitle', 'Run Gemini Task: folder'),
            placeholder: nls.localize('theia-cli-companion/agent-tasks/folderPlaceholder', 'The folder Gemini CLI works in'),
            activeItem: items.find(item => item.folder.isEqual(preferred))
        });
        return picked?.folder;
    }

    protected async pickApprovalMode(): Promise<ApprovalMode | undefined> {
        const preferred = this.settings.get<ApprovalMode>(TASKS_APPROVAL_MODE_PREF);
        const items: (QuickPickItem & { mode: ApprovalMode })[] = APPROVAL_MODES.map(mode => ({ ...MODE_LABELS[mode](), mode }));
        const picked = await this.quickInput.showQuickPick(items, {
            title: nls.localize('theia-cli-companion/agent-tasks/modeTitle', 'Run Gemini Task: what may it do?'),
            activeItem: items.find(item => item.mode === preferred)
        });
        return picked?.mode;
    }
}

function reference(context: PromptContext, folder: URI): string {
    const relative = folder.relative(context.file)?.toString() ?? context.file.path.fsPath();
    return `@${relative.replace(/ /g, '\\ ')}`;
}

/** `@src/a.ts ` or `In @src/a.ts, lines 3-9: `. */
export function promptPrefill(context: PromptContext, folder: URI): string {
    const ref = reference(context, folder);
    if (!context.lines) {
        return `${ref} `;
    }
    const lines = context.lines.start === context.lines.end ? `line ${context.lines.start}` : `lines ${context.lines.start}-${context.lines.end}`;
    return `In ${ref}, ${lines}: `;
}

/** The prefilled @-reference, made relative to the folder the user chose instead. */
function rebaseReference(prompt: string, context: PromptContext, from: URI, to: URI): string {
    const old = reference(context, from);
    const target = to.isEqualOrParent(context.file) ? reference(context, to) : `@${context.file.path.fsPath().replace(/ /g, '\\ ')}`;
    return prompt.split(old).join(target);
}
