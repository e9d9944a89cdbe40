#!/usr/bin/env bash
# getm-wake-oldest.sh - GETM's printed stall-buffer retry policy
# (getm.wake_all = false: only the oldest waiter re-enters at the last
# release; spec 004a §9 item 23) stranded the other waiters when the oldest
# did not reserve the granule (a load, or an aborted store): no later release
# came to wake them, and ATM and CL at 4 transactional warps per core exited
# 3 at size tiny ("every component is asleep", stall-buffer lines waiting for
# an owner with 0 reservations). Now the next oldest re-enters while the
# granule stays unreserved (getm_vu_wake_next). Each run must finish and pass
# its check, and the default policy (every waiter re-enters) keeps its cycles
# whatever wake_all's code path does.
# usage: getm-wake-oldest.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; head -c 4000 "$tmp/out"; exit 1; }
common=(--variant tx --size tiny --protocol getm --config "$root/configs/getm-fermi.ini"
        --set getm.tx_warps=4)
for w in atm cl-tm; do
    "$bin" run --workload $w "${common[@]}" --set getm.wake_all=false --check \
        --stats "$tmp/$w.json" >"$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "$w, wake-oldest: exit $rc, expected 0"
    grep -qE "check +passed" "$tmp/out" || fail "$w, wake-oldest: no passing check"
    # the stall buffer was used: some requests waited in it (getm.granule_waits)
    waits=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["stats"]
print(int(sum(v for k, v in s.items() if k.endswith(".getm.granule_waits"))))' "$tmp/$w.json")
    [ "${waits:-0}" -gt 0 ] || fail "$w, wake-oldest: no request waited in the stall buffer ($waits)"
done
echo "getm-wake-oldest: ok"
