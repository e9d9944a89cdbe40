#!/bin/bash
# litmus-warp.sh - threads placed as lanes of one warp (",warp N",
# tests/litmus/warp, issue 41): judged by the oracle with the verdicts
# derived by hand, and run on rc and gpuvi as lanes of one warp: gpucoh's
# PDOM SIMT stack runs the later column's lane first and without independent
# thread scheduling, so a lane waiting for an earlier column's write never
# finishes (a result under the modelled scheduler, not a failure), while one
# whose sibling needs nothing from it does.
# usage: bash litmus-warp.sh <gpucoh-binary> <repo-root>
set -u
bin=$1
root=$2
dir=$root/tests/litmus/warp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=$(ls "$dir"/*.litmus | wc -l)
[ "$n" -eq 4 ] || fail "expected 4 tests in $dir, found $n"
"$bin" litmus --explain "$dir" >"$tmp/o" 2>&1 || fail "explain: $(cat "$tmp/o")"
[ "$(grep -c "the reference verdict agrees" "$tmp/o")" -eq "$n" ] || fail "verdicts: $(cat "$tmp/o")"
for p in rc gpuvi; do
    "$bin" litmus --protocol $p --iterations 10 "$dir" >"$tmp/$p" 2>&1 || fail "$p: $(cat "$tmp/$p")"
    grep -q "^== $p (model ptx): $n passed, 0 failed, 0 skipped, 0 unknown" "$tmp/$p" ||
        fail "$p totals: $(tail -1 "$tmp/$p")"
    [ "$(grep -c "termination not guaranteed under the modelled scheduler (threads are lanes of one warp" \
        "$tmp/$p")" -eq "$n" ] || fail "$p: scheduler: $(cat "$tmp/$p")"
    for t in XCHG-handoff-warp CAS-lock-warp; do
        grep -A4 "($t)" "$tmp/$p" | grep -q "forward progress: 10 of 10 iterations finished" ||
            fail "$p $t: $(cat "$tmp/$p")"
    done
    grep -A3 "(XCHG-handoff-warp)" "$tmp/$p" | grep -q "^          10 \* P0:r0=1 P1:r1=0 tok=0" ||
        fail "$p XCHG-handoff-warp outcome: $(cat "$tmp/$p")"
    for t in XCHG-wait-warp ADD-until-warp; do
        grep -A3 "($t)" "$tmp/$p" | grep -q "^          10 : did not finish" ||
            fail "$p $t: $(cat "$tmp/$p")"
    done
done
# the same hand-off in one CTA but separate warps finishes every time, and
# its forward progress is guaranteed (the failure rule still applies there)
sed 's/,warp 0/       /g' "$dir/XCHG-wait-warp.litmus" >"$tmp/sep.litmus"
"$bin" litmus --protocol rc --iterations 10 "$tmp/sep.litmus" >"$tmp/s" 2>&1 || fail "separate: $(cat "$tmp/s")"
grep -q "forward progress: 10 of 10 iterations finished within the spin budget; termination guaranteed" \
    "$tmp/s" || fail "separate warps: $(cat "$tmp/s")"
# a bad placement is an input error with file:line
printf 'PTX b\n{ x=0; }\n P0@cta 0,gpu 0,warp x ;\n st.relaxed.gpu x, 1 ;\nexists (x == 1)\n' >"$tmp/b.litmus"
"$bin" litmus --explain "$tmp/b.litmus" >"$tmp/e" 2>&1
[ $? -eq 2 ] || fail "bad placement: want exit 2"
grep -q "b.litmus:3: bad thread declaration" "$tmp/e" || fail "bad placement: $(cat "$tmp/e")"
echo "ok"
