import { z } from 'zod';
import { ACP_DISTRIBUTION_KINDS, ACP_REGISTRY_ID } from './acp-registry-schema';

/**
 * What an install from the registry leaves in `<root>/<id>/installed.json`: who the agent is, and
 * exactly what to start. The chat starts `launch` as it is (no lookup in the registry, which may have
 * moved on or be unreachable); the file is re-validated on every read, since it lies on disk.
 */
export const InstalledAcpAgentSchema = z.object({
    id: z.string().regex(ACP_REGISTRY_ID),
    name: z.string().min(1),
    version: z.string().min(1),
    description: z.string(),
    icon: z.string().optional(),
    distribution: z.enum(ACP_DISTRIBUTION_KINDS),
    /** What was installed: the archive URL, or the npm / PyPI package spec. */
    source: z.string(),
    /** The version's folder; absent for `uvx`, which installs nothing ahead of time. */
    directory: z.string().optional(),
    launch: z.object({
        /** An absolute path inside `directory`, or `uvx`. */
        command: z.string().min(1),
        args: z.array(z.string()),
        /** Set on top of the IDE's environment, as the registry entry asks (e.g. to turn off self-updates). */
        env: z.record(z.string(), z.string())
    }),
    /** ISO 8601. */
    installedAt: z.string()
});

export type InstalledAcpAgent = z.infer<typeof InstalledAcpAgentSchema>;
