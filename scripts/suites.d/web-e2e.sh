#!/usr/bin/env bash
# The web GUI's browser tests (Playwright in Debian's Chromium) against the built app mounted on the
# API, as `openmates serve` mounts it. Usage: web-e2e.sh RESULTS_DIR; writes RESULTS_DIR/playwright.json.
# A run that crashes before Playwright reports still leaves a report that counts as one failure.
set -uo pipefail
results=$(mkdir -p "$1" && cd "$1" && pwd)
report="$results/playwright.json"
rm -f "$report"
cd "$(dirname "$0")/../../apps/web" || exit 1
[ -f build/handler.js ] || pnpm -s build || true
PLAYWRIGHT_JSON_OUTPUT_FILE="$report" pnpm -s exec playwright test
status=$?
if [ ! -s "$report" ]; then
  printf '{"stats":{"expected":0,"unexpected":1,"flaky":0},"errors":[{"message":"playwright wrote no report (exit %s)"}]}\n' "$status" >"$report"
fi
exit "$status"
