#!/usr/bin/env bash
# The DRF random tester passes on mesi with small caches (L1 replacements and
# write-backs, L2 recalls of owned and shared lines, MSHR pressure), with the
# invariant observers on (golden memory at the L1 that holds M, data-value
# invariant, single writer / multiple readers at every grant), and also with
# crossbar and bank jitter, which reorders the five virtual networks.
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
n=0
run() {
    local what=$1
    shift
    out=$("$bin" stress --protocol mesi "$@" 2>&1)
    rc=$?
    [ $rc -eq 0 ] || { echo "$out" | head -40; fail "stress mesi ($what) exited $rc"; }
    echo "$out" | grep -q "^stress mesi *passed: $2 episodes" || fail "stress mesi ($what): no pass line"
    n=$((n + 1))
}
run "small caches" --episodes 20000 --small-caches
run "observers" --episodes 5000 --small-caches --check --seed 7
run "jitter" --episodes 5000 --small-caches --check --seed 3 --set noc.jitter_cycles=20 \
    --set l2.jitter_cycles=30
run "two MSHRs" --episodes 2000 --small-caches --check --set l1.mshrs=2 --set l2.mshrs=2
echo "stress-mesi: $n passed, 0 failed"
