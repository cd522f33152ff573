#!/usr/bin/env bash
# `pnpm start`: bootstraps Node and pnpm, installs with the frozen lockfile, builds everything
# (the CLI's dist, the SDK, the GUI when present), then runs `openmates serve` with any arguments
# given (e.g. `pnpm start -- --port 9000`). The provider comes from the environment (docs/reference.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bootstrap.sh
. scripts/bootstrap.sh
pnpm install --frozen-lockfile
pnpm turbo run build
exec node packages/cli/bin/run.js serve "$@"
