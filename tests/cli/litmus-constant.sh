#!/bin/bash
# litmus-constant.sh - constant and trivially decidable conditions
# (tests/litmus/constant, issue 41): decided without enumerating outcomes,
# so a test whose outcomes are beyond the oracle's limits (a retry loop that
# cannot be cut, at --unroll 2) still gets the verdict derived by hand
# (expected.csv beside the tests), worded as a constant condition's; each
# test still runs, its outcomes recorded (unjudged where beyond the limits).
# usage: bash litmus-constant.sh <gpucoh-binary> <repo-root>
set -u
bin=$1
root=$2
dir=$root/tests/litmus/constant
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=$(ls "$dir"/*.litmus | wc -l)
[ "$n" -eq 4 ] || fail "expected 4 tests in $dir, found $n"

# judged without running: every verdict the hand-derived one, each a constant's
"$bin" litmus --explain --unroll 2 "$dir" >"$tmp/o" 2>&1 || fail "explain: exit $?: $(cat "$tmp/o")"
[ "$(grep -c "the reference verdict agrees" "$tmp/o")" -eq "$n" ] || fail "verdicts: $(cat "$tmp/o")"
[ "$(grep -c "verdict: .*, constant condition (" "$tmp/o")" -eq "$n" ] || fail "wording: $(cat "$tmp/o")"
[ "$(grep -c "^  outcomes not enumerated (.*unroll bound" "$tmp/o")" -eq 3 ] ||
    fail "beyond the limits: $(cat "$tmp/o")"
grep -A2 "(XCHG-cta-spin-true)" "$tmp/o" |
    grep -q "verdict: exists ... is 1 (C allowed), constant condition (true in every outcome): the verdict is whether some execution finishes" ||
    fail "XCHG-cta-spin-true: $(cat "$tmp/o")"
grep -A2 "(XCHG-cta-spin-false)" "$tmp/o" |
    grep -q "verdict: exists ... is 0 (C forbidden), constant condition (false in every outcome): the verdict holds whatever the executions" ||
    fail "XCHG-cta-spin-false: $(cat "$tmp/o")"

# run: every test runs to the end, its outcomes recorded; beyond the limits
# it is unknown (its outcomes unjudged) but its verdict is stated
"$bin" litmus --protocol rc --unroll 2 --iterations 5 --json "$tmp/r.json" "$dir" >"$tmp/r" 2>&1 ||
    fail "run: exit $?: $(cat "$tmp/r")"
grep -q "^== rc (model ptx): 1 passed, 0 failed, 0 skipped, 3 unknown (oracle limit)" "$tmp/r" ||
    fail "run totals: $(tail -1 "$tmp/r")"
[ "$(grep -c "^  5 iterations" "$tmp/r")" -eq "$n" ] || fail "not every test ran: $(cat "$tmp/r")"
grep -A4 "(XCHG-cta-spin-true)" "$tmp/r" | grep -q "^           5 \* P0:r0=2 x=1" ||
    fail "XCHG-cta-spin-true outcomes: $(cat "$tmp/r")"
grep -q "verdict: ptx oracle = 1 (C allowed), constant condition (true in every outcome): the verdict is whether some execution finishes; outcomes unjudged (oracle limit: .*XCHG-cta-spin-true.litmus:14:" \
    "$tmp/r" || fail "XCHG-cta-spin-true verdict: $(cat "$tmp/r")"
grep -q "verdict: ptx oracle = 0 (C allowed), 3 of 4 outcomes allowed; constant condition (true in every outcome)" \
    "$tmp/r" || fail "MP-not-exists-true verdict: $(cat "$tmp/r")"
echo "ok"
