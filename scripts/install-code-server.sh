#!/usr/bin/env bash
# Installs code-server 4.100.3 (the last whose engines say Node 20) for the tests of the VS Code
# extension, once per machine: it lives in a cache outside the clone, so later runs of the suite and
# fresh clones reuse it. Prints the installation directory. Needs the Debian packages setup.sh installs
# (libkrb5-dev, libxkbfile-dev, pkg-config, ripgrep and a compiler for its native modules).
# The three workarounds are in shared/reference/vscode-hosts.md.
set -euo pipefail

version=4.100.3
cache=${THEIA_CLI_COMPANION_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/theia-cli-companion}
target="$cache/code-server-$version"
if [ -f "$target/.installed" ] && [ -x "$target/node_modules/.bin/code-server" ]; then
    echo "$target"
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$target.partial"
mkdir -p "$target.partial" "$work/tmp"

# 1. code-server's install script asks npm for unsafe-perm, which npm 11 no longer knows (it only warns).
export npm_config_unsafe_perm=true
# 2. @vscode/ripgrep's postinstall downloads rg from GitHub: seed its cache with Debian's rg.
case "$(uname -m)" in
    x86_64) rg_target=x86_64-unknown-linux-musl ;;
    aarch64 | arm64) rg_target=aarch64-unknown-linux-musl ;;
    *) echo "error: no ripgrep build is known for $(uname -m)" >&2; exit 1 ;;
esac
rg_cache="$work/tmp/vscode-ripgrep-cache-1.15.11"
mkdir -p "$rg_cache" "$work/rg"
cp "$(command -v rg)" "$work/rg/rg"
tar -czf "$rg_cache/ripgrep-v13.0.0-10-$rg_target.tar.gz" -C "$work/rg" rg
export TMPDIR="$work/tmp"
# 3. node-pty's postinstall runs `npx node-gyp`: no question asked.
export npm_config_yes=true
export PUPPETEER_SKIP_DOWNLOAD=true
node_prefix=$(dirname "$(dirname "$(command -v node)")")
if [ -z "${npm_config_nodedir:-}" ] && [ -f "$node_prefix/include/node/node.h" ]; then
    export npm_config_nodedir="$node_prefix"
fi

echo '{ "private": true }' > "$target.partial/package.json"
(cd "$target.partial" && npm install --no-audit --no-fund --foreground-scripts --loglevel=error "code-server@$version" >"$work/install.log" 2>&1) || {
    tail -40 "$work/install.log" >&2
    echo "error: could not install code-server $version (log above)" >&2
    exit 1
}
touch "$target.partial/.installed"
rm -rf "$target"
mv "$target.partial" "$target"
echo "$target"
