import { injectable } from '@theia/core/shared/inversify';
import { Resource, ResourceResolver } from '@theia/core/lib/common/resource';
import URI from '@theia/core/lib/common/uri';

/** A tool call's whole output, opened read-only from memory. */
export const TOOL_OUTPUT_SCHEME = 'acp-tool-output';

/** The whole outputs the user opened (`CLI Companion: Show Full Tool Output…`), as read-only documents. */
@injectable()
export class ToolOutputResourceResolver implements ResourceResolver {
    protected readonly texts = new Map<string, string>();

    /** Keeps `text` for an editor to open at the returned URI. */
    put(title: string, key: string, text: string): URI {
        const uri = new URI(`${TOOL_OUTPUT_SCHEME}:/${encodeURIComponent(title)}.txt`).withQuery(key);
        this.texts.delete(uri.toString());
        this.texts.set(uri.toString(), text);
        // Each may be megabytes: the last few opened are enough (opening one again fetches it again).
        if (this.texts.size > 5) {
            this.texts.delete(this.texts.keys().next().value!);
        }
        return uri;
    }

    resolve(uri: URI): Resource {
        const text = uri.scheme === TOOL_OUTPUT_SCHEME ? this.texts.get(uri.toString()) : undefined;
        if (text === undefined) {
            throw new Error(`No tool output at ${uri}`);
        }
        return { uri, readOnly: true, readContents: async () => text, dispose: () => undefined };
    }
}
