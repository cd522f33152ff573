#!/usr/bin/env bash
# Installs Debian's WebKitGTK WebDriver (`WebKitWebDriver` and its MiniBrowser) and Xvfb when either
# is missing, for the parity suite's `webkit` column and `pnpm docs:screenshots`. MiniBrowser has no
# headless mode, so the tests start their own Xvfb display and WebKitWebDriver and end both.
# About 60 packages (470 MiB); roughly a minute the first time, nothing after.
set -euo pipefail
minibrowser=/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser
missing=()
command -v WebKitWebDriver >/dev/null 2>&1 && [ -x "$minibrowser" ] || missing+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
# shellcheck source=../lib/apt-install.sh
. "$(dirname "$0")/../lib/apt-install.sh"
apt_install "about a minute" "${missing[@]}"
command -v WebKitWebDriver >/dev/null 2>&1 && [ -x "$minibrowser" ] && command -v Xvfb >/dev/null 2>&1
