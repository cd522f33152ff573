#!/usr/bin/env bash
# A 10-second soak of the real `openmates serve` over the Brave fixture (packages/cli/scripts/soak.ts):
# mixed batches, 400s, provider errors, slow providers and client aborts. Fails on any lost answer,
# unexpected 5xx or unclean exit. Usage: soak.sh RESULTS_DIR; writes RESULTS_DIR/check-soak.
# The rate is modest so that a busy 2-core machine still passes; docs/benchmarks.md gives a 60 s run at 300 req/s.
set -uo pipefail
results=$(mkdir -p "$1" && cd "$1" && pwd)
cd "$(dirname "$0")/../.." || exit 1
[ -f packages/cli/dist/fast-search.js ] || pnpm -s turbo run build --filter=@openmates/cli... >/dev/null || true
if timeout 120 node packages/cli/scripts/soak.ts --duration 10 --rate 100 --check; then
  echo pass >"$results/check-soak"
else
  echo fail >"$results/check-soak"
  exit 1
fi
