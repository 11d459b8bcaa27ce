#!/bin/sh
# Lints the OpenAPI document the build stored (the one /q/openapi serves) with Redocly's recommended rules and the
# exceptions in service/redocly.yaml: an error fails the build. Redocly's CLI comes from the npm registry, installed
# once into <checkout>/target/redocly (needs node and npm).
# Usage: lint-openapi.sh <tools dir> <document> <redocly.yaml>
set -eu
tools="$1"
document="$2"
config="$3"
version=2.77.0
if [ ! -x "$tools/node_modules/.bin/redocly" ] || ! grep -q "\"version\": \"$version\"" "$tools/node_modules/@redocly/cli/package.json"; then
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-audit --no-fund --loglevel=error "@redocly/cli@$version"
fi
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
  "$tools/node_modules/.bin/redocly" lint --config "$config" --format=stylish "$document"
