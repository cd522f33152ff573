#!/usr/bin/env bash
# Installs Debian's Chromium for the web GUI's Playwright tests when it is missing. Playwright's own
# browser downloads are never used (they cannot be fetched here); the tests launch /usr/bin/chromium.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "setup: installing Debian's chromium (about 40 s) ..." >&2
export DEBIAN_FRONTEND=noninteractive
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -qq >&2
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends chromium >&2
[ -x /usr/bin/chromium ]
