#!/bin/sh
# Installs axe-core (Deque's accessibility engine: the screen's browser tests inject its axe.min.js into the page and
# expect 0 violations on every view) from the npm registry into <checkout>/target/axe, once (needs npm). Pinned: a new
# axe release can add rules, and a new rule is a change to review, not a surprise in a run.
# -Dqawk.axe.skip=true skips it, and the browser tests then check no accessibility (they say so).
# Usage: install-axe.sh <tools dir>
set -eu
tools="$1"
version=4.11.0
if [ ! -f "$tools/node_modules/axe-core/axe.min.js" ] || ! grep -q "\"version\": \"$version\"" "$tools/node_modules/axe-core/package.json"; then
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-audit --no-fund --loglevel=error "axe-core@$version"
fi
echo "axe-core $(sed -n 's/^  \"version\": \"\(.*\)\",$/\1/p' "$tools/node_modules/axe-core/package.json")"
