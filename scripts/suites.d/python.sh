#!/usr/bin/env bash
# The pip SDK's unittest suite (packages/sdk-python/tests) against the real server on the Brave
# fixture. Usage: python.sh RESULTS_DIR; writes RESULTS_DIR/python.json with the counts in vitest's
# shape, which scripts/test-summary.ts totals. Pyright runs in the typecheck step, the wheel in the
# parity suite's pip column. A run that crashes before reporting counts as one failure.
set -uo pipefail
results=$(mkdir -p "$1" && cd "$1" && pwd)
report="$results/python.json"
rm -f "$report"
cd "$(dirname "$0")/../../packages/sdk-python" || exit 1
PYTHONPATH=src PYTHONDONTWRITEBYTECODE=1 timeout 600 python3 - "$report" <<'PY'
import json
import sys
import unittest

suite = unittest.defaultTestLoader.discover("tests", top_level_dir=".")
result = unittest.TextTestRunner(verbosity=2).run(suite)
failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
passed = result.testsRun - failed - len(result.skipped)
with open(sys.argv[1], "w") as report:
    json.dump({"numPassedTests": passed, "numFailedTests": failed, "success": result.wasSuccessful()}, report)
sys.exit(0 if result.wasSuccessful() else 1)
PY
status=$?
if [ ! -s "$report" ]; then
  printf '{"numPassedTests":0,"numFailedTests":1,"success":false}\n' >"$report"
fi
exit "$status"
