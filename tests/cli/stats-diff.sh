#!/bin/bash
# stats-diff.sh - `gpucoh stats diff A.json B.json`: a file against itself
# and against a rerun of the same run (whose wall time differs) is no
# difference (exit 0); rc against mesi is (exit 1), the protocol listed
# first among the settings, every number with its B/A (a launch's counters by
# name), cycles' ratio exact,
# the numbers ordered by how far B/A is from 1; --threshold hides small
# changes; --all adds the equal values; a file that is not JSON or not a
# statistics file, or a missing one, exits 2 naming FILE:LINE.
# usage: bash stats-diff.sh <gpucoh-binary> <repo-root>
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$tmp/o"; exit 1; }

for p in rc mesi; do
    "$bin" run --workload mvt --size tiny --protocol $p --quiet --stats "$tmp/$p.json" >/dev/null 2>&1 ||
        fail "run $p"
done
"$bin" run --workload mvt --size tiny --protocol rc --quiet --stats "$tmp/rc2.json" >/dev/null 2>&1 ||
    fail "rerun rc"

"$bin" stats diff "$tmp/rc.json" "$tmp/rc.json" >"$tmp/o" 2>&1
[ $? -eq 0 ] || fail "same file: not exit 0"
grep -qE "^0 of [0-9]+ values differ" "$tmp/o" || fail "same file: no summary"
"$bin" stats diff "$tmp/rc.json" "$tmp/rc2.json" >"$tmp/o" 2>&1
[ $? -eq 0 ] || fail "rerun: not exit 0 (speed must not count)"

"$bin" stats diff "$tmp/rc.json" "$tmp/mesi.json" >"$tmp/o" 2>&1
[ $? -eq 1 ] || fail "rc vs mesi: not exit 1"
python3 - "$tmp/o" "$tmp/rc.json" "$tmp/mesi.json" <<'PY' || fail "rc vs mesi report"
import json, math, re, sys
lines = open(sys.argv[1]).read().splitlines()
a, b = (json.load(open(f)) for f in sys.argv[2:4])
heads = [l for l in lines if l.startswith("-- ")]
assert heads[0] == "-- settings that differ", heads
assert "-- numbers that differ" in heads
first = lines[lines.index("-- settings that differ") + 1].split()
assert first[:3] == ["config.coherence.protocol", "rc", "mesi"], first
rows = {}
order = []
group = None
for l in lines:
    if l.startswith("-- "):
        group = l
        continue
    f = l.split()
    if group == "-- numbers that differ" and len(f) == 4:
        rows[f[0]] = f
        order.append(f[0])
cyc = rows["cycles"]
assert int(cyc[1]) == a["cycles"] and int(cyc[2]) == b["cycles"], cyc
assert abs(float(cyc[3]) - b["cycles"] / a["cycles"]) < 1e-3 * b["cycles"] / a["cycles"], cyc
# every differing counter is listed, with its ratio
for k, v in a["stats"].items():
    w = b["stats"].get(k)
    if w is not None and w != v and v != 0:
        assert "stats." + k in rows, f"stats.{k} missing"
assert not any(k.startswith("speed") for k in rows), "speed compared"
# a launch's counters are compared by name
ka = dict(zip(a["kernel_stats"]["names"], a["kernel_stats"]["launches"][1]["values"]))
kb = dict(zip(b["kernel_stats"]["names"], b["kernel_stats"]["launches"][1]["values"]))
for k in ka:
    if k in kb and ka[k] != kb[k] and ka[k]:
        r = rows.get("kernel_stats.launches[1].stats." + k)
        assert r and float(r[1]) == ka[k] and float(r[2]) == kb[k], f"launch 1's {k}: {r}"
# ordered by |log(B/A)|, a side at 0 first
def score(f):
    x, y = float(f[1]), float(f[2])
    return math.inf if x == 0 or y == 0 else abs(math.log(y / x))
s = [score(rows[k]) for k in order]
# printed values are rounded (6 digits), so near-ties may swap
assert all(a == b or a >= b - 1e-5 for a, b in zip(s, s[1:])), "not ordered by change"
assert len(s) > 50 and s[0] == math.inf and s[-1] < 0.1, "ordering"
PY

"$bin" stats diff "$tmp/rc.json" "$tmp/mesi.json" --threshold 1e6 >"$tmp/o" 2>&1
[ $? -eq 1 ] || fail "threshold: settings still differ, not exit 1"
grep -q "^-- numbers that differ" "$tmp/o" && grep -A1 "^-- numbers that differ" "$tmp/o" | tail -1 | grep -qv inf &&
    fail "--threshold 1e6 kept a finite change"
"$bin" stats diff "$tmp/rc.json" "$tmp/rc2.json" --all >"$tmp/o" 2>&1
[ $? -eq 0 ] || fail "--all: not exit 0"
grep -q "^-- equal" "$tmp/o" && grep -qE "^stats\.gpu\.sm\[0\]\.thread_insts +[0-9]+ +[0-9]+ +1$" "$tmp/o" ||
    fail "--all: equal values not listed"

printf '{\n  "gpucoh_version": "x",\n  "cycles": 12,\n  oops\n}\n' >"$tmp/bad.json"
"$bin" stats diff "$tmp/rc.json" "$tmp/bad.json" >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "bad JSON: not exit 2"
grep -qF "$tmp/bad.json:4: not valid JSON" "$tmp/o" || fail "bad JSON: no file:line"
echo '[1, 2]' >"$tmp/arr.json"
"$bin" stats diff "$tmp/arr.json" "$tmp/rc.json" >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "not stats: not exit 2"
grep -qF "$tmp/arr.json:1: not a gpucoh statistics file" "$tmp/o" || fail "not stats: message"
"$bin" stats diff "$tmp/rc.json" "$tmp/none.json" >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "missing file: not exit 2"
grep -qF "none.json" "$tmp/o" || fail "missing file: not named"
"$bin" stats diff "$tmp/rc.json" >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "one file: not exit 2"
echo "stats-diff: ok"
