import { injectable } from '@theia/core/shared/inversify';
import { ConfirmDialog, Dialog } from '@theia/core/lib/browser/dialogs';
import { nls } from '@theia/core/lib/common/nls';

/** Asks the user whether to accept a proposal anyway, given why that could lose something. */
export const OverwriteConfirmation = Symbol('OverwriteConfirmation');
export interface OverwriteConfirmation {
    confirm(problems: readonly string[]): Promise<boolean>;
}

/** The question as Theia's confirmation dialog. */
@injectable()
export class OverwriteConfirmationDialog implements OverwriteConfirmation {
    async confirm(problems: readonly string[]): Promise<boolean> {
        const dialog = new ConfirmDialog({
            title: nls.localize('theia-cli-companion/cli-core/diffConfirmTitle', 'Accept the proposed change?'),
            msg: problems.join('\n'),
            ok: nls.localize('theia-cli-companion/cli-core/diffAcceptAnyway', 'Accept Anyway'),
            cancel: Dialog.CANCEL
        });
        return !!await dialog.open();
    }
}
