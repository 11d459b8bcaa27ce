#!/bin/sh
# Installs what the SWUpdate device tests run: Debian's swupdate package (binary /usr/bin/swupdate, its suricatta
# hawkBit client built in) and openssl (the test kit signs its images with it).
# Idempotent: does nothing when both are already there. Never fails the build: where they cannot be installed (no
# root, no sudo, no apt-get, not Debian) it says so and the SWUpdate test classes skip, saying why.
# The tests start their own swupdate processes (testkit SwupdateDevices); the package's own service
# (swupdate.service and swupdate.socket) is kept from starting while installing and disabled afterwards.
# Usage (as root, or with sudo available): src/test/scripts/install-swupdate.sh
set -u

if command -v swupdate >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1; then
  echo "install-swupdate: swupdate $(dpkg-query -W -f='${Version}' swupdate 2>/dev/null || echo "(not from a package)"), $(openssl version)"
  exit 0
fi

skip() {
  echo "install-swupdate: $1; the SWUpdate device tests will skip" >&2
  exit 0
}

command -v apt-get >/dev/null 2>&1 || skip "no apt-get here to install swupdate"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo -n"
  else
    skip "need root (or sudo without a password) to apt-get install swupdate"
  fi
fi

# invoke-rc.d and deb-systemd-invoke ask /usr/sbin/policy-rc.d whether a package may start its service; 101 = no.
POLICY=/usr/sbin/policy-rc.d
OWN_POLICY=""
if [ ! -e "$POLICY" ]; then
  printf '#!/bin/sh\n# install-swupdate: no service starts while it installs\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
  $SUDO chmod 755 "$POLICY"
  OWN_POLICY=yes
fi
cleanup() {
  if [ -n "$OWN_POLICY" ]; then
    $SUDO rm -f "$POLICY"
  fi
}
trap cleanup EXIT INT TERM

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update || skip "apt-get update failed"
$SUDO apt-get install -y --no-install-recommends swupdate openssl || skip "apt-get install swupdate openssl failed"

if command -v systemctl >/dev/null 2>&1; then
  $SUDO systemctl disable swupdate.service swupdate.socket >/dev/null 2>&1 || true
  if [ -d /run/systemd/system ]; then
    $SUDO systemctl stop swupdate.service swupdate.socket >/dev/null 2>&1 || true
  fi
elif command -v update-rc.d >/dev/null 2>&1; then
  $SUDO update-rc.d swupdate disable >/dev/null 2>&1 || true
fi

command -v swupdate >/dev/null 2>&1 || skip "apt-get finished but swupdate is missing"
echo "install-swupdate: swupdate $(dpkg-query -W -f='${Version}' swupdate 2>/dev/null || echo "(not from a package)"), $(openssl version)"
