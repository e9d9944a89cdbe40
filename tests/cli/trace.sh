#!/bin/bash
# trace.sh - --trace and --inst-stats (docs/trace.md) on tests/exec/lineinfo_loop
# (PTX built with -lineinfo: 2 warps, each running the load of
# lineinfo_loop.cu:11 five times and the store of line 12 once):
# - tracing changes no statistic (--stats equal but for the wall-clock speed);
# - the trace names the right .cu line for the load and the store, one row per
#   warp execution, a memory row's lines and a completion after its issue;
# - the filters (--trace-warps, --trace-ctas, --trace-cycles, --trace-kernel)
#   keep exactly the rows they name;
# - --inst-stats counts what the kernel does by hand (executions = trips x
#   warps, threads = x 32), per instruction and per .cu line; the functional
#   mode counts the same executions; its --trace is refused;
# - bad filter arguments and a filter without --trace are exit 2 with a message;
#   a run stopped by a fault keeps what it traced as FILE.partial only;
# - gpucoh run and gpucoh cuda (an nvcc-built -lineinfo program) trace too.
# usage: trace.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; head -30 "$tmp/err"; exit 1; }
spec=$root/tests/exec/lineinfo_loop.spec

# the statistics of a run without its wall-clock speed
strip_speed() {
    python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d.pop("speed", None)
print(json.dumps(d, sort_keys=True))
EOF
}

"$bin" exec "$spec" --quiet --stats "$tmp/plain.json" >"$tmp/out" 2>"$tmp/err" ||
    fail "untraced run: exit $?"
"$bin" exec "$spec" --quiet --stats "$tmp/traced.json" --trace "$tmp/t.csv" \
    --inst-stats "$tmp/i.json" >"$tmp/out" 2>"$tmp/err" || fail "traced run: exit $?"
[ "$(strip_speed "$tmp/plain.json")" = "$(strip_speed "$tmp/traced.json")" ] ||
    fail "statistics differ with --trace and --inst-stats"
ls "$tmp" | grep -q "tmp\." && fail "a temporary file was left"

# the trace: rows by .cu line, counts, completion after issue, lines of memory rows
python3 - "$tmp/t.csv" <<'EOF' || fail "trace content"
import csv, sys
f = open(sys.argv[1])
assert f.readline().startswith("# gpucoh trace 1"), "no format line"
rows = list(csv.DictReader(f))
assert rows, "no rows"
loads = [r for r in rows if r["op"] == "load"]
stores = [r for r in rows if r["op"] == "store"]
assert len(loads) == 10, f"{len(loads)} load rows, expected 5 trips x 2 warps"
assert len(stores) == 2, f"{len(stores)} store rows, expected 2"
for r in loads:
    assert r["cu"] == "lineinfo_loop.cu:11", r
    assert r["inst"].startswith("ld.global.u32"), r
    assert r["mask"] == "0xffffffff", r
    assert len(r["lines"].split()) == 1 and r["lines"].startswith("0x"), r
    assert int(r["done"]) > int(r["issue"]), r
    assert int(r["line_cycles"]) > 0, r
for r in stores:
    assert r["cu"] == "lineinfo_loop.cu:12" and r["inst"].startswith("st.global.u32"), r
for r in rows:
    assert r["kernel"] == "rowsum" and int(r["done"]) >= int(r["issue"]), r
    assert r["ptx"].rsplit(":", 1)[0].endswith("/lineinfo_loop.ptx"), r
assert {(r["sm"], r["slot"], r["cta"], r["warp"]) for r in loads} == \
    {(r["sm"], r["slot"], r["cta"], r["warp"]) for r in stores}, "warps of loads and stores"
assert sorted({r["cta"] for r in rows}) == ["0", "1"], "CTAs"
EOF

# --inst-stats: by hand, per instruction and per .cu line
python3 - "$tmp/i.json" <<'EOF' || fail "inst-stats content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "timing"
[k] = d["kernels"]
assert k["kernel"] == "rowsum"
ins = k["instructions"]
ld = [i for i in ins if i.get("op") == "load"]
st = [i for i in ins if i.get("op") == "store"]
assert len(ld) == 1 and len(st) == 1, (ld, st)
ld, st = ld[0], st[0]
assert (ld["warp_execs"], ld["thread_execs"], ld["mem_execs"]) == (10, 320, 10), ld
assert ld["lines"] == 10 and ld["cu"] == "lineinfo_loop.cu:11", ld
assert ld["cycles"] >= ld["line_cycles"] // ld["lines"] * ld["mem_execs"] > 0, ld
assert 0 <= ld["l1_hit_lines"] <= ld["lines"], ld
assert (st["warp_execs"], st["thread_execs"], st["cu"]) == (2, 64, "lineinfo_loop.cu:12"), st
ret = [i for i in ins if i["inst"] == "ret;"]
assert len(ret) == 1 and ret[0]["warp_execs"] == 2 and ret[0]["cu"] == "lineinfo_loop.cu:13"
# the loop's counter increment (line 10, column 32) runs once per trip per warp
inc = [i for i in ins if i["inst"].startswith("add.s32") and i["inst"].endswith(", 1;")]
assert len(inc) == 1 and inc[0]["warp_execs"] == 10, inc
cu = {c["cu"]: c for c in k["cu_lines"]}
assert cu["lineinfo_loop.cu:11"]["mem_execs"] == 10, cu
assert cu["lineinfo_loop.cu:11"]["warp_execs"] == sum(
    i["warp_execs"] for i in ins if i["cu"] == "lineinfo_loop.cu:11"), cu
assert cu["lineinfo_loop.cu:12"]["insts"] == sum(1 for i in ins if i["cu"] == "lineinfo_loop.cu:12")
assert sum(i["warp_execs"] for i in ins) == sum(c["warp_execs"] for c in k["cu_lines"]) + \
    sum(i["warp_execs"] for i in ins if i["cu"] is None)
EOF
# every warp instruction is counted: the sum equals the run's warp_insts
python3 - "$tmp/i.json" "$tmp/traced.json" <<'EOF' || fail "inst-stats total"
import json, sys
k = json.load(open(sys.argv[1]))["kernels"][0]
s = json.load(open(sys.argv[2]))
n = sum(i["warp_execs"] for i in k["instructions"])
assert n == s["warp_insts"], (n, s["warp_insts"])
t = sum(i["thread_execs"] for i in k["instructions"])
assert t == s["thread_insts"], (t, s["thread_insts"])
EOF

# the functional mode counts the same executions (no cycles)
"$bin" exec "$spec" --functional --inst-stats "$tmp/f.json" >"$tmp/out" 2>"$tmp/err" ||
    fail "functional inst-stats: exit $?"
python3 - "$tmp/i.json" "$tmp/f.json" <<'EOF' || fail "functional counts"
import json, sys
t, f = (json.load(open(p)) for p in sys.argv[1:])
assert f["mode"] == "functional"
count = lambda d: {i["pc"]: (i["warp_execs"], i["thread_execs"]) for i in d["kernels"][0]["instructions"]}
assert count(t) == count(f), (count(t), count(f))
assert all("cycles" not in i for i in f["kernels"][0]["instructions"])
EOF

# filters keep exactly what they name
rows() { tail -n +3 "$1"; }
"$bin" exec "$spec" --quiet --trace "$tmp/w.csv" --trace-warps 0:0 >"$tmp/out" 2>"$tmp/err" ||
    fail "--trace-warps: exit $?"
python3 - "$tmp/t.csv" "$tmp/w.csv" <<'EOF' || fail "--trace-warps rows"
import csv, sys
def rows(p):
    f = open(p); f.readline(); return list(csv.DictReader(f))
a, w = rows(sys.argv[1]), rows(sys.argv[2])
want = [r for r in a if r["sm"] == "0" and r["slot"] == "0"]
assert want and w == want, (len(w), len(want))
EOF
"$bin" exec "$spec" --quiet --trace "$tmp/c.csv" --trace-ctas 1 >"$tmp/out" 2>"$tmp/err" ||
    fail "--trace-ctas: exit $?"
python3 - "$tmp/t.csv" "$tmp/c.csv" <<'EOF' || fail "--trace-ctas rows"
import csv, sys
def rows(p):
    f = open(p); f.readline(); return list(csv.DictReader(f))
a, c = rows(sys.argv[1]), rows(sys.argv[2])
want = [r for r in a if r["cta"] == "1"]
assert want and c == want and len(want) < len(a), (len(c), len(want))
EOF
lo=$(python3 -c "
import csv; f=open('$tmp/t.csv'); f.readline(); r=list(csv.DictReader(f))
i=sorted(int(x['issue']) for x in r); print(i[len(i)//3], i[2*len(i)//3])")
set -- $lo
"$bin" exec "$spec" --quiet --trace "$tmp/y.csv" --trace-cycles "$1:$2" >"$tmp/out" 2>"$tmp/err" ||
    fail "--trace-cycles: exit $?"
python3 - "$tmp/t.csv" "$tmp/y.csv" "$1" "$2" <<'EOF' || fail "--trace-cycles rows"
import csv, sys
def rows(p):
    f = open(p); f.readline(); return list(csv.DictReader(f))
a, y = rows(sys.argv[1]), rows(sys.argv[2])
lo, hi = int(sys.argv[3]), int(sys.argv[4])
want = [r for r in a if lo <= int(r["issue"]) <= hi]
assert want and y == want and len(want) < len(a), (len(y), len(want))
EOF
"$bin" exec "$spec" --quiet --trace "$tmp/k.csv" --trace-kernel rowsum >"$tmp/out" 2>"$tmp/err" ||
    fail "--trace-kernel: exit $?"
cmp -s "$tmp/t.csv" "$tmp/k.csv" || fail "--trace-kernel rowsum: not the whole trace"
"$bin" exec "$spec" --quiet --trace "$tmp/n.csv" --trace-kernel other >"$tmp/out" 2>"$tmp/err" ||
    fail "--trace-kernel other: exit $?"
[ "$(rows "$tmp/n.csv" | wc -l)" -eq 0 ] || fail "--trace-kernel other: rows of rowsum"
grep -q "no kernel named 'other' ran" "$tmp/err" || fail "--trace-kernel other: no warning"

# bad arguments: exit 2 with a message, nothing run
expect_usage() { # PATTERN ARGS...
    local pat=$1
    shift
    "$bin" exec "$spec" --quiet "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    [ $rc -eq 2 ] || fail "'$*': exit $rc, expected 2"
    grep -q -- "$pat" "$tmp/err" || fail "'$*': expected '$pat'"
    [ ! -s "$tmp/out" ] || fail "'$*' ran"
}
expect_usage "--trace-warps: '0-1' is not a list of SM:WARP pairs" --trace "$tmp/x.csv" --trace-warps 0-1
expect_usage "--trace-warps: '0:1,' is not a list" --trace "$tmp/x.csv" --trace-warps 0:1,
expect_usage "--trace-ctas: 'a' is not a list of CTA numbers" --trace "$tmp/x.csv" --trace-ctas a
expect_usage "--trace-cycles: '9:3': the window's first cycle 9 comes after its last 3" \
    --trace "$tmp/x.csv" --trace-cycles 9:3
expect_usage "--trace-cycles: '12' is not a cycle window" --trace "$tmp/x.csv" --trace-cycles 12
expect_usage "--trace-warps: 99:0 names no warp: the machine has SMs 0 to 15" \
    --trace "$tmp/x.csv" --trace-warps 99:0
expect_usage "--trace-warps: 0:48 names no warp" --trace "$tmp/x.csv" --trace-warps 0:48
expect_usage "--trace-ctas filters the trace: give --trace FILE too" --trace-ctas 1
expect_usage "--trace: the functional mode has no timing to trace" --functional \
    --trace "$tmp/x.csv"
[ -e "$tmp/x.csv" ] && fail "a refused run wrote its trace"

# a run stopped by a fault leaves no trace file, and what it traced as FILE.partial
timeout 120 "$bin" exec "$root/examples/errors/spin.spec" --set sim.spin_cycles=20000 --quiet \
    --trace "$tmp/sp.csv" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] || fail "spin --trace: expected exit 3"
[ -e "$tmp/sp.csv" ] && fail "spin --trace: a trace file from a run that stopped"
grep -q "its trace so far is in $tmp/sp.csv.partial" "$tmp/err" || fail "spin: .partial not named"
grep -q '^spin,[0-9]*,[0-9]*,0,0,0,0,0,[0-9]*,.*spin.ptx:[0-9]*,' "$tmp/sp.csv.partial" ||
    fail "spin: no rows in the .partial trace"

# --help teaches the options
for c in run exec cuda; do
    "$bin" $c --help >"$tmp/out" 2>&1
    for o in --trace --trace-kernel --trace-warps --trace-ctas --trace-cycles --inst-stats; do
        grep -q -- "^  $o " "$tmp/out" || fail "$c --help: no $o"
    done
done

# gpucoh run: a registered workload (PTX without .loc: no cu column); the L1
# hits attributed to instructions are the L1s' load_hits, under two protocols
for p in rc mesi; do
    "$bin" run --workload bfs --size tiny --protocol $p --quiet --trace "$tmp/r.csv" \
        --inst-stats "$tmp/r.json" --stats "$tmp/rs.json" >"$tmp/out" 2>"$tmp/err" ||
        fail "run --trace ($p): exit $?"
    python3 - "$tmp/r.csv" "$tmp/r.json" "$tmp/rs.json" <<'EOF' || fail "run --trace content ($p)"
import csv, json, sys
f = open(sys.argv[1]); f.readline(); rows = list(csv.DictReader(f))
assert rows and all(r["cu"] == "" for r in rows)
assert any(r["op"] == "store" for r in rows) and any(r["op"] == "load" for r in rows)
d = json.load(open(sys.argv[2]))
s = json.load(open(sys.argv[3]))
ins = [i for k in d["kernels"] for i in k["instructions"]]
assert sum(i["warp_execs"] for i in ins) == len(rows) == s["warp_insts"]
hits = sum(i.get("l1_hit_lines", 0) for i in ins)
load_hits = sum(v for n, v in s["stats"].items() if n.endswith(".load_hits"))
assert hits == load_hits > 0, (hits, load_hits)
assert hits == sum(int(r["l1_hits"]) for r in rows)
EOF
done

# gpucoh cuda: an nvcc-built program (-lineinfo), its rows name its .cu lines
if [ -x "$root/examples/cuda/bin/saxpy_const" ] && [ -e "$(dirname "$bin")/lib/libcudart.so.13" ]; then
    "$bin" cuda --trace "$tmp/s.csv" --inst-stats "$tmp/s.json" --trace-ctas 0 -- \
        "$root/examples/cuda/bin/saxpy_const" >"$tmp/out" 2>"$tmp/err" || fail "cuda --trace: exit $?"
    python3 - "$tmp/s.csv" "$tmp/s.json" <<'EOF' || fail "cuda --trace content"
import csv, json, sys
f = open(sys.argv[1]); f.readline(); rows = list(csv.DictReader(f))
assert rows and all(r["cta"] == "0" for r in rows)
mem = [r for r in rows if r["op"] in ("load", "store")]
assert mem and all(r["cu"].split(":")[0].endswith("saxpy_const.cu") for r in mem), mem[:3]
d = json.load(open(sys.argv[2]))
assert any(c["cu"].split(":")[0].endswith("saxpy_const.cu") for k in d["kernels"] for c in k["cu_lines"])
EOF
    # the environment alone, as a program run without gpucoh cuda sees it
    LD_LIBRARY_PATH="$(dirname "$bin")/lib" GPUCOH_TRACE="$tmp/e.csv" GPUCOH_TRACE_WARPS=0:0 \
        "$root/examples/cuda/bin/saxpy_const" >"$tmp/out" 2>"$tmp/err" || fail "GPUCOH_TRACE: exit $?"
    python3 - "$tmp/e.csv" <<'EOF' || fail "GPUCOH_TRACE content"
import csv, sys
f = open(sys.argv[1]); f.readline(); rows = list(csv.DictReader(f))
assert rows and all((r["sm"], r["slot"]) == ("0", "0") for r in rows)
EOF
    LD_LIBRARY_PATH="$(dirname "$bin")/lib" GPUCOH_TRACE="$tmp/e2.csv" GPUCOH_TRACE_CYCLES=x \
        "$root/examples/cuda/bin/saxpy_const" >"$tmp/out" 2>"$tmp/err"
    [ $? -eq 2 ] || fail "GPUCOH_TRACE_CYCLES=x: expected exit 2"
    grep -q "is not a cycle window" "$tmp/err" || fail "GPUCOH_TRACE_CYCLES=x: no message"
fi
echo "trace: ok"
