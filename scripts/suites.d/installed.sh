#!/usr/bin/env bash
# Every artifact installed as a user installs it (scripts/release/installed.ts): `pnpm release:pack`,
# then the CLI and npm SDK tarballs installed by npm into empty directories outside the workspace
# (their dependencies from the registry) and the pip wheel into a fresh venv, each used against the
# others; publint, attw, and no install script or private name in the installed trees. One to two
# minutes (55 s on a quiet 2-core machine, 2 min under load; mostly npm fetching the CLI's dependencies). Usage: installed.sh RESULTS_DIR; writes
# RESULTS_DIR/installed.json with the counts in vitest's shape. A crash counts as one failure.
set -uo pipefail
results=$(mkdir -p "$1" && cd "$1" && pwd)
report="$results/installed.json"
rm -f "$report"
cd "$(dirname "$0")/../.." || exit 1
timeout 900 node scripts/release/installed.ts "$report"
status=$?
if [ ! -s "$report" ]; then
  printf '{"numPassedTests":0,"numFailedTests":1,"success":false}\n' >"$report"
fi
exit "$status"
