#!/usr/bin/env bash
# Runs the compatibility test (test/src/compatibility/compatibility.slow-spec.ts, the same fresh-app test the suite
# runs at the tested versions) at the Theia versions given: our packages packed with npm pack,
# installed into a new browser app at each version outside this repository, built and used in Chromium.
# Usage: npm run test:compat -- <version>...   e.g. npm run test:compat -- 1.77.0
# The versions must be ones the npm registry in use serves whole (@theia/cli, core, the ai-* packages, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# = 0 ]; then
    echo "usage: npm run test:compat -- <theia-version>...   (tested in the suite: $(node -p 'require("./configs/theia-support.json").tested.join(", ")'))" >&2
    exit 2
fi
for version in "$@"; do
    if ! [[ "$version" =~ ^1\.[0-9]+\.[0-9]+$ ]]; then
        echo "error: $version is not a Theia 1.x release (like 1.77.0)" >&2
        exit 2
    fi
done
bash scripts/setup.sh chromium tmux procps git
THEIA_COMPAT_VERSIONS="$*" npx mocha --config configs/mocharc.yml --timeout 180000 test/lib/compatibility/compatibility.slow-spec.js
