import { inject, injectable } from '@theia/core/shared/inversify';
import type URI from '@theia/core/lib/common/uri';
import { MonacoTextModelService } from '@theia/monaco/lib/browser/monaco-text-model-service';
import { TextModels } from './text-models';

/** The window's text models from Monaco's model service (the one its editors and diff editors show). */
@injectable()
export class MonacoTextModels implements TextModels {

    @inject(MonacoTextModelService)
    protected readonly textModelService: MonacoTextModelService;

    async read(uri: URI): Promise<{ text: string; dirty: boolean }> {
        const reference = await this.textModelService.createModelReference(uri);
        try {
            return { text: reference.object.getText(), dirty: reference.object.dirty };
        } finally {
            reference.dispose();
        }
    }

    loaded(uri: URI): { dirty: boolean } | undefined {
        const model = this.find(uri);
        return model && { dirty: model.dirty };
    }

    async save(uri: URI): Promise<void> {
        const model = this.find(uri);
        if (model?.dirty) {
            await model.save();
        }
    }

    protected find(uri: URI) {
        const key = uri.toString();
        return this.textModelService.models.find(model => model.uri === key);
    }
}
