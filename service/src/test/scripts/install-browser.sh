#!/bin/sh
# Installs the headless browser the Orchestrator screen's browser tests drive: Debian's chromium and chromium-driver.
# Idempotent: does nothing when /usr/bin/chromium and /usr/bin/chromedriver are already there.
# Usage (as root, or with sudo available): src/test/scripts/install-browser.sh
set -eu

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  echo "install-browser: chromium and chromedriver already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "install-browser: need root (or sudo) to apt-get install chromium chromium-driver" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y chromium chromium-driver

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  echo "install-browser: apt-get finished but /usr/bin/chromium or /usr/bin/chromedriver is missing" >&2
  exit 1
fi
echo "install-browser: $(/usr/bin/chromedriver --version)"
