#!/usr/bin/env bash
# The test command (README): bootstraps Node and pnpm, installs with the frozen lockfile, then runs
# lint, typecheck, every vitest project (unit, integration, parity: vitest.config.ts) and the
# browser tests, and ends with one line `N passed, N failed` totalling all of them. Exits non-zero
# when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bootstrap.sh
. scripts/bootstrap.sh || exit 1
export CI="${CI:-true}"

results=.test-results
rm -rf "$results" && mkdir -p "$results"

step() { # step NAME COMMAND... : runs a check, records its outcome as one passed or failed check
  local name=$1
  shift
  echo "::: $name"
  if "$@"; then echo "pass" >"$results/check-$name"; else echo "fail" >"$results/check-$name"; fi
}

echo "::: install"
pnpm install --frozen-lockfile --reporter=append-only || { echo "0 passed, 1 failed"; exit 1; }

for setup in scripts/setup.d/*.sh; do
  [ -e "$setup" ] || continue
  echo "::: setup $(basename "$setup")"
  bash "$setup" || { echo "setup $setup failed" >&2; echo "0 passed, 1 failed"; exit 1; }
done

step lint pnpm -s lint
step typecheck pnpm -s typecheck
step build pnpm -s turbo run build
echo "::: vitest"
pnpm -s vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json"
for suite in scripts/suites.d/*.sh; do
  [ -e "$suite" ] || continue
  echo "::: suite $(basename "$suite" .sh)"
  bash "$suite" "$results"
done

[ -f assertions/report/matrix.txt ] && cat assertions/report/matrix.txt
node scripts/test-summary.ts "$results"
