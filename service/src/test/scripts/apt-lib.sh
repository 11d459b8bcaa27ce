# Sourced by the install-*.sh scripts (POSIX sh): root or sudo, and apt-get with the packages' own services kept from
# starting. The sourcing script sets NAME (its name in messages) and may define give_up (what to do when it cannot
# install; by default the script fails, exit 1) before sourcing.
: "${NAME:?set NAME before sourcing apt-lib.sh}"

if ! command -v give_up >/dev/null 2>&1; then
  give_up() {
    echo "$NAME: $1" >&2
    exit 1
  }
fi

# Sets SUDO to what runs apt-get as root: nothing for root, "sudo -n" where sudo needs no password; else gives up.
apt_root() {
  command -v apt-get >/dev/null 2>&1 || give_up "no apt-get here to install $*"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      SUDO="sudo -n"
    else
      give_up "need root (or sudo without a password) to apt-get install $*"
    fi
  fi
}

# apt_install "<services>" <apt-get install arguments>: installs; the named services (systemd units, or SysV names
# for update-rc.d) neither start while installing nor at the next boot. Call apt_root first.
apt_install() {
  services=$1
  shift
  # invoke-rc.d and deb-systemd-invoke ask /usr/sbin/policy-rc.d whether a package may start its service; 101 = no.
  # Put one there only for the install, and only when the machine has none (a container usually has its own).
  POLICY=/usr/sbin/policy-rc.d
  OWN_POLICY=""
  if [ -n "$services" ] && [ ! -e "$POLICY" ]; then
    printf '#!/bin/sh\n# %s: no service starts while it installs\nexit 101\n' "$NAME" | $SUDO tee "$POLICY" >/dev/null
    $SUDO chmod 755 "$POLICY"
    OWN_POLICY=yes
  fi
  trap apt_cleanup EXIT INT TERM

  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update || give_up "apt-get update failed"
  $SUDO apt-get install -y "$@" || give_up "apt-get install $* failed"

  # never started by the package (policy above), and not at the next boot either
  # (systemctl disable also works while systemd is not running, and disables the SysV script with it)
  for service in $services; do
    if command -v systemctl >/dev/null 2>&1; then
      $SUDO systemctl disable "$service" >/dev/null 2>&1 || true
      if [ -d /run/systemd/system ]; then
        $SUDO systemctl stop "$service" >/dev/null 2>&1 || true
      fi
    elif command -v update-rc.d >/dev/null 2>&1; then
      $SUDO update-rc.d "${service%.*}" disable >/dev/null 2>&1 || true
    fi
  done
}

apt_cleanup() {
  if [ -n "${OWN_POLICY:-}" ]; then
    $SUDO rm -f "$POLICY"
    OWN_POLICY=""
  fi
}
