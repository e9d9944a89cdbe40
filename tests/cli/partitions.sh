#!/usr/bin/env bash
# The --stats JSON's speed.partitions (docs/parallel.md 1.8, step 0): the
# ticks the engine ran per partition of the machine, core | mem on one GPU,
# core and mem per GPM on hmg-scaled (the sysnet in the mem sides), one partition with its
# reason under protocol ideal; they add up to engine.events (the machine
# schedules nothing but ticks), and, host figures in the speed block, they
# are left out by gpucoh stats diff (a run whose ticks differ, as a faster or
# partitioned engine's may, compares equal).
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run() { # OUT ARGS...
    local out=$1; shift
    "$bin" run --workload cl --size tiny "$@" --stats "$tmp/$out.json" >/dev/null 2>&1 ||
        fail "run $*"
}
run one --protocol tcw
run gpms --config "$root/configs/hmg-scaled.ini"
run ideal --protocol ideal
python3 - "$tmp" <<'PY' || fail "speed.partitions"
import json, sys
def load(name):
    d = json.load(open(f"{sys.argv[1]}/{name}.json"))
    p = d["speed"]["partitions"]
    assert sum(p["ticks"].values()) == d["stats"]["engine.events"], name
    return p
one = load("one")
assert list(one["ticks"]) == ["core", "mem"] and "one_because" not in one, one
gpms = load("gpms")
names = list(gpms["ticks"])
assert len(names) == 32 and names[0] == "gpu0.gpm0.core" and names[-1] == "gpu3.gpm3.mem", names
ideal = load("ideal")
assert list(ideal["ticks"]) == ["all"] and "ideal" in ideal["one_because"], ideal
d = json.load(open(f"{sys.argv[1]}/one.json"))
d["speed"]["partitions"]["ticks"]["core"] += 1
json.dump(d, open(f"{sys.argv[1]}/other.json", "w"))
PY
"$bin" stats diff "$tmp/one.json" "$tmp/other.json" >"$tmp/diff.txt" 2>&1 ||
    fail "stats diff: $(cat "$tmp/diff.txt")"
grep -q partitions "$tmp/diff.txt" && fail "stats diff shows the partitions"
echo "ok"
