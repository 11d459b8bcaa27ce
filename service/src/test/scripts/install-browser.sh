#!/bin/sh
# Installs the headless browser the Orchestrator screen's browser tests drive: Debian's chromium and chromium-driver.
# Idempotent: does nothing when /usr/bin/chromium and /usr/bin/chromedriver are already there.
# Usage (as root, or with sudo available): src/test/scripts/install-browser.sh
set -eu
NAME=install-browser
. "$(dirname "$0")/apt-lib.sh"

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  echo "$NAME: chromium and chromedriver already installed"
  exit 0
fi

apt_root chromium chromium-driver
apt_install "" chromium chromium-driver

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  give_up "apt-get finished but /usr/bin/chromium or /usr/bin/chromedriver is missing"
fi
echo "$NAME: $(/usr/bin/chromedriver --version)"
