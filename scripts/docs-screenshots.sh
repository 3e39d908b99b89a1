#!/usr/bin/env bash
# Takes the user guide's screenshots (docs/images/*.png): installs and builds like the test command
# (scripts/setup.sh), then runs the end-to-end specs that take them (those that call saveDocScreenshot)
# with THEIA_CLI_COMPANION_SCREENSHOTS=1. The test command itself never writes docs/images.
# Usage: npm run docs:screenshots [-- <mocha option>...]   e.g. -- --grep 'status view'
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh chromium tmux procps git

# The specs from their sources (test/lib may still hold the output of a spec that was moved or removed).
specs=()
while IFS= read -r source; do
    spec="test/lib/${source#test/src/}"
    specs+=("${spec%.ts}.js")
done < <(grep -rl --include='*.slow-spec.ts' '\.saveDocScreenshot(' test/src | sort)
if [ ${#specs[@]} = 0 ]; then
    echo "error: no spec under test/src calls saveDocScreenshot" >&2
    exit 1
fi
echo "Taking the screenshots in docs/images with: ${specs[*]}"
THEIA_CLI_COMPANION_SCREENSHOTS=1 npx mocha --config configs/mocharc.yml --timeout 180000 "$@" "${specs[@]}"
git status --short -- docs/images 2>/dev/null || true
