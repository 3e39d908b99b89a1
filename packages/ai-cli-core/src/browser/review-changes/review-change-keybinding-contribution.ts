import { inject, injectable, postConstruct } from '@theia/core/shared/inversify';
import { ApplicationShell } from '@theia/core/lib/browser/shell/application-shell';
import { ContextKeyService } from '@theia/core/lib/browser/context-key-service';
import { KeybindingContribution, KeybindingRegistry } from '@theia/core/lib/browser/keybinding';
import { ReviewDiffRegistry } from './review-diff-registry';
import { REVIEW_DIFF_FOCUS_CONTEXT, ReviewChangeCommands } from './review-change-commands';

/**
 * The change commands' keys, live only while a review diff is current. None is `ctrl+alt+<letter>`
 * (AltGr types characters with those on many layouts) or a key the browser keeps for itself.
 */
@injectable()
export class ReviewChangeKeybindingContribution implements KeybindingContribution {

    @inject(ReviewDiffRegistry) protected readonly registry: ReviewDiffRegistry;
    @inject(ApplicationShell) protected readonly shell: ApplicationShell;
    @inject(ContextKeyService) protected readonly contextKeys: ContextKeyService;

    @postConstruct()
    protected init(): void {
        const focus = this.contextKeys.createKey<boolean>(REVIEW_DIFF_FOCUS_CONTEXT, false);
        const update = () => focus.set(this.registry.of(this.shell.currentWidget) !== undefined);
        this.shell.onDidChangeCurrentWidget(update);
        this.registry.onDidChange(update);
    }

    registerKeybindings(keybindings: KeybindingRegistry): void {
        const when = REVIEW_DIFF_FOCUS_CONTEXT;
        keybindings.registerKeybinding({ command: ReviewChangeCommands.ACCEPT_CHANGE.id, keybinding: 'ctrlcmd+shift+y', when });
        keybindings.registerKeybinding({ command: ReviewChangeCommands.REJECT_CHANGE.id, keybinding: 'ctrlcmd+shift+backspace', when });
        keybindings.registerKeybinding({ command: ReviewChangeCommands.NEXT_CHANGE.id, keybinding: 'alt+f5', when });
        keybindings.registerKeybinding({ command: ReviewChangeCommands.PREVIOUS_CHANGE.id, keybinding: 'shift+alt+f5', when });
    }
}
