import { inject, injectable } from '@theia/core/shared/inversify';
import { Resource, ResourceResolver } from '@theia/core/lib/common/resource';
import URI from '@theia/core/lib/common/uri';
import { AgentTaskBackend } from '../common/agent-task-protocol';

/** The content a file had before an agent task: `agent-task-baseline:/the/file?<task id>`, read only. */
export const BASELINE_SCHEME = 'agent-task-baseline';

export function baselineUri(taskId: string, file: URI): URI {
    return file.withScheme(BASELINE_SCHEME).withQuery(taskId);
}

@injectable()
export class AgentTaskBaselineResourceResolver implements ResourceResolver {
    @inject(AgentTaskBackend) protected readonly backend: AgentTaskBackend;

    resolve(uri: URI): Resource {
        if (uri.scheme !== BASELINE_SCHEME) {
            throw new Error(`Not an agent task baseline: ${uri}`);
        }
        const backend = this.backend;
        return {
            uri,
            readOnly: true,
            async readContents(): Promise<string> {
                const content = await backend.baseline(uri.query, uri.path.fsPath());
                if (content === undefined) {
                    throw new Error(`The content of ${uri.path.fsPath()} before the task was not recorded`);
                }
                return content;
            },
            dispose: () => { }
        };
    }
}
