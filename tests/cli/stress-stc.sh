#!/usr/bin/env bash
# The DRF random tester on every STC variant with 4 epochs and a 4-entry
# blocked store queue (stores wait for their epochs, the queue fills and
# stalls the pipeline), small caches, the invariant observers on (golden
# memory on every L1 hit, I-ER1, I-ER2 at the L2, ER3 at the EMU), bands one
# line apart (stc.seb = 7) so that every line changes epochs; and once with
# the L2's responses jittered (fills straddle epochs). 20 K episodes each;
# 1 M in tests/long/stress-1m.sh.
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
n=0
run() {
    local p=$1
    shift
    out=$("$bin" stress --protocol "$p" --episodes 20000 --small-caches --check \
        --set stc.epochs=4 --set stc.bsq_entries=4 --set stc.seb=7 --set stc.seb_min=7 "$@" 2>&1)
    rc=$?
    [ $rc -eq 0 ] || { echo "$out" | head -40; fail "stress $p $* exited $rc"; }
    echo "$out" | grep -q "^stress $p *passed: 20000 episodes" || fail "stress $p $*: no pass line"
    n=$((n + 1))
}
for p in stc-nv stc-es stc-ab stc-mb; do
    run $p
done
run stc-mb --set l2.jitter_cycles=200 --seed 2
run stc-ab --set stc.period_cycles=20 --set stc.mb_width=2 --seed 3
echo "stress-stc: $n passed, 0 failed"
