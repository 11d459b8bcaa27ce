#!/bin/sh
# Installs the Prometheus the metric gate's tests query: Debian's prometheus package (binary /usr/bin/prometheus).
# Idempotent: does nothing when /usr/bin/prometheus is already there.
# The tests start their own instance on a free 127.0.0.1 port (testkit PrometheusServer); the package's own service
# (prometheus.service on :9090) is kept from starting while installing and disabled afterwards, so nothing of it
# stays running.
# Usage (as root, or with sudo available): src/test/scripts/install-prometheus.sh
set -eu

if [ -x /usr/bin/prometheus ]; then
  echo "install-prometheus: $(/usr/bin/prometheus --version 2>&1 | head -n 1)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "install-prometheus: need root (or sudo) to apt-get install prometheus" >&2
    exit 1
  fi
fi

# invoke-rc.d and deb-systemd-invoke ask /usr/sbin/policy-rc.d whether a package may start its service; 101 = no.
# Put one there only for the install, and only when the machine has none (a container usually has its own).
POLICY=/usr/sbin/policy-rc.d
OWN_POLICY=""
if [ ! -e "$POLICY" ]; then
  printf '#!/bin/sh\n# install-prometheus: no service starts while it installs\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
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
$SUDO apt-get update
# without recommends: no node exporter and no other exporters beside it
$SUDO apt-get install -y --no-install-recommends prometheus

# never started by the package (policy above), and not at the next boot either
# (systemctl disable also works while systemd is not running, and disables the SysV script with it)
if command -v systemctl >/dev/null 2>&1; then
  $SUDO systemctl disable prometheus.service >/dev/null 2>&1 || true
  if [ -d /run/systemd/system ]; then
    $SUDO systemctl stop prometheus.service >/dev/null 2>&1 || true
  fi
elif command -v update-rc.d >/dev/null 2>&1; then
  $SUDO update-rc.d prometheus disable >/dev/null 2>&1 || true
fi

if [ ! -x /usr/bin/prometheus ]; then
  echo "install-prometheus: apt-get finished but /usr/bin/prometheus is missing" >&2
  exit 1
fi
echo "install-prometheus: $(/usr/bin/prometheus --version 2>&1 | head -n 1)"
