#!/bin/bash
# exec-half-atomics.sh - atomicAdd on __half, __half2, __nv_bfloat16 and
# __nv_bfloat162 and 16-bit atomicCAS (tests/exec/half_atomics.cu, PTX for
# sm_75 and sm_90) give the exactly rounded sums in functional mode and through
# the memory system, where the L2 (nol1, rc, tcw) or an owning L1 (mesi)
# performs them; a half atomic other than add.noftz stops with file:line.
# usage: exec-half-atomics.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$tmp/out"; exit 1; }

for spec in half_atomics half_atomics.sm90; do
    for mode in --functional "--protocol nol1" "--protocol rc" "--protocol mesi" "--protocol tcw"; do
        # shellcheck disable=SC2086
        "$bin" exec "$root/tests/exec/$spec.spec" $mode --quiet >"$tmp/out" 2>&1 ||
            fail "$spec $mode: exit $?"
        [ "$(grep -c ' ok (' "$tmp/out")" = 5 ] || fail "$spec $mode: not 5 checks ok"
    done
done

sed -e 's/atom.add.noftz.f16 /atom.max.noftz.f16 /' "$root/tests/exec/half_atomics.ptx" \
    >"$tmp/half_atomics.ptx"
grep -q 'atom.max.noftz.f16 ' "$tmp/half_atomics.ptx" || fail "the edit did not apply"
cp "$root/tests/exec/half_atomics.spec" "$tmp/"
"$bin" exec "$tmp/half_atomics.spec" --functional >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "atom.max.noftz.f16: exit $rc, expected 2"
grep -qE "half_atomics\.ptx:[0-9]+: half-precision atomics are add.noftz only" "$tmp/out" ||
    fail "atom.max.noftz.f16: no file:line message"
echo "exec-half-atomics: ok"
