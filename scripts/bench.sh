#!/usr/bin/env bash
# Installs and builds like the tests, then runs every benchmark against its baseline in the same run
# and prints the table; the JSON and Markdown go to test-results/benchmarks.{json,md}.
# Options: --quick (few repetitions), --out <file.json>, --only <server,snapshots,browser,vscode,startup,image> (a part;
# never written into the document), --no-docs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh chromium tmux procps git
exec node --expose-gc -r reflect-metadata test/lib/bench/run-benchmarks.js "$@"
