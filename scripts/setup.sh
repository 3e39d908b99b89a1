#!/usr/bin/env bash
# Installs what the project needs on a Debian machine with Node 20 and npm, then builds it.
# Usage: scripts/setup.sh [debian-package ...]   (packages beyond the build's own needs)
set -euo pipefail
cd "$(dirname "$0")/.."

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
    echo "error: Node.js 20 or newer is required (found $(node --version 2>/dev/null || echo none))" >&2
    exit 1
fi

# libsecret-1-dev: keytar (a Theia dependency) builds from source when its prebuilt binary cannot be fetched.
packages=(libsecret-1-dev "$@")
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        apt_get=(apt-get)
    elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
        apt_get=(sudo apt-get)
    else
        echo "error: missing Debian packages: ${missing[*]}. Install them with: sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
    echo "Installing Debian packages: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" update -qq
    DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# node-gyp would download Node's headers; use the ones installed with Node when they exist.
node_prefix=$(dirname "$(dirname "$(command -v node)")")
if [ -z "${npm_config_nodedir:-}" ] && [ -f "$node_prefix/include/node/node.h" ]; then
    export npm_config_nodedir="$node_prefix"
fi
export PUPPETEER_SKIP_DOWNLOAD=true

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "Installing npm dependencies (npm ci)"
    npm ci --no-audit --no-fund --loglevel=error
fi

echo "Building"
npm run --silent compile
npm run --silent build --workspace browser-app >/dev/null
npm run --silent build --workspace packages/vscode-companion >/dev/null
