#!/bin/bash
# litmus-progress.sh - retry loops of atomics (tests/litmus/progress, issue
# 41): the oracle judges each in a handful of candidate executions with the
# verdict derived by hand (expected.csv beside the tests), and each runs to
# the end on rc and gpuvi with no forbidden outcome; a test beyond the
# oracle's limits still runs, reported and counted as unknown (oracle limit);
# a loop runs under a spin budget, and a thread out of budget is a failure
# where every fair interleaving terminates and a result where not.
# usage: bash litmus-progress.sh <gpucoh-binary> <repo-root>
set -u
bin=$1
root=$2
dir=$root/tests/litmus/progress
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=$(ls "$dir"/*.litmus | wc -l)
[ "$n" -eq 11 ] || fail "expected 11 tests in $dir, found $n"

# judged, each verdict equal to the one derived by hand, in few candidates
"$bin" litmus --explain "$dir" >"$tmp/o" 2>&1 || fail "explain: $(cat "$tmp/o")"
[ "$(grep -c "the reference verdict agrees" "$tmp/o")" -eq "$n" ] || fail "verdicts: $(cat "$tmp/o")"
grep -o "of [0-9]* candidate executions" "$tmp/o" | while read -r _ k _; do
    [ "$k" -le 200 ] || { echo "FAIL: $k candidate executions: $(cat "$tmp/o")"; exit 1; }
done || exit 1
grep -A3 "(XCHG-handoff)" "$tmp/o" | grep -q "^  allowed   \* P0:r0=1 P1:r1=0 tok=0" ||
    fail "XCHG-handoff outcome: $(cat "$tmp/o")"

# run to the end on a non-coherent and a coherent protocol: nothing forbidden
for p in rc gpuvi; do
    "$bin" litmus --protocol $p --iterations 20 "$dir" >"$tmp/$p" 2>&1 || fail "$p: $(cat "$tmp/$p")"
    grep -q "^== $p (model ptx): $n passed, 0 failed, 0 skipped, 0 unknown" "$tmp/$p" ||
        fail "$p totals: $(tail -1 "$tmp/$p")"
    grep -q "FORBIDDEN" "$tmp/$p" && fail "$p: forbidden outcome: $(cat "$tmp/$p")"
    [ "$(grep -c "^  20 iterations" "$tmp/$p")" -eq "$n" ] || fail "$p: not every test ran"
    [ "$(grep -c "forward progress: 20 of 20 iterations finished within the spin budget; termination guaranteed" \
        "$tmp/$p")" -eq "$n" ] || fail "$p: forward progress: $(grep "forward" "$tmp/$p")"
done

# beyond the oracle's limits: run, recorded, unknown, counted apart (exit 0)
bad=$root/tests/litmus/bad-unbounded-loop.litmus
"$bin" litmus --protocol rc --iterations 3 --json "$tmp/u.json" "$bad" >"$tmp/o" 2>&1 ||
    fail "limit run: exit $?: $(cat "$tmp/o")"
grep -q "^           3 : x=101 P0:r0=100" "$tmp/o" || fail "limit run outcomes: $(cat "$tmp/o")"
grep -q "verdict: unknown (oracle limit: .*bad-unbounded-loop.litmus:10: a loop takes more" \
    "$tmp/o" || fail "limit run verdict: $(cat "$tmp/o")"
grep -q "^  UNKNOWN (oracle limit)" "$tmp/o" || fail "limit run status: $(cat "$tmp/o")"
grep -q "^== rc (model ptx): 0 passed, 0 failed, 0 skipped, 1 unknown (oracle limit)" "$tmp/o" ||
    fail "limit run totals: $(tail -1 "$tmp/o")"
grep -q '"result":.*"unknown"' "$tmp/u.json" || fail "json: $(cat "$tmp/u.json")"
grep -q '"unknown":.*1' "$tmp/u.json" || fail "json totals: $(cat "$tmp/u.json")"
# ... while --explain, which only judges, still says it cannot (exit 2)
"$bin" litmus --explain "$bad" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--explain of a test beyond the limits: want exit 2"
# forward progress: a loop runs under a spin budget; where every fair
# interleaving ends, a thread out of budget is a failure ...
cat >"$tmp/poll.litmus" <<'T'
PTX Poll-acquire
{ x=0; }
 P0@cta 0,gpu 0                    | P1@cta 1,gpu 0          ;
 L0:                               | st.release.gpu x, 1     ;
 ld.acquire.gpu r0, x              |                         ;
 bne r0, 1, L0                     |                         ;
exists (P0:r0 == 1)
T
"$bin" litmus --protocol rc --iterations 10 "$tmp/poll.litmus" >"$tmp/o" 2>&1 || fail "poll: $(cat "$tmp/o")"
grep -q "forward progress: 10 of 10 iterations finished within the spin budget; termination guaranteed" \
    "$tmp/o" || fail "poll progress: $(cat "$tmp/o")"
"$bin" litmus --protocol rc --iterations 10 --spin-budget 1 "$tmp/poll.litmus" >"$tmp/o" 2>&1
[ $? -eq 1 ] || fail "poll out of budget: want exit 1: $(cat "$tmp/o")"
grep -q "FAIL (did not finish [1-9][0-9]* times\? (warps spun on loads), but ptx allows no execution that never finishes)" \
    "$tmp/o" || fail "poll out of budget: $(cat "$tmp/o")"
# ... and where a fair interleaving may run forever (the only 1 can be
# overwritten before the poll sees it), it is a result, not a failure
cat >"$tmp/window.litmus" <<'T'
PTX Poll-window
{ x=0; }
 P0@cta 0,gpu 0                    | P1@cta 1,gpu 0          ;
 L0:                               | st.relaxed.gpu x, 1     ;
 ld.relaxed.gpu r0, x              | st.relaxed.gpu x, 0     ;
 bne r0, 1, L0                     |                         ;
exists (P0:r0 == 1)
T
"$bin" litmus --protocol gpuvi --iterations 10 --spin-budget 200 "$tmp/window.litmus" >"$tmp/o" 2>&1 ||
    fail "window: $(cat "$tmp/o")"
grep -q "iterations finished within the spin budget; termination not guaranteed" "$tmp/o" ||
    fail "window progress: $(cat "$tmp/o")"
grep -q "^  PASS" "$tmp/o" || fail "window: $(cat "$tmp/o")"
echo "ok"
