#!/usr/bin/env bash
# The DRF random tester passes on gpuvi, gpuvini and ideal with small caches
# (evictions, recalls, MSHR pressure) and the invariant observers on (golden
# memory; every L1 hit must return the current value), and gpuvini also with a
# directory so small that directory recalls are frequent, and both with two
# L2 TBEs per bank.
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
n=0
for p in gpuvi gpuvini ideal; do
    out=$("$bin" stress --protocol "$p" --episodes 20000 --small-caches --check 2>&1)
    rc=$?
    [ $rc -eq 0 ] || { echo "$out" | head -40; fail "stress $p exited $rc"; }
    echo "$out" | grep -q "^stress $p *passed: 20000 episodes" || fail "stress $p: no pass line"
    n=$((n + 1))
done
out=$("$bin" stress --protocol gpuvini --episodes 20000 --small-caches --check --set l1.size=256 \
    --set vi.dir_ratio=1 --set vi.dir_ways=2 2>&1)
rc=$?
[ $rc -eq 0 ] || { echo "$out" | head -40; fail "stress gpuvini (tiny directory) exited $rc"; }
n=$((n + 1))
# regression: with every L2 TBE waiting for invalidation acks, the acks must
# still be taken (they free TBEs; waiting for a free one deadlocked the bank)
for p in gpuvi gpuvini; do
    out=$("$bin" stress --protocol "$p" --episodes 3000 --small-caches --check --set l2.mshrs=2 2>&1)
    rc=$?
    [ $rc -eq 0 ] || { echo "$out" | head -40; fail "stress $p with 2 L2 TBEs exited $rc"; }
    n=$((n + 1))
done
echo "stress-vi: $n passed, 0 failed"
