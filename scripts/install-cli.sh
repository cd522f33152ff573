#!/usr/bin/env bash
# Puts `openmates` on the PATH from this clone, without root: a small shim in ~/.local/bin (or
# $PREFIX/bin when PREFIX is set, or --bin-dir DIR) that runs packages/cli/bin/run.js here.
#
#   bash scripts/install-cli.sh                  install (bootstraps Node, installs, builds first)
#   bash scripts/install-cli.sh --uninstall      remove the shim again
#   options: --bin-dir DIR (where the shim goes), --no-build (the build is already current)
#
# The shim runs the Node this script found at or above the floor: the machine's own, or, when that
# one is older, the Node 24 the bootstrap keeps in .tools/. Its path is written into the shim, so a
# command pays no check of its own on every start.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
marker='# openmates shim, written by scripts/install-cli.sh'

bin_dir=${PREFIX:+$PREFIX/bin}
bin_dir=${bin_dir:-$HOME/.local/bin}
uninstall=false
build=true
while [ $# -gt 0 ]; do
  case $1 in
  --bin-dir)
    [ $# -ge 2 ] || { echo "install-cli: --bin-dir needs a directory" >&2; exit 2; }
    bin_dir=$2
    shift 2
    ;;
  --bin-dir=*) bin_dir=${1#--bin-dir=}; shift ;;
  --uninstall) uninstall=true; shift ;;
  --no-build) build=false; shift ;;
  *) echo "install-cli: unknown argument '$1' (known: --bin-dir DIR, --uninstall, --no-build)" >&2; exit 2 ;;
  esac
done
shim="$bin_dir/openmates"

if $uninstall; then
  if [ ! -e "$shim" ]; then
    echo "install-cli: nothing to remove: $shim does not exist"
    exit 0
  fi
  # Only ever a file this script wrote: anything else named `openmates` is the user's.
  if ! grep -qxF "$marker" "$shim" 2>/dev/null; then
    echo "install-cli: $shim was not written by this script; left as it is" >&2
    exit 1
  fi
  rm -f "$shim"
  echo "install-cli: removed $shim"
  exit 0
fi

if [ -e "$shim" ] && ! grep -qxF "$marker" "$shim" 2>/dev/null; then
  echo "install-cli: $shim exists and was not written by this script; left as it is (try --bin-dir DIR)" >&2
  exit 1
fi

user_path=$PATH # before the bootstrap puts .tools/ in front
# shellcheck source=bootstrap.sh
. "$root/scripts/bootstrap.sh"
if $build; then
  (cd "$root" && pnpm install --frozen-lockfile && pnpm turbo run build)
fi
node_bin=$(command -v node)
node_bin=$(cd "$(dirname "$node_bin")" && pwd)/$(basename "$node_bin")

# Single quotes around each path, with any quote inside escaped, so that any directory name works.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
mkdir -p "$bin_dir"
tmp="$shim.tmp.$$"
{
  echo '#!/bin/sh'
  echo "$marker"
  echo "# from $root; \`bash scripts/install-cli.sh --uninstall\` there removes it."
  echo "exec $(quote "$node_bin") $(quote "$root/packages/cli/bin/run.js") \"\$@\""
} >"$tmp"
chmod 755 "$tmp"
mv -f "$tmp" "$shim"
echo "install-cli: wrote $shim (Node $("$node_bin" -p process.version) at $node_bin)"

case ":$user_path:" in
*":$bin_dir:"* | *":${bin_dir%/}:"*) ;;
*)
  echo "install-cli: $bin_dir is not on your PATH; add it, e.g. in ~/.profile:"
  echo "  export PATH=\"$bin_dir:\$PATH\""
  ;;
esac
