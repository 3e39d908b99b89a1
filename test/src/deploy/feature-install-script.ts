/** What the feature's install.sh says it installs, read from its text: the names it knows, their packages, its defaults. */
export interface InstallScript {
    readonly knownClis: string[];
    /** CLI name → the npm package and the variable holding its version. */
    readonly packages: Record<string, { readonly name: string; readonly versionVariable: string }>;
    /** Variable → the default it takes when run by hand (`: "${VAR:=default}"`). */
    readonly defaults: Record<string, string>;
}

export function readInstallScript(text: string): InstallScript {
    const known = /^KNOWN_CLIS="([^"]*)"$/m.exec(text);
    const packages = [...text.matchAll(/^\s+([\w-]+)\) echo "(.+)@\$\{(\w+)\}" ;;$/gm)]
        .map(([, cli, name, versionVariable]) => [cli, { name, versionVariable }]);
    const defaults = [...text.matchAll(/^: "\$\{(\w+):=([^}]*)\}"$/gm)].map(([, variable, value]) => [variable, value]);
    return { knownClis: known ? known[1].split(' ') : [], packages: Object.fromEntries(packages), defaults: Object.fromEntries(defaults) };
}

/** The variable a dev container tool passes an option as (containers.dev, Features spec, "Option Resolution"). */
export function optionVariable(optionId: string): string {
    return optionId.replace(/[^\w_]/g, '_').replace(/^[\d_]+/g, '_').toUpperCase();
}
