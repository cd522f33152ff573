# shellcheck shell=bash
# Source this file (`. scripts/bootstrap.sh`) to put Node >= 22.16 and pnpm on PATH.
# Where the machine's Node is older, Node 24 LTS is installed from the npm registry
# (the `node-<platform>-<arch>` packages) into the ignored `.tools/` folder; nothing
# system-wide changes. Safe to source repeatedly.
_om_root=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)
# Runs `npm install ARGS` quietly; when it fails, says what could not be installed and npm's own
# reason (its error lines without the stack), since a silent stop leaves a newcomer guessing.
_om_npm_install() {
  _om_what=$1
  shift
  _om_log=$(mktemp)
  npm install --loglevel=error --no-audit --no-fund "$@" >"$_om_log" 2>&1 && rm -f "$_om_log" && return 0
  _om_status=$?
  echo "bootstrap: could not install $_om_what with npm (exit $_om_status). npm says:" >&2
  if [ -s "$_om_log" ]; then
    grep -vE '^npm (error|ERR!)( {2,}|[[:space:]]*[{}][[:space:]]*$|[[:space:]]*$)' "$_om_log" | head -n 8 | sed 's/^/  /' >&2
  else
    echo "  (nothing)" >&2
  fi
  rm -f "$_om_log"
  return 1
}
_om_ok() {
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=16)?0:1)' 2>/dev/null
}
if ! _om_ok; then
  _om_pkg="node-$(node -p process.platform)-$(node -p process.arch)"
  if [ ! -x "$_om_root/.tools/node_modules/$_om_pkg/bin/node" ]; then
    echo "bootstrap: installing Node 24 ($_om_pkg) into .tools/ ..." >&2
    _om_npm_install "Node 24 ($_om_pkg@24)" --no-save --no-package-lock --prefix "$_om_root/.tools" "$_om_pkg@24" ||
      return 1 2>/dev/null || exit 1
  fi
  export PATH="$_om_root/.tools/node_modules/$_om_pkg/bin:$_om_root/.tools/bin:$PATH"
fi
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null | cut -d. -f1)" != "10" ]; then
  if [ ! -x "$_om_root/.tools/bin/pnpm" ]; then
    echo "bootstrap: installing pnpm 10 into .tools/ ..." >&2
    _om_npm_install "pnpm 10 (pnpm@10.34.8)" -g --prefix "$_om_root/.tools" pnpm@10.34.8 || return 1 2>/dev/null || exit 1
  fi
  export PATH="$_om_root/.tools/bin:$PATH"
fi
export TURBO_TELEMETRY_DISABLED=1
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$_om_root/.tools/compile-cache}"
unset _om_pkg _om_root _om_what _om_log _om_status
unset -f _om_ok _om_npm_install
