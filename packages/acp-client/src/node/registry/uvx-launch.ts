import { findExecutable } from '@theia-cli-companion/cli-process/lib/node';
import { AcpRegistryUvxDistribution } from '../../common/registry/acp-registry-schema';
import { InstalledAcpAgent } from '../../common/registry/installed-acp-agent';

export interface UvxLaunch {
    readonly launch: InstalledAcpAgent['launch'];
    /** Whether `uvx` is on the PATH now; without it the agent cannot start until uv is installed. */
    readonly uvxFound: boolean;
}

/**
 * A `uvx` agent is not installed ahead of time: uv fetches the package into its own cache on the
 * first start (`uvx <package> <args>`), as the registry's entries are written for. The package spec
 * was checked to be a plain PyPI name, so it cannot be read as one of uvx's options.
 */
export async function uvxLaunch(uvx: AcpRegistryUvxDistribution, pathVariable: string | undefined): Promise<UvxLaunch> {
    return {
        launch: { command: 'uvx', args: [uvx.package, ...uvx.args], env: { ...uvx.env } },
        uvxFound: (await findExecutable('uvx', pathVariable)) !== undefined
    };
}
