#!/usr/bin/env bash
# Simulator faults exit 3 with a dump of the stuck state. The starvation check
# (sim.starvation_cycles) stops a run in which one memory instruction waits
# too long while others complete; set below a DRAM round trip, it must fire on
# an ordinary run, name the warp and SM, and print the waiting instruction.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bin" run --workload mp --size tiny --protocol rc --set sim.starvation_cycles=50 --quiet \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] || fail "starvation_cycles=50 exited $rc, expected 3: $(tail -3 "$tmp/err")"
grep -q "starvation: in kernel mp_[a-z]*, warp slot [0-9]* of gpu.sm\[[0-9]*\] has waited" "$tmp/err" ||
    fail "no starvation line: $(head -3 "$tmp/err")"
grep -q "first sent [0-9]* core cycles ago" "$tmp/err" || fail "the dump does not show the waiting instruction"

# off (0) and the default let the same run finish
"$bin" run --workload mp --size tiny --protocol rc --set sim.starvation_cycles=0 >/dev/null ||
    fail "starvation_cycles=0 did not finish"
"$bin" run --workload mp --size tiny --protocol rc >/dev/null || fail "the default stopped mp"
echo "sim-faults: 3 passed, 0 failed"
