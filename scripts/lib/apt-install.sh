# Sourced by the scripts of scripts/setup.d: `apt_install WHAT PACKAGE...` installs Debian packages
# without prompting, through sudo unless already root, telling the user first (WHAT: how long it
# takes, for that line). Package lists are refreshed once per call.
apt_install() {
  local what=$1
  shift
  echo "setup: installing Debian's $* ($what) ..." >&2
  local sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}
