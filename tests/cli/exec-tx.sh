#!/bin/bash
# exec-tx.sh - a CUDA kernel with transactions (tests/ptx/tx.spec): the
# functional mode runs them under GETM's rules (1920 increments of one
# counter in transactions give exactly 1920); the timing machine, which has
# no transactional memory yet, stops with exit 2 and says so.
# usage: exec-tx.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$tmp/out"; exit 1; }

"$bin" exec "$root/tests/ptx/tx.spec" --functional --quiet >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "functional: exit $rc, expected 0"
grep -qF "check counter ok (1 element)" "$tmp/out" || fail "no passing check"
grep -qF "counter[0..0]: 1920" "$tmp/out" || fail "counter is not 1920"

"$bin" exec "$root/tests/ptx/tx.spec" --quiet >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "timing: exit $rc, expected 2"
grep -qF "transactions need a transactional memory design at the L2, and none is built yet" \
    "$tmp/out" || fail "no 'not built' message"
