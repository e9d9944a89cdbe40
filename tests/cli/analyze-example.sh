#!/bin/bash
# analyze-example.sh - tools/analyze_example.py (docs/analysis.md) on a tiny
# sweep (2 workloads x 3 protocols): its table has one row per run, each
# protocol's cycles and bytes over nol1's for the same workload as computed
# here from results.csv with the csv module, the L2 hit rate and DRAM reads
# of each run's JSON, and the figure is a PNG; an unknown baseline is a
# clear error. Needs python3-pandas and python3-matplotlib (make deps).
# usage: bash analyze-example.sh <gpucoh-binary> <repo-root>
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=${GPUCOH_PYTHON:-/usr/bin/python3} # Debian's, with python3-pandas (make deps)
fail() { echo "FAIL: $*"; exit 1; }

cat >"$tmp/t.sweep" <<'SPEC'
workloads mp mvt
protocols nol1 rc mesi
sizes tiny
SPEC
"$bin" sweep "$tmp/t.sweep" -j 2 --out "$tmp/sw" >"$tmp/log" 2>&1 || fail "sweep: exit $?: $(tail -3 "$tmp/log")"
"$py" "$root/tools/analyze_example.py" "$tmp/sw" --out "$tmp/fig.png" --table "$tmp/t.csv" \
    >"$tmp/o" 2>&1 || fail "script: exit $?: $(tail -5 "$tmp/o")"
grep -q "figure: $tmp/fig.png" "$tmp/o" || fail "no figure line: $(cat "$tmp/o")"
[ "$(head -c 8 "$tmp/fig.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "not a PNG"
python3 - "$tmp/sw" "$tmp/t.csv" <<'PY' || fail "table"
import csv, json, os, sys
sw, table = sys.argv[1], sys.argv[2]
runs = {(r["workload"], r["protocol"]): r for r in csv.DictReader(open(os.path.join(sw, "results.csv")))}
rows = list(csv.DictReader(open(table)))
assert len(rows) == 6, f"{len(rows)} rows, want 6"
for r in rows:
    run = runs[(r["workload"], r["protocol"])]
    base = runs[(r["workload"], "nol1")]
    assert int(r["cycles"]) == int(run["cycles"])
    want = int(run["cycles"]) / int(base["cycles"])
    assert abs(float(r["norm_cycles"]) - want) < 1e-12, f"{r['workload']} {r['protocol']}: {r['norm_cycles']} != {want}"
    want = int(run["bytes"]) / int(base["bytes"])
    assert abs(float(r["norm_bytes"]) - want) < 1e-12, "norm_bytes"
    st = json.load(open(os.path.join(sw, "runs", run["id"] + ".json")))
    assert float(r["l2_hit_rate"]) == st["l2_hit_rate"], "l2_hit_rate"
    reads = sum(v for k, v in st["stats"].items() if k.startswith("gpu.dram[") and k.endswith(".reads"))
    assert int(r["dram_reads"]) == reads and reads > 0, "dram_reads"
    if r["protocol"] == "nol1":
        assert float(r["norm_cycles"]) == 1.0
assert {r["workload"] for r in rows} == {"mp", "mvt"}
assert any(float(r["norm_cycles"]) != 1.0 for r in rows), "every protocol equal to nol1"
PY
"$py" "$root/tools/analyze_example.py" "$tmp/sw" --baseline nope --out "$tmp/x.png" >"$tmp/o" 2>&1
[ $? -ne 0 ] || fail "unknown baseline accepted"
grep -q "no run of the baseline protocol 'nope'" "$tmp/o" || fail "no message: $(cat "$tmp/o")"
echo "analyze-example: ok"
