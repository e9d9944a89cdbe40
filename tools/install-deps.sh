#!/usr/bin/env bash
# install-deps.sh PACKAGE... - install the Debian packages named that are
# missing (make deps, make fuzz-deps); as root, or through sudo.
#
# Another apt may hold apt's locks (unattended-upgrades, a second `make deps`):
# then this waits for them, up to APT_LOCK_WAIT seconds (default 600),
# instead of failing at once. `install` waits for dpkg's lock itself
# (DPkg::Lock::Timeout); `update` does not wait for the package lists' lock
# (apt 2.6 applies that option to dpkg's lock only), so it is retried while
# apt says the lock is held.
# SPDX-License-Identifier: BSD-3-Clause
set -u
wait_s=${APT_LOCK_WAIT:-600}
missing=()
for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
apt=("${sudo[@]}" apt-get -o "DPkg::Lock::Timeout=$wait_s")
deadline=$((SECONDS + wait_s))
told=
until out=$("${apt[@]}" update -qq 2>&1); do
    if ! grep -q "Could not get lock" <<<"$out" || [ $SECONDS -ge $deadline ]; then
        printf '%s\n' "$out" >&2
        exit 1
    fi
    [ -n "$told" ] || echo "waiting for another apt to release its lock (up to ${wait_s} s)"
    told=1
    sleep 5
done
[ -z "$out" ] || printf '%s\n' "$out"
exec "${apt[@]}" install -y -qq "${missing[@]}"
