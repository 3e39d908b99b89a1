/** Where clients fetch the published index (the registry's README, "Usage"; rebuilt on every merge to its main branch). */
export const ACP_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether we may download from `url`: https only, since what comes from there is run as the user
 * (a registry entry carries no checksum). Plain http is allowed to the loopback address alone, so a
 * test (or a local mirror) can serve a registry and its archives without a certificate.
 */
export function isAllowedDownloadUrl(url: string): boolean {
    let parsed: URL;
    try {
        parsed = new URL(url);
    } catch {
        return false;
    }
    if (parsed.username || parsed.password) {
        return false;
    }
    return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname));
}
