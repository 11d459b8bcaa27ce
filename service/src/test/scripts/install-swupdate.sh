#!/bin/sh
# Installs what the SWUpdate device tests run: Debian's swupdate package (binary /usr/bin/swupdate, its suricatta
# hawkBit client built in) and openssl (the test kit signs its images with it).
# Idempotent: does nothing when both are already there. Never fails the build: where they cannot be installed (no
# root, no sudo, no apt-get, not Debian) it says so and the SWUpdate test classes skip, saying why.
# The tests start their own swupdate processes (testkit SwupdateDevices); the package's own service
# (swupdate.service and swupdate.socket) is kept from starting while installing and disabled afterwards.
# Usage (as root, or with sudo available): src/test/scripts/install-swupdate.sh
set -u
NAME=install-swupdate
give_up() {
  echo "$NAME: $1; the SWUpdate device tests will skip" >&2
  exit 0
}
. "$(dirname "$0")/apt-lib.sh"

installed() {
  echo "$NAME: swupdate $(dpkg-query -W -f='${Version}' swupdate 2>/dev/null || echo "(not from a package)"), $(openssl version)"
}

if command -v swupdate >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1; then
  installed
  exit 0
fi

apt_root swupdate openssl
apt_install "swupdate.service swupdate.socket" --no-install-recommends swupdate openssl

command -v swupdate >/dev/null 2>&1 || give_up "apt-get finished but swupdate is missing"
installed
