import { inject, injectable } from '@theia/core/shared/inversify';
import { nls } from '@theia/core/lib/common/nls';
import URI from '@theia/core/lib/common/uri';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { TextModels } from '../text-models';
import { OverwriteConfirmation } from './overwrite-confirmation';

/**
 * Whether accepting a proposal may lose something: the accepted text is written over the file. If the
 * user has unsaved edits to it, or it changed on disk since the diff opened, they are told so and decide.
 */
@injectable()
export class OverwriteCheck {

    @inject(TextModels) protected readonly textModels: TextModels;
    @inject(FileService) protected readonly fileService: FileService;
    @inject(OverwriteConfirmation) protected readonly confirmation: OverwriteConfirmation;

    /** The file's etag now ('absent' for a file that is not there): a change of it means someone else wrote the file. */
    async etagOf(fileUri: string): Promise<string> {
        return (await this.fileService.resolve(new URI(fileUri)).catch(() => undefined))?.etag ?? 'absent';
    }

    /** True when nothing is lost by writing the file, or the user says to go on anyway. */
    async confirm(fileUri: string, etagAtOpen: string | undefined): Promise<boolean> {
        const uri = new URI(fileUri);
        const problems: string[] = [];
        if (this.textModels.loaded(uri)?.dirty) {
            problems.push(nls.localize('theia-cli-companion/cli-core/diffDirty',
                '{0} has unsaved changes in an editor; they will be lost when the CLI writes the file.', uri.path.base));
        }
        if (await this.etagOf(fileUri) !== etagAtOpen) {
            problems.push(nls.localize('theia-cli-companion/cli-core/diffChangedOnDisk',
                '{0} changed on disk since the diff opened; the proposal was made against the old content.', uri.path.base));
        }
        if (!problems.length) {
            return true;
        }
        return this.confirmation.confirm(problems);
    }
}
