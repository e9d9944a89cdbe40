#!/usr/bin/env bash
# The DRF random tester passes on tcs and tcw with small caches (L2 evictions
# of unexpired lines into MI, MSHR pressure, expiry in flight), with the
# invariant observers on (lease inclusion, GWCT visibility, golden memory);
# and on the variants that matter: tcs with the line-scoped write stall, tcw
# with TCW-FIXED's 3200-cycle lease and with lease 0 (every fill expires in
# flight). Each run takes a few seconds.
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
n=0
run() {
    local p=$1
    shift
    out=$("$bin" stress --protocol "$p" --episodes 20000 --small-caches --check "$@" 2>&1)
    rc=$?
    [ $rc -eq 0 ] || { echo "$out" | head -40; fail "stress $p $* exited $rc"; }
    echo "$out" | grep -q "^stress $p *passed: 20000 episodes" || fail "stress $p $*: no pass line"
    n=$((n + 1))
}
run tcs
run tcw
run tcs --set tc.stall_scope=line
run tcw --set tc.lease=fixed:3200
run tcw --set tc.lease=fixed:0 --seed 2
# the unsafe paper rule of spec 002 §8 item 5 is caught by the lease-inclusion observer
out=$("$bin" stress --protocol tcw --episodes 20000 --small-caches --check --set tc.retained=paper 2>&1)
[ $? -eq 3 ] || fail "tc.retained=paper: the observer should stop the run (exit 3)"
echo "$out" | grep -q "lease inclusion" || fail "tc.retained=paper: no lease-inclusion report"
n=$((n + 1))
# a malformed lease is a user error
"$bin" stress --protocol tcw --episodes 10 --set tc.lease=fixed:x >/dev/null 2>&1
[ $? -eq 2 ] || fail "tc.lease=fixed:x must exit 2"
n=$((n + 1))
echo "stress-tc: $n passed, 0 failed"
