#!/usr/bin/env bash
# MCP clients nobody here wrote, against the real servers (packages/mcp/scripts/mcp-clients.ts):
# @modelcontextprotocol/conformance over HTTP for its named scenarios, and the MCP Inspector's CLI
# (tools/list, tools/call) over HTTP and stdio, on the local index. Both are devDependencies of
# packages/mcp, never fetched at run time. Usage: mcp-clients.sh RESULTS_DIR; writes
# RESULTS_DIR/mcp-clients.json with the counts in vitest's shape. A crash counts as one failure.
set -uo pipefail
results=$(mkdir -p "$1" && cd "$1" && pwd)
report="$results/mcp-clients.json"
rm -f "$report"
cd "$(dirname "$0")/../.." || exit 1
[ -f packages/cli/dist/fast-mcp.js ] || pnpm -s turbo run build --filter=@openmates/cli... >/dev/null || true
timeout 600 node packages/mcp/scripts/mcp-clients.ts "$report"
status=$?
if [ ! -s "$report" ]; then
  printf '{"numPassedTests":0,"numFailedTests":1,"success":false}\n' >"$report"
fi
exit "$status"
