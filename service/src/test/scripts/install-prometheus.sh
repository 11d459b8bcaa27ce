#!/bin/sh
# Installs the Prometheus the metric gate's tests query: Debian's prometheus package (binary /usr/bin/prometheus).
# Idempotent: does nothing when /usr/bin/prometheus is already there.
# The tests start their own instance on a free 127.0.0.1 port (testkit PrometheusServer); the package's own service
# (prometheus.service on :9090) is kept from starting while installing and disabled afterwards, so nothing of it
# stays running.
# Usage (as root, or with sudo available): src/test/scripts/install-prometheus.sh
set -eu
NAME=install-prometheus
. "$(dirname "$0")/apt-lib.sh"

if [ -x /usr/bin/prometheus ]; then
  echo "$NAME: $(/usr/bin/prometheus --version 2>&1 | head -n 1)"
  exit 0
fi

apt_root prometheus
# without recommends: no node exporter and no other exporters beside it
apt_install prometheus.service --no-install-recommends prometheus

[ -x /usr/bin/prometheus ] || give_up "apt-get finished but /usr/bin/prometheus is missing"
echo "$NAME: $(/usr/bin/prometheus --version 2>&1 | head -n 1)"
