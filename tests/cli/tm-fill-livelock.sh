#!/usr/bin/env bash
# tm-fill-livelock.sh - an L2 fill's waiters are served before a transactional
# request on the bank's replay list can evict the line (src/coh/nc/nc_l2.c,
# wake_parked). WarpTM on ATM at paper size with 4 transactional warps per
# core exited 3 (watchdog: 8 MSHRs of one 8-way set filling, a written commit
# at the head of the replay list taking each filled line's way before its
# waiter was served, for ever). A 2 KB, 2-way L2 reaches the same state at
# size small in a second: before the fix WarpTM and GETM both exited 3 with
# two MSHRs of one bank filling and one request replaying. Each run must now
# finish and pass its check (ATM's total), and FGLock under getm (no
# transactional request) keeps rc's cycles exactly: the order changes only
# while a transactional request waits on the replay list.
# usage: tm-fill-livelock.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; head -c 4000 "$tmp/out"; exit 1; }
small_l2=(--config "$root/configs/getm-fermi.ini" --size small --set getm.tx_warps=4
          --set l2.size=2048 --set l2.ways=2)
for p in warptm getm; do
    "$bin" run --workload atm --variant tx --protocol $p "${small_l2[@]}" >"$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "$p on ATM with a 2-way L2: exit $rc, expected 0"
    grep -qE "check +passed" "$tmp/out" || fail "$p on ATM with a 2-way L2: no passing check"
done
cycles() { sed -n 's/^  cycles *\([0-9]*\) .*/\1/p' "$tmp/out"; }
"$bin" run --workload atm --protocol getm "${small_l2[@]}" >"$tmp/out" 2>&1 ||
    fail "FGLock under getm: exit $?"
getm_cycles=$(cycles)
"$bin" run --workload atm --protocol rc "${small_l2[@]}" >"$tmp/out" 2>&1 ||
    fail "FGLock under rc: exit $?"
rc_cycles=$(cycles)
[ -n "$getm_cycles" ] && [ "$getm_cycles" = "$rc_cycles" ] ||
    fail "FGLock: $getm_cycles cycles under getm, $rc_cycles under rc (expected equal)"
echo "ok: WarpTM and GETM finish on ATM with a 2-way L2; FGLock $rc_cycles cycles under getm and rc"
