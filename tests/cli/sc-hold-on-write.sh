#!/usr/bin/env bash
# What an SC stall waits on (spec 004a Fig. 3.1b; docs/ordering.md): the SM's
# order_holds_on_write and order_hold_cycles_on_write count the order holds
# begun while a store or atomic of the warp was outstanding, on real runs:
#   - kmn under naive SC on the motivation machine (gpuvi): its assign kernel
#     holds each centre load behind the feature load before it (a load), and
#     its transpose kernel holds each load behind the store before it, so some
#     but not all of the order holds are on writes;
#   - kmn's variant cmem (the centres in constant memory, as Rodinia's
#     kmeansPoint keeps them): the assign kernel's loads no longer follow one
#     another, so the holds left are the transpose's, all on writes, and far
#     fewer global instructions are held; its memberships are checked;
#   - under rmo nothing is held;
#   - per thread operation (mem_lanes, order_held_lanes): kmn's warps are all
#     full, so every count is 32 lanes a warp instruction; bfs's held accesses
#     (its frontier threads') have fewer than half their warps' lanes.
set -e
GPUCOH=${1:-./build/gpucoh}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
run() { # NAME ARGS...
    local name=$1
    shift
    "$GPUCOH" run --workload kmn --size tiny --config configs/rcc-fermi.ini --protocol gpuvi \
        --check --quiet --stats "$T/$name.json" "$@" >"$T/$name.out" 2>&1 ||
        { echo "FAIL: $name: $(tail -3 "$T/$name.out")"; exit 1; }
}
cd "${2:-.}"
run sc --set order.model=sc
run cmem --set order.model=sc --variant cmem
run rmo --set order.model=rmo
"$GPUCOH" run --workload bfs --size tiny --config configs/rcc-fermi.ini --protocol gpuvi --quiet \
    --set order.model=sc --stats "$T/bfs.json" >"$T/bfs.out" 2>&1 || { echo "FAIL: bfs"; exit 1; }
python3 - "$T" <<'PY'
import json, sys
def sums(name):
    d = json.load(open(f"{sys.argv[1]}/{name}.json"))
    assert d["check_passed"] is True, name
    st = d["stats"]
    def s(tail):
        return sum(v for k, v in st.items() if k.startswith("gpu.sm[") and k.endswith(tail))
    return {"holds": s(".holds.order"), "on_write": s(".order_holds_on_write"),
            "cycles": s(".hold_cycles.order"), "cycles_on_write": s(".order_hold_cycles_on_write"),
            "insts": s(".mem_insts.LOAD") + s(".mem_insts.STORE") + s(".mem_insts.ATOMIC"),
            "held_lanes": s(".order_held_lanes"),
            "lanes": s(".mem_lanes.LOAD") + s(".mem_lanes.STORE") + s(".mem_lanes.ATOMIC")}
sc, cmem, rmo = sums("sc"), sums("cmem"), sums("rmo")
assert 0 < sc["on_write"] < sc["holds"], sc
assert 0 < sc["cycles_on_write"] < sc["cycles"], sc
assert cmem["holds"] > 0 and cmem["on_write"] == cmem["holds"], cmem
assert cmem["cycles_on_write"] == cmem["cycles"], cmem
assert cmem["holds"] / cmem["insts"] < sc["holds"] / sc["insts"] / 4, (sc, cmem)
assert rmo["holds"] == rmo["on_write"] == rmo["cycles_on_write"] == rmo["held_lanes"] == 0, rmo
# per thread operation: kmn tiny's 1024 points fill every warp, so a held access holds 32 lanes
for r in (sc, cmem, rmo):
    assert r["lanes"] == 32 * r["insts"] and r["held_lanes"] == 32 * r["holds"], r
# bfs's frontier threads are few: its held accesses (after the frontier test) have few lanes
st = json.load(open(f"{sys.argv[1]}/bfs.json"))["stats"]
lane = lambda t: sum(v for k, v in st.items() if k.startswith("gpu.sm[") and k.endswith(t))
holds, held = lane(".holds.order"), lane(".order_held_lanes")
assert 0 < holds <= held < 32 * holds / 2, (holds, held)
assert lane(".mem_lanes.LOAD") < 32 * lane(".mem_insts.LOAD"), "bfs lanes"
print("sc-hold-on-write: kmn tiny, holds on writes", sc["on_write"], "of", sc["holds"],
      "(sc),", cmem["on_write"], "of", cmem["holds"], "(cmem)")
PY
"$GPUCOH" run --workload kmn --size tiny --variant texture >"$T/bad" 2>&1 && exit 1
grep -q "cmem" "$T/bad" || { echo "FAIL: an unknown variant: $(cat "$T/bad")"; exit 1; }
echo "sc-hold-on-write: 1 passed, 0 failed"
