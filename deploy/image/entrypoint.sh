#!/bin/bash
# The image's entrypoint, started by tini (PID 1: it forwards signals and reaps orphans).
# It makes any UID a usable user, then starts the IDE, or runs the command it is given:
#   (no arguments, or options)  node …/main.js /home/project --hostname=0.0.0.0 --port=3000 [options]
#   <command> [args…]            that command, as the same user (`podman run … image gemini --version`)
set -euo pipefail

# OpenShift and Che may start the next pod under another UID of gid 0: keep what we write group-writable.
umask 0002

uid=$(id -u)

workspace=${THEIA_WORKSPACE:-/home/project}

# HOME: the runtime's, when it is a folder this UID can write other than the workspace; else the
# image's home (group 0 may write it); else a private one under /tmp. Kubernetes sets HOME=/ for a
# UID without a passwd entry; podman adds one whose home is the working folder, the workspace here,
# where the IDE's and the CLIs' settings would end up in the user's project.
home_is_usable() {
    [ -n "${HOME:-}" ] && [ "$HOME" != / ] && [ "${HOME%/}" != "${workspace%/}" ] &&
        mkdir -p "$HOME" 2>/dev/null && [ -w "$HOME" ] && [ -x "$HOME" ]
}
if ! home_is_usable; then
    if [ -w /home/theia ] && [ -x /home/theia ]; then
        HOME=/home/theia
    else
        HOME=$(mktemp -d "/tmp/home-$uid.XXXXXX")
    fi
fi
export HOME

# A UID with no passwd entry gets one from nss_wrapper (for whoami, git, ssh, the CLIs' os.userInfo()),
# rather than from a world- or group-writable /etc/passwd that would let the user edit root's entry.
if ! getent passwd "$uid" >/dev/null 2>&1; then
    nss_dir=$(mktemp -d "/tmp/nss-$uid.XXXXXX")
    cp /etc/passwd "$nss_dir/passwd"
    echo "user-$uid:x:$uid:$(id -g):Theia CLI Companion user:$HOME:/bin/bash" >>"$nss_dir/passwd"
    export NSS_WRAPPER_PASSWD="$nss_dir/passwd" NSS_WRAPPER_GROUP=/etc/group
    export LD_PRELOAD="libnss_wrapper.so${LD_PRELOAD:+:$LD_PRELOAD}"
fi

if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
    exec "$@"
fi

if ! mkdir -p "$workspace" 2>/dev/null || [ ! -w "$workspace" ]; then
    echo "theia-cli-companion: the workspace $workspace is not writable by uid $uid (gid $(id -g)); mount it writable or set THEIA_WORKSPACE" >&2
    exit 1
fi
cd "$workspace"
exec node /opt/theia-cli-companion/app/lib/backend/main.js "$workspace" \
    --hostname="${THEIA_HOSTNAME:-0.0.0.0}" --port="${THEIA_PORT:-3000}" "$@"
