#!/usr/bin/env bash
# gpucoh verify past the default test's machine: every explorable protocol on
# 3 L1s (one operation per L1, atomics on), on 2 lines (two operations per L1,
# no atomics) and with two operations in flight per core, each explored to the end with no violation; and the seeded
# MESI bug on 3 L1s, where the forgotten sharer is not the only one (the bank
# does not wait for it), caught; tcs and tcw on 3 L1s and on 2 lines (about 10
# minutes more, measured 2026-12-02). About 18 minutes on 2 cores (docs/verify.md).
# usage: verify-large.sh GPUCOH REPO
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
n=0
for p in nol1 rc gpuvi gpuvini ideal mesi; do
    for shape in "--l1s 3 --ops 1" "--lines 2 --ops 2 --no-atomics" "--inflight 2"; do
        # shellcheck disable=SC2086
        out=$("$bin" verify --protocol "$p" $shape 2>&1)
        rc=$?
        [ $rc -eq 0 ] || { echo "$out" | tail -20; fail "verify $p $shape exited $rc"; }
        echo "$out" | grep "^verify $p " | grep -q " verified: " || fail "$p $shape: $out"
        echo "$out" | grep "^verify $p "
        n=$((n + 1))
    done
done
# TC, time an explorer event: on 3 L1s and on 2 lines (two in flight per core
# does not finish within the default bounds: docs/verify.md)
for p in tcs tcw; do
    for shape in "--l1s 3 --ops 1" "--lines 2 --ops 2 --no-atomics"; do
        # shellcheck disable=SC2086
        out=$("$bin" verify --protocol "$p" $shape 2>&1)
        rc=$?
        [ $rc -eq 0 ] || { echo "$out" | tail -20; fail "verify $p $shape exited $rc"; }
        echo "$out" | grep "^verify $p " | grep -q " verified: " || fail "$p $shape: $out"
        echo "$out" | grep "^verify $p "
        n=$((n + 1))
    done
done
out=$("$bin" verify --protocol mesi-noinv --l1s 3 --ops 2 --no-atomics 2>&1)
[ $? -eq 1 ] || { echo "$out" | tail -20; fail "mesi-noinv on 3 L1s: expected exit 1"; }
echo "$out" | grep -q "^verify mesi-noinv: VIOLATION" || fail "mesi-noinv on 3 L1s not caught"
echo "$out" | head -1
n=$((n + 1))
echo "verify-large: $n passed, 0 failed"
