import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ApplicationShell } from '@theia/core/lib/browser/shell/application-shell';
import { codicon, Widget } from '@theia/core/lib/browser/widgets/widget';
import { KeybindingContribution, KeybindingRegistry } from '@theia/core/lib/browser/keybinding';
import { TabBarToolbarContribution, TabBarToolbarRegistry } from '@theia/core/lib/browser/shell/tab-bar-toolbar';
import { ContextKey, ContextKeyService } from '@theia/core/lib/browser/context-key-service';
import { Command, CommandContribution, CommandRegistry } from '@theia/core/lib/common/command';
import { DiffReviewService } from './diff-review-service';

export namespace DiffReviewCommands {
    const CATEGORY = 'CLI Companion';
    const CATEGORY_KEY = 'theia-cli-companion/cli-core/category';
    export const ACCEPT = Command.toLocalizedCommand({ id: 'aiCliCompanion.acceptDiff', category: CATEGORY, label: 'Accept Diff', iconClass: codicon('check') },
        'theia-cli-companion/cli-core/acceptDiff', CATEGORY_KEY);
    export const REJECT = Command.toLocalizedCommand({ id: 'aiCliCompanion.rejectDiff', category: CATEGORY, label: 'Reject Diff', iconClass: codicon('close') },
        'theia-cli-companion/cli-core/rejectDiff', CATEGORY_KEY);
    export const CLOSE_ALL = Command.toLocalizedCommand({ id: 'aiCliCompanion.closeAllDiffs', category: CATEGORY, label: 'Close All Diffs' },
        'theia-cli-companion/cli-core/closeAllDiffs', CATEGORY_KEY);
}

/** True while the current widget is a diff under review; gates Ctrl/Cmd+S as Accept. */
export const DIFF_REVIEW_FOCUS_CONTEXT = 'aiCliDiffReviewFocus';

@injectable()
export class DiffReviewContribution implements CommandContribution, TabBarToolbarContribution, KeybindingContribution {

    @inject(DiffReviewService) protected readonly diffs: DiffReviewService;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(ContextKeyService) protected readonly contextKeys: ContextKeyService;

    protected focusKey: ContextKey<boolean>;

    @postConstruct()
    protected init(): void {
        this.focusKey = this.contextKeys.createKey<boolean>(DIFF_REVIEW_FOCUS_CONTEXT, false);
        const update = () => this.focusKey.set(this.diffs.idOf() !== undefined);
        this.shell.onDidChangeCurrentWidget(update);
        this.diffs.onDidChange(update);
    }

    registerCommands(commands: CommandRegistry): void {
        const forReview = (run: (id: string) => Promise<void>) => ({
            execute: (widget?: Widget) => {
                const id = this.diffs.idOf(widget instanceof Widget ? widget : undefined) ?? this.diffs.idOf();
                return id ? run(id) : undefined;
            },
            isEnabled: (widget?: Widget) => this.diffs.idOf(widget instanceof Widget ? widget : undefined) !== undefined || this.diffs.idOf() !== undefined,
            isVisible: (widget?: Widget) => this.diffs.idOf(widget instanceof Widget ? widget : undefined) !== undefined || this.diffs.idOf() !== undefined
        });
        commands.registerCommand(DiffReviewCommands.ACCEPT, forReview(id => this.diffs.accept(id)));
        commands.registerCommand(DiffReviewCommands.REJECT, forReview(id => this.diffs.reject(id)));
        commands.registerCommand(DiffReviewCommands.CLOSE_ALL, {
            execute: () => this.diffs.rejectAll(),
            isEnabled: () => this.diffs.pending.length > 0
        });
    }

    registerToolbarItems(toolbar: TabBarToolbarRegistry): void {
        // onDidChange: the diff widget is known only after it is shown, so visibility must be re-evaluated.
        toolbar.registerItem({
            id: DiffReviewCommands.ACCEPT.id, command: DiffReviewCommands.ACCEPT.id, tooltip: DiffReviewCommands.ACCEPT.label, icon: codicon('check'), priority: 0,
            onDidChange: this.diffs.onDidChange
        });
        toolbar.registerItem({
            id: DiffReviewCommands.REJECT.id, command: DiffReviewCommands.REJECT.id, tooltip: DiffReviewCommands.REJECT.label, icon: codicon('close'), priority: 1,
            onDidChange: this.diffs.onDidChange
        });
    }

    registerKeybindings(keybindings: KeybindingRegistry): void {
        // Registered after the core Save binding, so it wins while a review is focused, even when
        // the proposal is unedited (Save would do nothing for a clean model).
        keybindings.registerKeybinding({ command: DiffReviewCommands.ACCEPT.id, keybinding: 'ctrlcmd+s', when: DIFF_REVIEW_FOCUS_CONTEXT });
    }
}
