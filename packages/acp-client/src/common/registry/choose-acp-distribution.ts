import {
    ACP_DISTRIBUTION_KINDS, AcpDistributionKind, AcpRegistryAgent, AcpRegistryBinaryTarget, AcpRegistryNpxDistribution, AcpRegistryUvxDistribution
} from './acp-registry-schema';
import { AcpRegistryPlatform } from './registry-platform';

export type ChosenAcpDistribution =
    | { readonly kind: 'binary'; readonly platform: AcpRegistryPlatform; readonly target: AcpRegistryBinaryTarget }
    | { readonly kind: 'npx'; readonly npx: AcpRegistryNpxDistribution }
    | { readonly kind: 'uvx'; readonly uvx: AcpRegistryUvxDistribution };

/**
 * How `agent` is installed on `platform`: the kind asked for, or else the first the agent offers of
 * binary (no runtime needed), npx (needs Node.js, which the IDE has), uvx (needs uv). Answers a
 * sentence instead when there is no way, so the UI can show why before anyone clicks Install.
 */
export function chooseAcpDistribution(agent: AcpRegistryAgent, platform: AcpRegistryPlatform | undefined, preferred?: AcpDistributionKind): ChosenAcpDistribution | string {
    const kinds = preferred ? [preferred] : ACP_DISTRIBUTION_KINDS;
    for (const kind of kinds) {
        const target = kind === 'binary' && platform ? agent.distribution.binary?.[platform] : undefined;
        if (kind === 'binary' && platform && target) {
            return { kind, platform, target };
        } else if (kind === 'npx' && agent.distribution.npx) {
            return { kind, npx: agent.distribution.npx };
        } else if (kind === 'uvx' && agent.distribution.uvx) {
            return { kind, uvx: agent.distribution.uvx };
        }
    }
    const offered = ACP_DISTRIBUTION_KINDS.filter(kind => agent.distribution[kind] !== undefined);
    if (preferred && !offered.includes(preferred)) {
        return `Agent "${agent.id}" is not distributed as ${preferred}; it offers ${offered.join(', ') || 'nothing this client knows'}`;
    }
    const builds = Object.keys(agent.distribution.binary ?? {}).join(', ') || 'no platform this client knows';
    const here = platform ?? 'this platform (the registry publishes no builds for it)';
    return `Agent "${agent.id}" has no build for ${here} (its builds are for ${builds})${preferred ? '' : ', and no npx or uvx package'}`;
}
