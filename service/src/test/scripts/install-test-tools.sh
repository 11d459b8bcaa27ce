#!/bin/sh
# Installs, one after the other (apt-get takes one at a time), what the tests need and a fresh machine lacks, while the
# tests already run: Maven starts this in the background before surefire, so that apt-get of chromium or npm of Prism
# does not hold up the first test. For each tool <name> it leaves in <markers dir> <name>.started (its PID) at once,
# then <name>.done or <name>.failed, and the install's output in <name>.log (also printed here). A test that needs a
# tool waits for it (testkit BuildInstalls).
# Usage: install-test-tools.sh <markers dir> <checkout> <name>=<skip: true|false>...
#   names: browser, prometheus, swupdate (install-<name>.sh), prism (install-prism.sh <checkout>/target/prism) and axe
#   (install-axe.sh <checkout>/target/axe)
set -u
dir=$1
checkout=$2
shift 2
here=$(dirname "$0")
rm -rf "$dir"
mkdir -p "$dir"
todo=""
for arg in "$@"; do
  name=${arg%%=*}
  [ "${arg#*=}" = true ] && continue
  echo $$ > "$dir/$name.started"
  todo="$todo $name"
done
for name in $todo; do
  case $name in
    prism) set -- "$here/install-prism.sh" "$checkout/target/prism" ;;
    axe) set -- "$here/install-axe.sh" "$checkout/target/axe" ;;
    *) set -- "$here/install-$name.sh" ;;
  esac
  if sh "$@" > "$dir/$name.log" 2>&1; then
    mv "$dir/$name.started" "$dir/$name.done"
  else
    mv "$dir/$name.started" "$dir/$name.failed"
  fi
  sed "s/^/[background] /" "$dir/$name.log"
done
