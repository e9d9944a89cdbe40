#!/bin/bash
# stats-series.sh - `gpucoh run --stats-interval N --stats-series FILE.csv`
# (docs/stats.md): a CSV pandas reads (one header, numeric columns), a row at
# every multiple of N core cycles while kernels run and a last row whose
# cumulative counters are the run's totals in the stats file; sampling does
# not change a single statistic (the stats files with and without it are
# equal but for wall time); a run that cannot start writes no CSV; the
# options go together and not with --functional (exit 2). Before the option
# existed `run` refused --stats-interval (exit 2).
# usage: bash stats-series.sh <gpucoh-binary> <repo-root>
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=${GPUCOH_PYTHON:-/usr/bin/python3} # Debian's, with python3-pandas (make deps)
fail() { echo "FAIL: $*"; exit 1; }

for p in rc mesi tcw; do
    "$bin" run --workload mvt --size tiny --protocol $p --quiet --stats "$tmp/plain.json" \
        >"$tmp/o" 2>&1 || fail "$p plain: exit $?: $(tail -3 "$tmp/o")"
    "$bin" run --workload mvt --size tiny --protocol $p --quiet --stats "$tmp/sampled.json" \
        --stats-interval 500 --stats-series "$tmp/series.csv" >"$tmp/o" 2>&1 ||
        fail "$p sampled: exit $?: $(tail -3 "$tmp/o")"
    python3 - "$tmp/plain.json" "$tmp/sampled.json" "$tmp/series.csv" <<'PY' || fail "under $p"
import csv, json, sys
plain, sampled = (json.load(open(f)) for f in sys.argv[1:3])
for d in (plain, sampled):
    del d["speed"]  # wall time
assert plain == sampled, "sampling changed the statistics: " + ", ".join(
    k for k in plain if plain[k] != sampled.get(k))
rows = list(csv.DictReader(open(sys.argv[3])))
want_cols = ["cycle", "kernel_cycles", "kernels", "thread_insts", "warp_insts", "ipc",
             "l1_hits", "l1_accesses", "l1_hit_rate", "l2_misses", "l2_accesses", "l2_hit_rate",
             "bytes_LD", "bytes_ST", "bytes_ATO", "bytes_REQ", "bytes_INV", "bytes_RCL",
             "outstanding"]
assert list(rows[0].keys()) == want_cols, f"columns {list(rows[0].keys())}"
samples, last = rows[:-1], rows[-1]
assert len(samples) >= 5, f"only {len(samples)} samples"
assert all(int(r["cycle"]) % 500 == 0 for r in samples), "a sample off the interval"
cyc = [int(r["cycle"]) for r in rows]
assert cyc == sorted(cyc) and len(set(cyc)) == len(cyc), "cycles not increasing"
for col in ("kernel_cycles", "thread_insts", "warp_insts", "l1_hits", "l1_accesses", "l2_misses",
            "l2_accesses", "bytes_LD", "bytes_ST", "bytes_REQ"):
    v = [int(r[col]) for r in rows]
    assert v == sorted(v), f"{col} is not cumulative"
d = plain
assert int(last["kernel_cycles"]) == d["cycles"], f"kernel_cycles {last['kernel_cycles']} != {d['cycles']}"
assert int(last["kernels"]) == d["kernels"]
assert int(last["thread_insts"]) == d["thread_insts"]
assert int(last["warp_insts"]) == d["warp_insts"]
for c in ("LD", "ST", "ATO", "REQ", "INV", "RCL"):
    assert int(last["bytes_" + c]) == d["traffic"][c]["bytes"], f"bytes_{c}"
acc = int(last["l2_accesses"])
assert acc > 0 and abs(1 - int(last["l2_misses"]) / acc - d["l2_hit_rate"]) < 1e-12, "l2 misses"
acc = int(last["l1_accesses"])
if acc:
    assert abs(int(last["l1_hits"]) / acc - d["l1_hit_rate"]) < 1e-12, "l1 hits"
assert int(last["outstanding"]) == 0, "requests outstanding after the run"
assert any(int(r["outstanding"]) > 0 for r in samples), "never a request outstanding"
# the interval's IPC is its warp instructions over its kernel cycles
for a, b in zip(rows, rows[1:]):
    dk = int(b["kernel_cycles"]) - int(a["kernel_cycles"])
    if dk:
        ipc = (int(b["warp_insts"]) - int(a["warp_insts"])) / dk
        assert abs(float(b["ipc"]) - ipc) < 1e-5 * max(1, ipc), f"ipc at {b['cycle']}"
PY
done

# pandas reads it as numbers
"$py" - "$tmp/series.csv" <<'PY' || fail "pandas"
import sys
import pandas as pd
df = pd.read_csv(sys.argv[1])
assert all(str(t) in ("int64", "float64") for t in df.dtypes), f"{df.dtypes}"
assert df["thread_insts"].iloc[-1] > 0
PY

# usage errors: exit 2, no file
rm -f "$tmp/series.csv"
"$bin" run --workload mvt --size tiny --stats-interval 100 >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "--stats-interval alone: not exit 2"
grep -q "go together" "$tmp/o" || fail "no message for --stats-interval alone"
"$bin" run --workload mvt --size tiny --functional --stats-interval 100 \
    --stats-series "$tmp/series.csv" >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "--functional: not exit 2"
grep -q "functional" "$tmp/o" || fail "no message for --functional"
"$bin" run --workload mvt --size tiny --stats-interval 0 --stats-series "$tmp/series.csv" \
    >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "--stats-interval 0: not exit 2"
[ ! -e "$tmp/series.csv" ] || fail "a CSV written by a run that did not start"
echo "stats-series: ok"
