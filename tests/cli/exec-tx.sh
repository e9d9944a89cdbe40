#!/bin/bash
# exec-tx.sh - a CUDA kernel with transactions (tests/ptx/tx.spec): the
# functional mode runs them under GETM's rules, and so does the timing machine
# with protocol getm (1920 increments of one counter in transactions give
# exactly 1920 both ways, and a timing run repeated gives the same statistics),
# and so does protocol warptm (WarpTM);
# a protocol without transactional memory stops with exit 2 and says so.
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

for k in 1 2; do
    "$bin" exec "$root/tests/ptx/tx.spec" --protocol getm --set gpu.sms=4 --quiet \
        --stats "$tmp/s$k.json" >"$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "timing getm: exit $rc, expected 0"
    grep -qF "counter[0..0]: 1920" "$tmp/out" || fail "timing getm: counter is not 1920"
done
grep -v '"wall\|_per_s\|"host' "$tmp/s1.json" >"$tmp/a"
grep -v '"wall\|_per_s\|"host' "$tmp/s2.json" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head >"$tmp/out"; fail "statistics differ"; }

"$bin" exec "$root/tests/ptx/tx.spec" --protocol warptm --set gpu.sms=4 --quiet >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "timing warptm: exit $rc, expected 0"
grep -qF "counter[0..0]: 1920" "$tmp/out" || fail "timing warptm: counter is not 1920"

"$bin" exec "$root/tests/ptx/tx.spec" --protocol rc --quiet >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "timing rc: exit $rc, expected 2"
grep -qF "transactions need a transactional protocol (coherence.protocol = getm" \
    "$tmp/out" || fail "no 'needs a transactional protocol' message"
echo ok
