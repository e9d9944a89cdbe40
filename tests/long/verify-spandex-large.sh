#!/usr/bin/env bash
# gpucoh verify on Spandex past the default test's machine: spandex-d on 2 lines
# (two operations per L1, no atomics) and on 3 L1s (one operation per L1), the
# DeNovo + MESI mix with two operations in flight per core and on 3 L1s, the
# GPU-coherence + MESI mix on 2 lines and on 3 L1s, each explored to the end with
# no violation (docs/verify.md, "Spandex"; a few minutes on 2 cores).
# usage: verify-spandex-large.sh GPUCOH REPO
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
n=0
for run in "spandex-d --lines 2 --ops 2 --no-atomics" "spandex-d --l1s 3 --ops 1" \
    "spandex-d --devices denovo,mesi --inflight 2" "spandex-d --devices denovo,denovo,mesi --ops 1" \
    "spandex-g --devices gpu,mesi --lines 2 --ops 2 --no-atomics" \
    "spandex-g --devices gpu,gpu,mesi --ops 1"; do
    p=${run%% *}
    # shellcheck disable=SC2086
    out=$("$bin" verify --protocol $run 2>&1)
    rc=$?
    [ $rc -eq 0 ] || { echo "$out" | tail -20; fail "verify $run exited $rc"; }
    echo "$out" | grep "^verify $p " | grep -q " verified: " || fail "$run: $out"
    echo "$out" | grep "^verify $p "
    n=$((n + 1))
done
echo "verify-spandex-large: $n passed, 0 failed"
