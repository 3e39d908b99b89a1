/** An npm package named by a registry entry: `@google/gemini-cli@0.27.3` is name + version. */
export interface NpmPackageSpec {
    readonly name: string;
    /** An exact version or a dist-tag; the registry requires the exact version (no `@latest`). */
    readonly version?: string;
}

// npm's own rules for new names (validate-npm-package-name): lower case, URL-safe, no leading dot
// or underscore, at most 214 characters. Anything else (a path, a git URL, a tarball URL, a name
// starting with "-" that npm would read as an option) is refused, so the spec can only ever name a
// package of the configured npm registry.
const NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,127}$/;

/** Splits and validates `name[@version]`; undefined when it is not a plain registry package. */
export function parseNpmPackageSpec(spec: string): NpmPackageSpec | undefined {
    const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
    const name = at < 0 ? spec : spec.slice(0, at);
    const version = at < 0 ? undefined : spec.slice(at + 1);
    if (name.length > 214 || !NAME.test(name) || (version !== undefined && !VERSION.test(version))) {
        return undefined;
    }
    return version === undefined ? { name } : { name, version };
}
