import { inject, injectable } from '@theia/core/shared/inversify';
import { Resource, ResourceResolver } from '@theia/core/lib/common/resource';
import URI from '@theia/core/lib/common/uri';
import { AcpChatBackend } from '../../common/acp-chat-protocol';

/** A file as it was before or after a chat turn, read-only: the sides of a turn's diff. */
export const CHECKPOINT_SCHEME = 'acp-checkpoint';

export interface CheckpointSide {
    readonly chatSessionId: string;
    readonly turnId: string;
    readonly side: 'before' | 'after';
}

export function checkpointUri(file: URI, at: CheckpointSide): URI {
    return file.withScheme(CHECKPOINT_SCHEME).withQuery(JSON.stringify([at.chatSessionId, at.turnId, at.side]));
}

@injectable()
export class CheckpointResourceResolver implements ResourceResolver {

    @inject(AcpChatBackend) protected readonly backend: AcpChatBackend;

    resolve(uri: URI): Resource {
        if (uri.scheme !== CHECKPOINT_SCHEME) {
            throw new Error(`Not a checkpoint: ${uri}`);
        }
        const [chatSessionId, turnId, side] = JSON.parse(uri.query) as [string, string, 'before' | 'after'];
        // A file the turn added has no "before" (one it deleted no "after"): that side is empty.
        const readContents = async () => await this.backend.turnFileContent(chatSessionId, turnId, uri.path.fsPath(), side) ?? '';
        return { uri, readOnly: true, readContents, dispose: () => undefined };
    }
}
