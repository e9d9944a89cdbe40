#!/bin/bash
# stats-per-kernel.sh - the stats file's kernel_stats block (docs/stats.md):
# one entry per launch of a two-kernel workload (mvt under rc and mesi, and
# examples/twostage.spec through `gpucoh exec`), whose statistics sum, counter
# by counter, to the whole run's `stats` (every one but the maxima), whose
# headline figures (cycles, instructions) agree with its counters and sum to
# the top level's, traffic too, and whose kernels and cycles are
# kernel_cycles'; a counter's "NAME": VALUE is still in the file once. Before
# the block existed a run's statistics were whole-run only (kernel_cycles
# aside).
# usage: bash stats-per-kernel.sh <gpucoh-binary> <repo-root>
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

check() { # check FILE.json LAUNCHES
    python3 - "$1" "$2" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
d = json.loads(text)
want = int(sys.argv[2])
ks = d.get("kernel_stats")
assert ks is not None, "no kernel_stats block"
names, launches = ks["names"], ks["launches"]
assert len(launches) == want, f"{len(launches)} launches, want {want}"
assert len(set(names)) == len(names), "a name twice"
kc = d["kernel_cycles"]
assert [k for l in launches for k in l["kernels"]] == [e["kernel"] for e in kc], "kernel names"
assert [l["cycles"] for l in launches] == [e["cycles"] for e in kc], "cycles differ from kernel_cycles"
assert [l["launch"] for l in launches] == list(range(want)), "launch numbers"
per = [dict(zip(names, l["values"])) for l in launches]
assert all(len(l["values"]) == len(names) for l in launches), "a row of the wrong length"
total = d["stats"]
checked = 0
for name, v in total.items():
    if name.endswith(("max", "_min", "_avg")):
        assert name not in names, f"maximum, minimum or average {name} split by launch"
        continue
    s = sum(p.get(name, 0) for p in per)
    assert s == v, f"{name}: launches sum to {s}, the run's is {v}"
    checked += 1
for name in names:
    assert name in total, f"{name} is not a statistic of the run"
    assert any(p[name] > 0 for p in per), f"{name} changed in no launch"
for l, p in zip(launches, per):
    assert l["thread_insts"] > 0 and l["cycles"] > 0, f"launch {l['launch']} did nothing"
    assert abs(l["ipc"] - l["warp_insts"] / l["cycles"]) < 1e-9, "ipc"
    for key in ("thread_insts", "warp_insts"):  # the SMs' and CPU cores' counters
        s = sum(v for n, v in p.items() if re.fullmatch(r"(gpu\.sm|cpu)\[\d+\]\." + key, n))
        assert s == l[key], f"launch {l['launch']}: {key} {l[key]} != {s} from its counters"
for key in ("cycles", "thread_insts", "warp_insts"):
    s = sum(l[key] for l in launches)
    assert s == d[key], f"{key}: launches sum to {s}, the run's is {d[key]}"
for c, t in d["traffic"].items():
    s = sum(p.get(f"gpu.noc.{dr}.bytes.{c}", 0) for p in per for dr in ("up", "down"))
    assert s == t["bytes"], f"traffic {c}: launches sum to {s}, the run's is {t['bytes']}"
assert checked > 100, f"only {checked} statistics checked"
# a counter's "NAME": VALUE appears once in the file (the whole run's), so
# scripts that grep it out of the text keep working
name = "gpu.sm[0].thread_insts"
assert text.count(f'"{name}":') == 1, f'"{name}": appears {text.count(chr(34) + name + chr(34) + ":")} times'
PY
}

for p in rc mesi; do
    "$bin" run --workload mvt --size tiny --protocol $p --quiet --stats "$tmp/mvt-$p.json" \
        >"$tmp/o" 2>&1 || fail "mvt $p: exit $?: $(tail -3 "$tmp/o")"
    check "$tmp/mvt-$p.json" 2 || fail "mvt under $p"
done
# twenty launches, and RCC's lease_avg, a level that goes down (it stopped
# the run, exit 3, when it was taken for a counter)
"$bin" run --workload bfs --size tiny --protocol rccsc --set order.model=sc --set rcc.ts_bits=12 \
    --quiet --stats "$tmp/bfs.json" >"$tmp/o" 2>&1 || fail "bfs rccsc: exit $?: $(tail -3 "$tmp/o")"
check "$tmp/bfs.json" 20 || fail "bfs under rccsc"
"$bin" exec "$root/examples/twostage.spec" --quiet --stats "$tmp/two.json" >"$tmp/o" 2>&1 ||
    fail "twostage: exit $?: $(tail -3 "$tmp/o")"
check "$tmp/two.json" 2 || fail "twostage.spec"
python3 - "$tmp/two.json" <<'PY' || fail "twostage: kernel names"
import json, sys
d = json.load(open(sys.argv[1]))
assert [l["kernels"] for l in d["kernel_stats"]["launches"]] == [["affine"], ["block_sum"]]
PY
echo "stats-per-kernel: ok"
