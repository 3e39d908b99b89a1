import type URI from '@theia/core/lib/common/uri';

/**
 * The window's text models as the companion reads them: the documents open in editors and the
 * proposals under review. Monaco's model service in the application (`MonacoTextModels`); Monaco
 * cannot be loaded outside a browser, so what is built on it is specced against this port.
 */
export const TextModels = Symbol('TextModels');
export interface TextModels {
    /** The text of the model at this URI (loading it if need be), and whether it has unsaved edits; throws when it cannot be read. */
    read(uri: URI): Promise<{ text: string; dirty: boolean }>;
    /** The state of the file's model if one is loaded (an editor shows it, or did): undefined otherwise. */
    loaded(uri: URI): { dirty: boolean } | undefined;
    /** Saves the file's loaded model, if it has unsaved edits. */
    save(uri: URI): Promise<void>;
}
