#!/usr/bin/env bash
# Installs Debian's redis-server and nginx-light when missing, for the tests of several replicas
# sharing state (docs/deploy.md). Neither is started as a service: the tests run their own as foreground
# child processes on free loopback ports (packages/fixtures/src/redis.ts, nginx.ts).
set -euo pipefail
missing=()
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
# shellcheck source=../lib/apt-install.sh
. "$(dirname "$0")/../lib/apt-install.sh"
apt_install "a few seconds" "${missing[@]}"
# Debian's packages start system services where an init system runs; the tests never use them.
command -v redis-server >/dev/null 2>&1 && { command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; }
