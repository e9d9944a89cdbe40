#!/bin/bash
# exec-twolaunch.sh - `gpucoh exec --functional` on a spec with two launches
# (examples/twostage.spec): both checks between and after the launches pass,
# the printed values are the exact sums, --dump writes the raw buffer, and a
# spec whose check cannot hold exits 1 naming the element.
# usage: exec-twolaunch.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$tmp/out"; exit 1; }

"$bin" exec "$root/examples/twostage.spec" --functional --quiet \
    --dump total="$tmp/total.bin" --dump partial="$tmp/partial.bin" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "exit $rc, expected 0"
for want in \
    "twostage.spec:17: launch affine grid (8,1,1) block (128,1,1)" \
    "twostage.spec:18: check y ok (5000 elements)" \
    "twostage.spec:20: launch block_sum grid (20,1,1) block (256,1,1)" \
    "twostage.spec:22: check partial ok (20 elements)" \
    "twostage.spec:23: check total ok (1 element)" \
    "partial[0..2]: 96128 292736 489344" \
    "total[0..0]: 37457500" \
    "checks          passed"; do
    grep -qF -- "$want" "$tmp/out" || fail "missing '$want'"
done
# 37457500 = 0x023b8e5c as a little-endian u64
[ "$(od -An -tx1 "$tmp/total.bin" | tr -d ' \n')" = "5c8e3b0200000000" ] ||
    fail "total.bin holds $(od -An -tx1 "$tmp/total.bin")"
[ "$(stat -c %s "$tmp/partial.bin")" = 80 ] || fail "partial.bin is not 20 s32 elements"

# the same kernels with a wrong expectation: exit 1, the element named
sed -e 's/^check total = .*/check total = 1/' "$root/examples/twostage.spec" >"$tmp/wrong.spec"
cp "$root/examples/twostage.ptx" "$tmp/"
"$bin" exec "$tmp/wrong.spec" --functional --quiet >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "wrong check: exit $rc, expected 1"
grep -qF "wrong.spec:23: check total FAILED" "$tmp/out" || fail "no FAILED line"
grep -qF "total[0]: expected 1, got 37457500" "$tmp/out" || fail "no element line"

# --dump of a buffer the spec does not declare: exit 2 before running
"$bin" exec "$root/examples/twostage.spec" --functional --dump nope=x >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "--dump nope: exit $rc, expected 2"
grep -qF "declares no buffer named 'nope'" "$tmp/out" || fail "no --dump message"
echo ok
