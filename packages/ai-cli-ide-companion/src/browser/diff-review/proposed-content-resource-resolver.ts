import { injectable } from '@theia/core/shared/inversify';
import { Emitter } from '@theia/core/lib/common/event';
import { Resource, ResourceResolver } from '@theia/core/lib/common/resource';
import URI from '@theia/core/lib/common/uri';

/** The editable right-hand side of a diff under review. */
export const PROPOSAL_SCHEME = 'ai-cli-proposal';
/** The empty left-hand side for a file the proposal would create. */
export const EMPTY_ORIGINAL_SCHEME = 'ai-cli-original';

/**
 * A proposal's text, editable in the diff editor. Saving it (Ctrl/Cmd+S in the right side) is how
 * the user accepts it: `onSave` receives exactly the text the editor saved.
 */
export class ProposedContentResource implements Resource {
    protected readonly onDidChangeContentsEmitter = new Emitter<void>();
    readonly onDidChangeContents = this.onDidChangeContentsEmitter.event;

    constructor(readonly uri: URI, protected contents: string, protected readonly onSave: (content: string) => void) { }

    async readContents(): Promise<string> {
        return this.contents;
    }

    async saveContents(content: string): Promise<void> {
        this.contents = content;
        this.onSave(content);
    }

    dispose(): void {
        this.onDidChangeContentsEmitter.dispose();
    }
}

class EmptyOriginalResource implements Resource {
    constructor(readonly uri: URI) { }
    async readContents(): Promise<string> {
        return '';
    }
    dispose(): void { }
}

/** Serves the two schemes above; resources are registered and removed by the diff review service. */
@injectable()
export class ProposedContentResourceResolver implements ResourceResolver {
    protected readonly proposals = new Map<string, ProposedContentResource>();

    register(resource: ProposedContentResource): void {
        this.proposals.set(resource.uri.toString(), resource);
    }

    unregister(uri: URI): void {
        this.proposals.get(uri.toString())?.dispose();
        this.proposals.delete(uri.toString());
    }

    resolve(uri: URI): Resource {
        if (uri.scheme === EMPTY_ORIGINAL_SCHEME) {
            return new EmptyOriginalResource(uri);
        }
        const proposal = uri.scheme === PROPOSAL_SCHEME ? this.proposals.get(uri.toString()) : undefined;
        if (!proposal) {
            throw new Error(`No proposal for ${uri.toString()}`);
        }
        return proposal;
    }
}
