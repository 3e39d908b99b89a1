#!/usr/bin/env bash
# Installs, builds, lints and runs the whole test suite: unit tests, then integration and end-to-end
# tests against the real Gemini CLI, Qwen Code and Claude Code clients and a real Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
# chromium: browser tests; tmux: the real CLIs run in a pseudo-terminal; procps: the CLIs call ps;
# code-server, which the VS Code extension's tests run: its native modules, its ripgrep;
# the container image's tests (test/src/deploy/): podman and what builds the image.
bash scripts/setup.sh chromium tmux procps git g++ make python3 pkg-config libkrb5-dev libxkbfile-dev ripgrep \
    podman buildah mmdebstrap runc uidmap containernetworking-plugins
echo "Installing code-server for the VS Code extension's tests (cached across runs)"
CODE_SERVER_HOME=$(bash scripts/install-code-server.sh)
export CODE_SERVER_HOME

echo "Linting (npm run lint)"
lint_status=0
npm run --silent lint || lint_status=$?

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
npx mocha --config configs/mocharc.yml --timeout 180000 \
    "packages/*/lib/**/*.spec.js" "test/lib/**/*.spec.js" "packages/*/lib/**/*.slow-spec.js" "test/lib/**/*.slow-spec.js" 2>&1 | tee "$log" || status=$?
passed=$(grep -Eo '^ +[0-9]+ passing' "$log" | grep -Eo '[0-9]+' || echo 0)
failed=$(grep -Eo '^ +[0-9]+ failing' "$log" | grep -Eo '[0-9]+' || echo 0)
pending=$(grep -Eo '^ +[0-9]+ pending' "$log" | grep -Eo '[0-9]+' || echo 0)
echo "tests: $passed passed, $failed failed, $pending skipped"
if [ "$lint_status" != 0 ]; then
    echo "error: npm run lint failed" >&2
    exit "$lint_status"
fi
if [ "$passed" = 0 ] && [ "$status" = 0 ]; then
    echo "error: no test ran" >&2
    exit 1
fi
exit "$status"
