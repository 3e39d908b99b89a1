/**
 * The platform keys of a binary distribution, as the registry names them (`FORMAT.md`, "Platform
 * Targets"; `agent.schema.json` allows exactly these).
 */
export const ACP_REGISTRY_PLATFORMS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const;

export type AcpRegistryPlatform = typeof ACP_REGISTRY_PLATFORMS[number];

const OPERATING_SYSTEMS: Record<string, string> = { darwin: 'darwin', linux: 'linux', win32: 'windows' };
const ARCHITECTURES: Record<string, string> = { x64: 'x86_64', arm64: 'aarch64' };

/**
 * The registry's key for a Node `process.platform` and `process.arch` (`linux` + `x64` is
 * `linux-x86_64`), or undefined where the registry publishes no builds (32-bit, FreeBSD, …). Takes
 * both as arguments so that common code needs no Node globals and tests can ask for any platform.
 */
export function registryPlatformOf(platform: string, arch: string): AcpRegistryPlatform | undefined {
    const key = `${OPERATING_SYSTEMS[platform]}-${ARCHITECTURES[arch]}`;
    return ACP_REGISTRY_PLATFORMS.find(known => known === key);
}
