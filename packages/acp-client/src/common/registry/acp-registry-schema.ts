import { z } from 'zod';
import { parseNpmPackageSpec } from './npm-package-spec';
import { isPypiPackageSpec } from './pypi-package-spec';
import { ACP_REGISTRY_PLATFORMS, AcpRegistryPlatform } from './registry-platform';
import { isAllowedDownloadUrl } from './registry-url';

/*
 * The ACP Registry's index (github.com/agentclientprotocol/registry: `registry.schema.json`,
 * `agent.schema.json`, `FORMAT.md`), read leniently where we only display and strictly where we
 * download, unpack or run. zod objects drop fields we do not know, so a registry that grows new
 * fields still parses; what we use must be exactly right, because it names folders and programs.
 */

/** The registry's own rule (`^[a-z][a-z0-9-]*$`), capped: the id names the agent's install folder. */
export const ACP_REGISTRY_ID = /^[a-z][a-z0-9-]{0,63}$/;

// Semantic version first (the registry's pattern is `^[0-9]+\.[0-9]+\.[0-9]+`), then characters that
// are safe in a folder name: the version names the folder an install goes into.
const VERSION = /^[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]{0,40}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const SHA256 = /^[0-9a-fA-F]{64}$/;

const downloadUrl = z.string().refine(isAllowedDownloadUrl, 'must be an https URL (http only to 127.0.0.1, localhost or [::1])');
const args = z.array(z.string().max(4096)).max(100).default([]);
const env = z.record(z.string().regex(ENV_NAME, 'must be an environment variable name'), z.string().max(32768)).default({});

/** Where the executable lies in the unpacked archive; `./codex-acp`, `bin/agent`, never outside it. */
function isRelativeInside(cmd: string): boolean {
    const parts = cmd.replace(/\\/g, '/').split('/');
    return !/^([a-zA-Z]:)?[\\/]/.test(cmd) && !parts.includes('..') && parts.some(part => part !== '' && part !== '.');
}

export const AcpRegistryBinaryTargetSchema = z.object({
    archive: downloadUrl,
    cmd: z.string().min(1).max(1024).refine(isRelativeInside, 'must be a path inside the archive, such as "./agent" (not absolute, no "..")'),
    args,
    env,
    /** Not in the registry's schema today; honoured when present, so an entry (or a mirror) can pin the archive. */
    sha256: z.string().regex(SHA256, 'must be 64 hexadecimal digits').transform(hash => hash.toLowerCase()).optional()
});
export type AcpRegistryBinaryTarget = z.infer<typeof AcpRegistryBinaryTargetSchema>;

/** One archive per platform. Keys this client does not know (a future `freebsd-x86_64`) are ignored, not errors. */
const BinaryDistributionSchema = z.record(z.string(), z.unknown()).transform((targets, ctx) => {
    const known: Partial<Record<AcpRegistryPlatform, AcpRegistryBinaryTarget>> = {};
    for (const platform of ACP_REGISTRY_PLATFORMS) {
        if (targets[platform] === undefined) {
            continue;
        }
        const parsed = AcpRegistryBinaryTargetSchema.safeParse(targets[platform]);
        if (parsed.success) {
            known[platform] = parsed.data;
        } else {
            parsed.error.issues.forEach(issue => ctx.addIssue({ ...issue, path: [platform, ...issue.path] }));
        }
    }
    return known;
});

export const AcpRegistryNpxDistributionSchema = z.object({
    package: z.string().refine(spec => parseNpmPackageSpec(spec) !== undefined, 'must be an npm package name with an optional @version'),
    args,
    env
});
export type AcpRegistryNpxDistribution = z.infer<typeof AcpRegistryNpxDistributionSchema>;

export const AcpRegistryUvxDistributionSchema = z.object({
    package: z.string().refine(isPypiPackageSpec, 'must be a PyPI package name with an optional version (==1.2.3 or @1.2.3)'),
    args,
    env
});
export type AcpRegistryUvxDistribution = z.infer<typeof AcpRegistryUvxDistributionSchema>;

/** The ways of installing that this client knows, in the order it prefers them. */
export const ACP_DISTRIBUTION_KINDS = ['binary', 'npx', 'uvx'] as const;
export type AcpDistributionKind = typeof ACP_DISTRIBUTION_KINDS[number];

export const AcpRegistryDistributionSchema = z.object({
    binary: BinaryDistributionSchema.optional(),
    npx: AcpRegistryNpxDistributionSchema.optional(),
    uvx: AcpRegistryUvxDistributionSchema.optional()
}).passthrough().superRefine((distribution, ctx) => {
    if (!ACP_DISTRIBUTION_KINDS.some(kind => distribution[kind] !== undefined)) {
        const others = Object.keys(distribution);
        ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: `offers no way of installing that this client knows (binary, npx, uvx)${others.length ? `; it has ${others.join(', ')}` : ''}`
        });
    }
}).transform(({ binary, npx, uvx }) => ({ binary, npx, uvx }));
export type AcpRegistryDistribution = z.infer<typeof AcpRegistryDistributionSchema>;

/** An icon we may show: an https (or loopback) URL, or an inline `data:image/…` URL. */
function isIconUrl(icon: string): boolean {
    return isAllowedDownloadUrl(icon) || /^data:image\/(svg\+xml|png|jpeg|gif|webp)[;,]/.test(icon);
}

export const AcpRegistryAgentSchema = z.object({
    id: z.string().regex(ACP_REGISTRY_ID, 'must be lower-case letters, digits and "-", starting with a letter (at most 64)'),
    name: z.string().trim().min(1, 'must not be empty').max(100),
    version: z.string().regex(VERSION, 'must be a semantic version such as 1.2.3'),
    description: z.string().max(2000).default(''),
    repository: downloadUrl.optional(),
    website: downloadUrl.optional(),
    authors: z.array(z.string()).default([]),
    license: z.string().max(200).optional(),
    icon: z.string().max(65536).refine(isIconUrl, 'must be an https or data:image URL').optional(),
    distribution: AcpRegistryDistributionSchema
});
export type AcpRegistryAgent = z.infer<typeof AcpRegistryAgentSchema>;

/**
 * The index itself. Its `version` is the format's (1.0.0 today), not a release; `extensions` (same
 * shape, not yet used by clients) may be absent. Each agent is checked on its own in `parseAcpRegistry`.
 */
export const AcpRegistryIndexSchema = z.object({
    version: z.string().regex(/^[0-9]+\.[0-9]+\.[0-9]+/, 'must be a semantic version such as 1.0.0'),
    agents: z.array(z.unknown())
});
