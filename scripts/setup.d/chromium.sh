#!/usr/bin/env bash
# Installs Debian's Chromium for the web GUI's Playwright tests when it is missing. Playwright's own
# browser downloads are never used (they cannot be fetched here); the tests launch /usr/bin/chromium.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
# shellcheck source=../lib/apt-install.sh
. "$(dirname "$0")/../lib/apt-install.sh"
apt_install "about 40 s" chromium
[ -x /usr/bin/chromium ]
