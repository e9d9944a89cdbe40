#!/bin/bash
# litmus-oracle.sh - the memory-model oracle from the command line: --explain
# shows MP's weak outcome allowed without synchronisation and forbidden with
# .gpu release/acquire (naming the axiom and a witness cycle); --model picks
# SC or TSO; a test with no verdict anywhere is judged and run; every test of
# the suite gets a verdict that matches the reference; tests the oracle
# cannot enumerate are file:line errors (exit 2) under --explain, and run
# unjudged (UNKNOWN) otherwise.
# usage: bash litmus-oracle.sh <gpucoh-binary> <repo-root>
set -u
bin=$1
root=$2
suite=$root/litmus/ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# MP with weak accesses: the stale outcome is allowed
"$bin" litmus --explain "$root/tests/litmus/MP-weak.litmus" >"$tmp/o" 2>&1 || fail "MP-weak: $(cat "$tmp/o")"
grep -q "^  allowed   \* P1:r1=1 P1:r2=0" "$tmp/o" || fail "MP-weak stale outcome not allowed: $(cat "$tmp/o")"
grep -q "FORBIDDEN" "$tmp/o" && fail "MP-weak: something forbidden: $(cat "$tmp/o")"
grep -q "verdict: exists ... is 1 (C allowed)" "$tmp/o" || fail "MP-weak verdict: $(cat "$tmp/o")"

# MP with st.release.gpu / ld.acquire.gpu: forbidden, the axiom and the cycle named
"$bin" litmus --explain "$suite/Manual/MP-gpu.litmus" >"$tmp/o" 2>&1 || fail "MP-gpu: $(cat "$tmp/o")"
grep -q "^  FORBIDDEN \* P1:r1=1 P1:r2=0" "$tmp/o" || fail "MP-gpu stale outcome not forbidden: $(cat "$tmp/o")"
grep -q "violates axiom-Causality: irreflexive" "$tmp/o" || fail "no axiom: $(cat "$tmp/o")"
grep -q -- "--cause \[po; rf; po\]-->" "$tmp/o" || fail "no witness cycle: $(cat "$tmp/o")"
grep -q "P0 st.release.gpu y=1" "$tmp/o" || fail "witness without the release: $(cat "$tmp/o")"
grep -q "the reference verdict agrees" "$tmp/o" || fail "no cross-check: $(cat "$tmp/o")"

# other models: SB is forbidden under SC, allowed under TSO
"$bin" litmus --explain --model sc "$suite/Manual/SB-weak.litmus" >"$tmp/o" 2>&1 || fail "SB sc"
grep -q "violates axiom-SC: acyclic" "$tmp/o" || fail "SB under SC: $(cat "$tmp/o")"
"$bin" litmus --explain --model tso "$suite/Manual/SB-weak.litmus" >"$tmp/o" 2>&1 || fail "SB tso"
grep -q "FORBIDDEN \*" "$tmp/o" && fail "SB under TSO forbidden: $(cat "$tmp/o")"
"$bin" litmus --explain --model arm "$suite/Manual/SB-weak.litmus" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--model arm accepted"

# a test of our own, in no verdict table: judged, then run and judged
user=$root/tests/litmus/ISA2-release-acquire.litmus
"$bin" litmus --explain "$user" >"$tmp/o" 2>&1 || fail "ISA2: $(cat "$tmp/o")"
grep -q "verdict: ~exists ... is 1 (C forbidden); no reference verdict" "$tmp/o" || fail "ISA2: $(cat "$tmp/o")"
"$bin" litmus --protocol rc --iterations 20 "$user" >"$tmp/o" 2>&1 || fail "ISA2 on rc: $(cat "$tmp/o")"
grep -q "^  PASS" "$tmp/o" || fail "ISA2 not judged on rc: $(cat "$tmp/o")"
grep -q "verdict: ptx oracle = 1 (C forbidden)" "$tmp/o" || fail "ISA2 verdict on rc: $(cat "$tmp/o")"

# the rest of Dat3M's dialect: parsed, judged and run
d=$root/tests/litmus/Dat3M-dialect.litmus
"$bin" litmus --explain "$d" >"$tmp/o" 2>&1 || fail "dialect: $(cat "$tmp/o")"
grep -q "^  allowed   \* P1:r0=1 P1:r2=0 P0:r1=1 x=1 y=1" "$tmp/o" || fail "dialect: $(cat "$tmp/o")"
grep -q "verdict: exists ... is 1" "$tmp/o" || fail "dialect verdict: $(cat "$tmp/o")"
"$bin" litmus --functional --iterations 5 --all-lanes "$d" "$suite/Manual/Atom-minus-location_.litmus" \
    >"$tmp/o" 2>&1 || fail "dialect run: $(cat "$tmp/o")"
[ "$(grep -c '^  PASS' "$tmp/o")" -eq 2 ] || fail "dialect run: $(cat "$tmp/o")"

# the whole suite and the project's tests: a verdict each, equal to the reference
"$bin" litmus --explain "$suite" >"$tmp/all" 2>&1 || fail "suite: $(tail -5 "$tmp/all")"
[ "$(grep -c "^  verdict:" "$tmp/all")" -eq 239 ] || fail "suite: not 239 verdicts"
[ "$(grep -c "the reference verdict agrees" "$tmp/all")" -eq 238 ] || fail "suite: not 238 agreements"
"$bin" litmus --explain --model ptx6 "$suite" >"$tmp/all6" 2>&1 || fail "suite ptx6"
[ "$(grep -c "the reference verdict agrees" "$tmp/all6")" -eq 109 ] || fail "suite: not 109 v6.0 agreements"
good=$(ls "$root"/tests/litmus/*.litmus | grep -v '/bad-')
"$bin" litmus --explain $good >"$tmp/own" 2>&1 || fail "own tests: $(cat "$tmp/own")"
grep -q DISAGREES "$tmp/own" && fail "own tests: $(grep -B30 DISAGREES "$tmp/own")"
# ... and a functional run of the suite skips nothing for want of a verdict
"$bin" litmus --functional --iterations 3 "$suite" >"$tmp/run" 2>&1 || fail "functional suite: $(tail -3 "$tmp/run")"
grep -q "SKIP (no reference" "$tmp/run" && fail "a test skipped for want of a verdict"
grep -q "== functional (model sc): .* 0 failed" "$tmp/run" || fail "functional: $(tail -1 "$tmp/run")"

# what the oracle cannot enumerate: file:line, exit 2, no verdict
"$bin" litmus --explain "$root/tests/litmus/bad-unbounded-loop.litmus" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 2 ] || fail "unbounded loop: exit $rc, want 2"
grep -q "bad-unbounded-loop.litmus:10: a loop takes more than 8 backward jumps (the unroll bound)" \
    "$tmp/e" || fail "unbounded loop: $(cat "$tmp/e")"
grep -q "verdict" "$tmp/o" && fail "unbounded loop got a verdict"
# ... a run still runs it, unjudged (tests/cli/litmus-progress.sh)
"$bin" litmus --functional --iterations 2 "$root/tests/litmus/bad-unbounded-loop.litmus" >"$tmp/o" 2>"$tmp/e"
[ $? -eq 0 ] || fail "unbounded loop run: want exit 0, $(cat "$tmp/e")"
grep -q "^  UNKNOWN (oracle limit)" "$tmp/o" || fail "unbounded loop run: $(cat "$tmp/o")"
"$bin" litmus --explain "$root/tests/litmus/bad-instr.litmus" >"$tmp/o" 2>"$tmp/e"
[ $? -eq 2 ] || fail "unsupported instruction: want exit 2"
grep -q "bad-instr.litmus:8: unknown instruction 'frobnicate'" "$tmp/e" || fail "$(cat "$tmp/e")"
echo "ok"
