#!/usr/bin/env bash
# Builds the container image (npm run image): a Debian bookworm base made here with mmdebstrap, the
# Node that built the app, the agent CLIs at their pinned versions, and the production Theia app with
# the companion. Offline but for Debian's and npm's packages; no container registry is used.
#   scripts/image.sh [--skip-setup] [--rebuild-base]
#     --skip-setup    the repository is already installed and built (the test command did it)
#     --rebuild-base  make the Debian base again even when the cached one matches (security updates)
# Layers: base (cached under ~/.cache/theia-cli-companion, or $THEIA_CLI_COMPANION_CACHE, keyed by its inputs) → Node and CLIs (kept while the lockfile and
# Node are the same) → the app (always rebuilt). Prints the image's name and size.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

skip_setup=false
rebuild_base=false
for arg in "$@"; do
    case "$arg" in
        --skip-setup) skip_setup=true ;;
        --rebuild-base) rebuild_base=true ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "error: unknown option $arg (see --help)" >&2; exit 2 ;;
    esac
done

tools=(podman buildah mmdebstrap runc uidmap containernetworking-plugins)
if [ "$skip_setup" = false ]; then
    bash scripts/setup.sh "${tools[@]}"
fi
for tool in podman buildah mmdebstrap; do
    command -v "$tool" >/dev/null || { echo "error: $tool is missing; run without --skip-setup or apt-get install ${tools[*]}" >&2; exit 1; }
done
if [ "$(id -u)" != 0 ]; then
    # mmdebstrap's root mode and buildah's mounts need root; rootless needs subuid ranges we cannot assume.
    echo "error: building the image needs root (sudo npm run image)" >&2
    exit 1
fi

image_field() { node -p "require('./deploy/image.json').$1"; }
name=$(image_field name)
tag=$(image_field tag)
uid=$(image_field uid)
port=$(image_field port)
home=$(image_field home)
workspace=$(image_field workspace)
vsix_path=$(image_field vsix)
image="localhost/$name:$tag"
opt=/opt/theia-cli-companion
stage="$repo/build/image"
cache="${THEIA_CLI_COMPANION_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/theia-cli-companion}/image"
mkdir -p "$stage" "$cache"
started=$SECONDS

# --- Layer 1: the Debian base -------------------------------------------------------------------
# What Theia and the CLIs need at run time (git, ps, certificates, a login shell), tini as PID 1,
# nss_wrapper for UIDs without a passwd entry. Documentation, man pages and translations are left out.
base_packages=bash,ca-certificates,curl,git,less,libnss-wrapper,libstdc++6,openssh-client,procps,tini
base_args=(
    --variant=minbase --format=tar --include="$base_packages"
    --aptopt='Acquire::Languages "none"'
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*'
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias'
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright'
    --customize-hook="chroot \"\$1\" useradd --system --uid $uid --gid 0 --home-dir $home --create-home --shell /bin/bash --comment 'Theia IDE' theia"
    --customize-hook="mkdir -p \"\$1$workspace\" && chown $uid:0 \"\$1$home\" \"\$1$workspace\" && chmod 2775 \"\$1$home\" \"\$1$workspace\""
    # No set-user-ID programs: an account of the workspace cannot become root through su, mount, passwd.
    --customize-hook='find "$1" -xdev -type f -perm /6000 -exec chmod ug-s {} +'
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/var/log/*.log "$1"/var/log/apt/*'
    bookworm
)
base_mirrors=("deb http://deb.debian.org/debian bookworm main" "deb http://deb.debian.org/debian bookworm-updates main"
    "deb http://deb.debian.org/debian-security bookworm-security main")
base_key=$(printf '%s\n' "$(mmdebstrap --version)" "${base_args[@]}" "${base_mirrors[@]}" | sha256sum | cut -c1-16)
base_tar="$cache/base-$base_key.tar"
base_image="localhost/$name-base:$base_key"
if [ "$rebuild_base" = true ] || [ ! -f "$base_tar" ]; then
    echo "Making the Debian base with mmdebstrap (key $base_key)"
    rm -f "$cache"/base-*.tar
    mmdebstrap --quiet "${base_args[@]}" "$base_tar.partial" "${base_mirrors[@]}"
    mv "$base_tar.partial" "$base_tar"
    podman image rm --force "$base_image" >/dev/null 2>&1 || true
else
    echo "Debian base: cached ($base_tar)"
fi
if ! podman image exists "$base_image"; then
    container=$(buildah from scratch)
    buildah add --quiet "$container" "$base_tar" / >/dev/null
    buildah commit --quiet --rm "$container" "$base_image" >/dev/null
fi

# --- Layer 2: Node and the agent CLIs -----------------------------------------------------------
node_binary=$(readlink -f "$(command -v node)")
npm_dir=$(npm root -g)/npm
clis=(gemini qwen claude claude-agent-acp codex-acp opencode copilot)
clis_key=$(cat deploy/image/clis/package-lock.json "$node_binary" "$npm_dir/package.json" <(echo "$base_key ${clis[*]}") | sha256sum | cut -c1-16)
clis_image="localhost/$name-clis:$clis_key"
if ! podman image exists "$clis_image"; then
    echo "Installing Node $(node --version), npm $(npm --version) and the agent CLIs (deploy/image/clis, its lockfile)"
    root="$stage/clis-root"
    rm -rf "$root"
    mkdir -p "$root/usr/local/bin" "$root/usr/local/lib/node_modules" "$root$opt/clis"
    cp "$node_binary" "$root/usr/local/bin/node"
    cp -r "$npm_dir" "$root/usr/local/lib/node_modules/npm"
    rm -rf "$root/usr/local/lib/node_modules/npm/docs" "$root/usr/local/lib/node_modules/npm/man"
    ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
    ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
    cp deploy/image/clis/package.json deploy/image/clis/package-lock.json "$root$opt/clis/"
    # npm install, not npm ci: it keeps the lockfile's versions, and npm ci refuses the optional platform
    # packages that qwen-code's clipboard names but the registry does not serve.
    (cd "$root$opt/clis" && npm install --omit=dev --prefer-offline --no-audit --no-fund --loglevel=error && rm package-lock.json)
    for cli in "${clis[@]}"; do
        [ -e "$root$opt/clis/node_modules/.bin/$cli" ] || { echo "error: the CLI package for $cli installed no '$cli' command" >&2; exit 1; }
        ln -s "$opt/clis/node_modules/.bin/$cli" "$root/usr/local/bin/$cli"
    done
    container=$(buildah from --pull-never "$base_image")
    buildah add --quiet "$container" "$root" / >/dev/null
    buildah commit --quiet --rm "$container" "$clis_image" >/dev/null
    rm -rf "$root"
else
    echo "Node and CLIs: cached ($clis_image)"
fi

# --- Layer 3: the production app, its runtime scripts, the .vsix, the entrypoint ----------------
echo "Building the production app"
app="$stage/app"
mkdir -p "$app"
node -e '
    const fs = require("fs");
    const app = JSON.parse(fs.readFileSync("browser-app/package.json", "utf8"));
    const manifest = { private: true, name: "theia-cli-companion-image-app", version: app.version, theia: app.theia,
        dependencies: app.dependencies, devDependencies: app.devDependencies };
    fs.writeFileSync(process.argv[1], JSON.stringify(manifest, undefined, 2) + "\n");' "$app/package.json"
(cd "$app" && "$repo/node_modules/.bin/theia" build --mode production >"$stage/app-build.log" 2>&1) ||
    { cat "$stage/app-build.log" >&2; echo "error: the production build failed" >&2; exit 1; }

root="$stage/app-root"
rm -rf "$root"
mkdir -p "$root$opt/app" "$root/usr/local/bin"
cp -r "$app/lib" "$root$opt/app/"
find "$root$opt/app/lib" -name '*.map' -delete
# The backend bundle starts two scripts of ours as processes of their own (the CLIs' stdio bridge,
# the spawn helper), resolved from node_modules as in any app that installs our packages: install
# those packages from the tarballs we would publish.
tarballs="$stage/tarballs"
rm -rf "$tarballs" && mkdir -p "$tarballs"
npm pack --silent --pack-destination "$tarballs" --workspace packages/ai-cli-ide-protocol --workspace packages/cli-process \
    --workspace packages/safe-files >/dev/null
echo '{ "private": true, "name": "theia-cli-companion-app", "version": "'"$tag"'", "description": "The production build of browser-app; node_modules holds only what the bundle starts as processes." }' >"$root$opt/app/package.json"
(cd "$root$opt/app" && npm install --omit=dev --prefer-offline --no-audit --no-fund --loglevel=error "$tarballs"/*.tgz)
# What npm recorded of the install (the tarballs' paths on this machine) is not part of the app.
rm -f "$root$opt/app/package-lock.json"
node -e 'const fs = require("fs"), file = process.argv[1], manifest = JSON.parse(fs.readFileSync(file, "utf8"));
    delete manifest.dependencies; fs.writeFileSync(file, JSON.stringify(manifest, undefined, 2) + "\n");' "$root$opt/app/package.json"
cp packages/vscode-companion/vsix/ai-cli-companion.vsix "$root$vsix_path"
cp LICENSE "$root$opt/LICENSE"
install -m 0755 deploy/image/entrypoint.sh "$root/usr/local/bin/theia-cli-companion-entrypoint"

# NO_BROWSER: nobody sees a browser opened inside a container; the CLIs then sign in with a URL or a code instead.
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
previous=$(podman image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
container=$(buildah from --pull-never "$clis_image")
buildah add --quiet "$container" "$root" / >/dev/null
buildah config \
    --user "$uid:0" --workingdir "$workspace" --port "$port/tcp" --stop-signal SIGTERM \
    --env LANG=C.UTF-8 --env SHELL=/bin/bash --env "THEIA_WORKSPACE=$workspace" --env "THEIA_PORT=$port" \
    --env NO_BROWSER=1 \
    --entrypoint '["/usr/bin/tini", "--", "/usr/local/bin/theia-cli-companion-entrypoint"]' --cmd '' \
    --label org.opencontainers.image.title="Theia CLI Companion" \
    --label org.opencontainers.image.description="Eclipse Theia with IDE mode for Gemini CLI, Qwen Code and Claude Code, and ACP agents in Theia AI's chat" \
    --label org.opencontainers.image.version="$tag" \
    --label org.opencontainers.image.revision="$revision" \
    --label org.opencontainers.image.licenses=EPL-2.0 \
    --label org.opencontainers.image.base.name="debian:bookworm (mmdebstrap minbase, made at build time)" \
    "$container"
buildah commit --quiet --rm "$container" "$image" >/dev/null
podman tag "$image" "localhost/$name:latest"
rm -rf "$root" "$tarballs"

# The image this one replaces, now untagged, and earlier bases and CLI layers are not needed again: keep only those this image is built on.
if [ -n "$previous" ] && [ "$(podman image inspect --format '{{len .RepoTags}}' "$previous" 2>/dev/null)" = 0 ]; then
    podman image rm "$previous" >/dev/null 2>&1 || true
fi
for stale in $(podman images --format '{{.Repository}}:{{.Tag}}' | grep -E "^localhost/$name-(base|clis):" || true); do
    [ "$stale" = "$base_image" ] || [ "$stale" = "$clis_image" ] || podman image rm "$stale" >/dev/null 2>&1 || true
done

size=$(podman image inspect --format '{{.Size}}' "$image")
echo "Built $image: $((size / 1000000)) MB in $((SECONDS - started)) s"
echo "Layers: $base_image $clis_image $image"
echo "Run it: podman run --rm -p 127.0.0.1:$port:$port $image    (then open http://127.0.0.1:$port)"
