#!/bin/bash
# exec-printf.sh - device printf (examples/printf.spec: two warps, every
# conversion gpucoh formats): the lines reach stdout when the launch has
# completed, exactly as the C library formats the same values, in the order
# the calls ran (warp 0's first call, warp 1's, then warp 0's second), under
# a write-through, a write-back and a lease protocol and in functional mode.
# usage: exec-printf.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$tmp/out"; exit 1; }

# expected: the same printf calls compiled for the host (values of v[t] = 3t+1)
cat >"$tmp/want" <<'TXT'
t=0 i=-1 u=4294967295 x=1003 X=1003 o=1 c=A w=[    1|1   ] f=0.500 e=5.000000e-01 g=0.25 ld=-8589934592 lld=1000000007 lu=17179869184 llu=18446744073709551614 h=4464
t=16 i=-49 u=4294967247 x=31093 X=31093 o=61 c=B w=[   49|49  ] f=24.500 e=2.450000e+01 g=0.01 ld=-420906795008 lld=49000000343 lu=841813590016 llu=18446744073709551566 h=22128
t=32 i=-97 u=4294967199 x=61123 X=61123 o=141 c=C w=[   97|97  ] f=48.500 e=4.850000e+01 g=0.00510204 ld=-833223655424 lld=97000000679 lu=1666447310848 llu=18446744073709551518 h=-25744
t=48 i=-145 u=4294967151 x=911b3 X=911B3 o=221 c=D w=[  145|145 ] f=72.500 e=7.250000e+01 g=0.00342466 ld=-1245540515840 lld=145000001015 lu=2491081031680 llu=18446744073709551470 h=-8080
gpucoh says 100% of 0x1234 is 00000.50 [     1] [gp]
TXT
for mode in "--protocol rc" "--protocol mesi" "--protocol tcw" "--functional"; do
    # shellcheck disable=SC2086 # mode is two words
    "$bin" exec "$root/examples/printf.spec" --quiet $mode >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 0 ] || fail "$mode: exit $rc; stderr: $(cat "$tmp/err")"
    # the lines between the spec's launch line and its check line
    sed -n '/printf.spec:7: launch/,/printf.spec:8: check/p' "$tmp/out" | sed '1d;$d' >"$tmp/lines"
    diff "$tmp/want" "$tmp/lines" >"$tmp/diff" || fail "$mode: printf output differs: $(cat "$tmp/diff")"
done
echo "exec-printf: ok"
