#!/bin/bash
# litmus-warp.sh - threads placed as lanes of one warp (",warp N",
# tests/litmus/warp, issue 41): judged by the oracle with the verdicts
# derived by hand, and run on rc and gpuvi as lanes of one warp. gpucoh's
# PDOM SIMT stack runs the later column's lane first and each to its end,
# without independent thread scheduling; termination is judged per test
# under that order (docs/oracle.md, "The modelled scheduler"), as derived by
# hand in each test's comment: guaranteed where no lane waits, directly or
# through another warp, for a lane the stack runs after it (every iteration
# finishes; one that does not is a failure), not guaranteed where one does
# (no iteration finishes: a result, not a failure).
# usage: bash litmus-warp.sh <gpucoh-binary> <repo-root>
set -u
bin=$1
root=$2
dir=$root/tests/litmus/warp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=$(ls "$dir"/*.litmus | wc -l)
[ "$n" -eq 6 ] || fail "expected 6 tests in $dir, found $n"
"$bin" litmus --explain "$dir" >"$tmp/o" 2>&1 || fail "explain: $(cat "$tmp/o")"
[ "$(grep -c "the reference verdict agrees" "$tmp/o")" -eq "$n" ] || fail "verdicts: $(cat "$tmp/o")"
# termination under the modelled scheduler, per test (the tests' comments)
guaranteed=(XCHG-handoff-warp CAS-lock-warp WAIT-other-warp)
never=(XCHG-wait-warp ADD-until-warp WAIT-chain-warp)
for p in rc gpuvi; do
    "$bin" litmus --protocol $p --iterations 10 "$dir" >"$tmp/$p" 2>&1 || fail "$p: $(cat "$tmp/$p")"
    grep -q "^== $p (model ptx): $n passed, 0 failed, 0 skipped, 0 unknown" "$tmp/$p" ||
        fail "$p totals: $(tail -1 "$tmp/$p")"
    for t in "${guaranteed[@]}"; do
        grep -A6 "($t)" "$tmp/$p" | grep -q "forward progress: 10 of 10 iterations finished within the spin budget; termination guaranteed under the modelled scheduler (every fair SC interleaving in the SIMT order ends, and ptx allows no execution that never finishes)" ||
            fail "$p $t: $(cat "$tmp/$p")"
    done
    for t in "${never[@]}"; do
        grep -A4 "($t)" "$tmp/$p" | grep -q "^          10 : did not finish" ||
            fail "$p $t: $(cat "$tmp/$p")"
        grep -A6 "($t)" "$tmp/$p" | grep -q "forward progress: 0 of 10 iterations finished within the spin budget; termination not guaranteed under the modelled scheduler (P1 may loop forever while P0, a lane of its warp, waits for it to finish" ||
            fail "$p $t: $(cat "$tmp/$p")"
    done
    grep -A3 "(XCHG-handoff-warp)" "$tmp/$p" | grep -q "^          10 \* P0:r0=1 P1:r1=0 tok=0" ||
        fail "$p XCHG-handoff-warp outcome: $(cat "$tmp/$p")"
done
# where termination is guaranteed, an iteration that does not finish is a
# failure: P1 polls for P2's store, here with a budget of one backward jump
"$bin" litmus --protocol rc --iterations 10 --spin-budget 1 "$dir/WAIT-other-warp.litmus" >"$tmp/g" 2>&1
[ $? -eq 1 ] || fail "guaranteed, out of budget: want exit 1: $(cat "$tmp/g")"
grep -q "FAIL (did not finish [1-9][0-9]* times\? (warps spun on loads), but termination is guaranteed under the modelled scheduler" \
    "$tmp/g" || fail "guaranteed, out of budget: $(cat "$tmp/g")"
# ... and where it is not, the same budget leaves a result
"$bin" litmus --protocol rc --iterations 10 --spin-budget 1 "$dir/WAIT-chain-warp.litmus" >"$tmp/g" 2>&1 ||
    fail "not guaranteed, out of budget: $(cat "$tmp/g")"
grep -q "^  PASS" "$tmp/g" || fail "not guaranteed, out of budget: $(cat "$tmp/g")"
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
