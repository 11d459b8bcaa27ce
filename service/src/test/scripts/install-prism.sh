#!/bin/sh
# Installs Stoplight Prism's CLI (its validating proxy: GeneratedClientTest runs the README's tour through it) from the
# npm registry into <checkout>/target/prism, once (needs node and npm). 5.14.2: the newest that runs on Node 18 to 22
# (5.15 and later need Node 24). -Dqawk.prism.skip=true skips it, and the test then talks to the service directly.
# Usage: install-prism.sh <tools dir>
set -eu
tools="$1"
version=5.14.2
if [ ! -x "$tools/node_modules/.bin/prism" ] || ! grep -q "\"version\": \"$version\"" "$tools/node_modules/@stoplight/prism-cli/package.json"; then
  mkdir -p "$tools"
  SCARF_ANALYTICS=false npm install --prefix "$tools" --no-audit --no-fund --loglevel=error "@stoplight/prism-cli@$version"
fi
"$tools/node_modules/.bin/prism" --version
