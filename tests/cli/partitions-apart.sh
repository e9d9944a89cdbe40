#!/usr/bin/env bash
# sim.partitions (docs/parallel.md, step 1): with max, every partition of the
# machine has its own event queue, run by the merge executor, and the ports
# between partitions announce their sends at window ends; the --stats JSON is
# identical to one engine's (sim.partitions=1, the default) but for the host
# figures (the speed block, engine.events) and the setting itself, on a
# multi-GPM machine (hmg-scaled, 32 partitions: the sysnet's halves inside
# the GPMs, so the window is the crossbars' latency, not the sysnet's input
# cycle) and on one GPU (core | mem).
# The speed block says how the partitions ran: cut ports, the window (the
# smallest cut latency), sends through outboxes. A machine that is one
# partition (protocol ideal) runs on one engine whatever the setting.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run() { # OUT ARGS...
    local out=$1; shift
    "$bin" run --size tiny "$@" --stats "$tmp/$out.json" >"$tmp/$out.log" 2>&1 ||
        fail "run $*: $(tail -3 "$tmp/$out.log")"
}
run gpms1 --workload cl --config "$root/configs/hmg-scaled.ini"
run gpmsmax --workload cl --config "$root/configs/hmg-scaled.ini" --set sim.partitions=max
run gpu1 --workload histogram --protocol tcw
run gpumax --workload histogram --protocol tcw --set sim.partitions=max
run ideal --workload cl --protocol ideal --set sim.partitions=max
python3 - "$tmp" <<'PY' || fail "sim.partitions=max differs from one engine"
import json, sys
def load(name):
    d = json.load(open(f"{sys.argv[1]}/{name}.json"))
    speed = d.pop("speed")
    d["stats"].pop("engine.events")
    ks = d.get("kernel_stats", {})
    if "engine.events" in ks.get("names", []):
        i = ks["names"].index("engine.events")
        for launch in ks.get("launches", []):
            launch["values"].pop(i)
    setting = d["config"].pop("sim.partitions")
    return d, speed["partitions"], setting
for one, apart, parts, window in (("gpms1", "gpmsmax", 32, 11432), ("gpu1", "gpumax", 2, 11432)):
    a, pa, sa = load(one)
    b, pb, sb = load(apart)
    assert (sa, sb) == ("1", "max"), (sa, sb)
    if a != b:
        for k in sorted(set(a["stats"]) | set(b["stats"])):
            if a["stats"].get(k) != b["stats"].get(k):
                print(f"  {one}: {k}: {a['stats'].get(k)} -> {b['stats'].get(k)}")
        sys.exit(f"{apart} differs from {one}")
    assert a["cycles"] > 1000 and a["thread_insts"] > 10000, one
    # the same ticks in every partition, and the window machinery at work
    assert pa["ticks"] == pb["ticks"] and len(pb["ticks"]) == parts, (pa, pb)
    assert "cut_ports" not in pa, pa
    assert pb["window_ps"] == window, pb
    assert pb["cut_ports"] > 0 and pb["outbox_sends"] >= 100, pb
ideal = load("ideal")[1]
assert list(ideal["ticks"]) == ["all"] and "cut_ports" not in ideal, ideal
PY
# the setting and its meaning are listed with the others
"$bin" config show --help-keys 2>&1 | grep -A1 "^partitions" | grep -q "merge executor" ||
    fail "config show --help-keys: sim.partitions"
echo "ok"
