#!/usr/bin/env bash
# Installs, builds and starts the Theia app with the CLI companion on the example workspace.
#   scripts/start.sh [--hostname 127.0.0.1] [--port 3000] [workspace-folder]
# Cloud workspaces serve the IDE on 0.0.0.0 behind a proxy (--hostname 0.0.0.0); the companion's
# own MCP servers always stay on 127.0.0.1 whatever this says.
set -euo pipefail
cd "$(dirname "$0")/.."
hostname=127.0.0.1
port=3000
workspace=examples/workspace
while [ $# -gt 0 ]; do
    case "$1" in
        --hostname) hostname="$2"; shift 2 ;;
        --port) port="$2"; shift 2 ;;
        -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
        *) workspace="$1"; shift ;;
    esac
done
bash scripts/setup.sh
echo "Starting Theia at http://$hostname:$port on $workspace"
exec node browser-app/lib/backend/main.js "$workspace" --hostname "$hostname" --port "$port"
