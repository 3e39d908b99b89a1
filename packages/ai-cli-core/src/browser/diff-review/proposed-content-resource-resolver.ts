import { injectable } from '@theia/core/shared/inversify';
import { Resource, ResourceResolver } from '@theia/core/lib/common/resource';
import URI from '@theia/core/lib/common/uri';

/** The editable right-hand side of a diff under review. */
export const PROPOSAL_SCHEME = 'ai-cli-proposal';
/** The empty left-hand side for a file the proposal would create. */
export const EMPTY_ORIGINAL_SCHEME = 'ai-cli-original';

/**
 * A proposal's text, editable in the diff editor. It is not a file and has no `saveContents`, so
 * no save of any kind writes or settles it: auto-save (never even attempted: `autosaveable` is
 * false), *Save All*, another extension's save, format-on-save (Monaco runs save participants only
 * for a resource it can save). The edited text stays in the editor until the user decides; only
 * the review's explicit accept reads it.
 */
export class ProposedContentResource implements Resource {
    readonly autosaveable = false;

    constructor(readonly uri: URI, protected readonly contents: string) { }

    async readContents(): Promise<string> {
        return this.contents;
    }

    dispose(): void { }
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
