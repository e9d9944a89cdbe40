#!/usr/bin/env bash
# Every workload at tiny size passes its CPU check under every implemented
# protocol, on the timing model; mp without its fences fails under rc for at
# least one seed (the workloads really depend on coherence).
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# rcc.livelock_cycles=100: under rccsc and rccwo a spin loop on plain loads
# (mutex-ticket) waits for the livelock guard to move its SM's clock.
# Under ASan (tests/asan-cli.sh) every workload runs under three protocols, not all
# of them: what is sanitized here is each workload's host driver and check, which no
# protocol changes; the protocols' own paths run in the litmus and stress tests.
protocols=all
[ "${GPUCOH_ASAN:-0}" = 1 ] && protocols=rc,mesi,tcw
"$bin" compare --workloads all --protocols $protocols --size tiny --set rcc.livelock_cycles=100 \
    --csv "$tmp/all.csv" >"$tmp/all.out" 2>&1 ||
    fail "$(grep -E 'WRONG|error|fault' -A2 "$tmp/all.out" | head -20)"
[ "$(grep -c ',ok,' "$tmp/all.csv")" -eq "$(($(grep -vc '^hmean,' "$tmp/all.csv") - 1))" ] || fail "a check failed"
caught=0
for seed in 1 2 3 4; do
    "$bin" run --workload mp --variant nofence --size tiny --protocol rc --input-seed $seed \
        --quiet >"$tmp/mp.out" 2>&1
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "mp nofence: exit $rc"
    [ $rc -eq 1 ] && caught=1
done
[ $caught -eq 1 ] || fail "mp without fences never failed under rc"
"$bin" run --workload mp --size tiny --protocol rc --quiet >/dev/null || fail "fenced mp fails under rc"
echo "workloads-tiny: 1 passed, 0 failed"
