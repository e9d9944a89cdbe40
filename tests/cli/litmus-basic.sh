#!/bin/bash
# litmus-basic.sh - `gpucoh litmus`: help, malformed input (file:line, exit 2),
# a functional-mode run of suite tests (exit 0, PASS lines, totals), skips with
# reasons, and the --json file.
# usage: bash litmus-basic.sh <gpucoh-binary> <repo-root>
set -u
bin=$1
root=$2
suite=$root/litmus/ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bin" litmus --help >"$tmp/help" || fail "--help exit $?"
grep -q "memory-model oracle" "$tmp/help" || fail "--help does not explain the oracle"
grep -q -- "--explain" "$tmp/help" || fail "--help does not teach --explain"

# malformed input: file:line and exit 2
"$bin" litmus --functional "$root/tests/litmus/bad-columns.litmus" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 2 ] || fail "malformed file: exit $rc, want 2"
grep -q "bad-columns.litmus:9: row has 3 columns" "$tmp/e" || fail "no file:line: $(cat "$tmp/e")"
"$bin" litmus --functional "$root/tests/litmus/bad-instr.litmus" >"$tmp/o" 2>"$tmp/e"
[ $? -eq 2 ] || fail "unknown instruction: want exit 2"
grep -q "bad-instr.litmus:8: unknown instruction 'frobnicate'" "$tmp/e" || fail "$(cat "$tmp/e")"
# a malformed file among good ones: reported, the others still run, exit 2 at the end
"$bin" litmus --functional --iterations 5 "$suite/Manual/SB-weak.litmus" \
    "$root/tests/litmus/bad-instr.litmus" "$suite/Manual/MP-gpu.litmus" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 2 ] || fail "malformed file among good ones: exit $rc, want 2"
grep -q "bad-instr.litmus:8: unknown instruction" "$tmp/e" || fail "no file:line: $(cat "$tmp/e")"
grep -q "1 test file with errors" "$tmp/e" || fail "no error count: $(cat "$tmp/e")"
[ "$(grep -c '^  PASS' "$tmp/o")" -eq 2 ] || fail "the good tests did not run: $(cat "$tmp/o")"
"$bin" litmus --functional --iterations 0 "$suite/Manual/MP-gpu.litmus" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--iterations 0 accepted"

# a functional run: SC model, every outcome SC-allowed
"$bin" litmus --functional --iterations 10 --seed 3 --json "$tmp/r.json" \
    "$suite/Manual/MP-gpu.litmus" "$suite/Manual/SB-weak.litmus" \
    "$suite/Barrier/quorum2-hang.litmus" "$suite/Manual/Ticketlock-diff-gpu.litmus" >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 0 ] || fail "functional run exit $rc: $(cat "$tmp/o" "$tmp/e")"
[ "$(grep -c '^  PASS' "$tmp/o")" -eq 2 ] || fail "want 2 PASS: $(cat "$tmp/o")"
grep -q "SKIP (every execution waits forever" "$tmp/o" || fail "hang test not skipped"
grep -q "SKIP (places threads on several GPUs" "$tmp/o" || fail "multi-GPU test not skipped"
grep -q "== functional (model sc): 2 passed, 0 failed, 2 skipped" "$tmp/o" || fail "totals: $(tail -1 "$tmp/o")"
grep -q "hits: 0 of 10" "$tmp/o" || fail "MP hits"

# the JSON file: whole, one entry per test, with the histogram
python3 - "$tmp/r.json" <<'PY' || fail "json"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"]
assert len(r) == 4, len(r)
mp = r[0]
assert mp["name"] == "MP-gpu" and mp["protocol"] == "functional", mp
assert mp["iterations"] == 10 and mp["result"] == "pass" and mp["hits"] == 0
assert sum(h["count"] for h in mp["histogram"]) == 10
assert all(h["sc_allowed"] for h in mp["histogram"])
assert mp["verdict"] == 1
assert r[2]["result"] == "skip" and "reason" in r[2]
assert d["protocols"][0]["passed"] == 2
PY

# same seed, same output
"$bin" litmus --functional --iterations 10 --seed 3 "$suite/Manual/SB-weak.litmus" >"$tmp/a"
"$bin" litmus --functional --iterations 10 --seed 3 "$suite/Manual/SB-weak.litmus" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "same seed gave different output"
echo "ok"
