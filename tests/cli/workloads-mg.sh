#!/usr/bin/env bash
# The mg set (docs/workloads.md, spec 004b §5.1) on the scaled 4 GPU x 4 GPM
# machine: every workload passes its exact CPU check at tiny, with the
# invariant observers on (--check), under hmg (GPU homes, directories,
# release markers in levels), sw-h (bulk invalidation at acquires; chainscan's
# .gpu handoffs served at GPU homes) and nocache-mg; and the multi-GPM
# statistics the sweeps read are present and consistent in a run's JSON;
# sssp's variant flag-once passes its check with fewer stores.
set -u
bin=$1
src=${2:-.}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
wls=$("$bin" list workloads | awk '$2 == "mg" {print $1}')
[ "$(echo $wls)" = "chainscan conv halo pathfinder rnn sssp" ] || fail "the mg set is '$(echo $wls)'"
for p in hmg sw-h nocache-mg; do
    for w in $wls; do
        "$bin" run --workload $w --size tiny --config "$src/configs/hmg-scaled.ini" --protocol $p \
            --check --quiet --stats "$tmp/$w-$p.json" >"$tmp/out" 2>&1 ||
            fail "$w under $p: $(tail -5 "$tmp/out")"
    done
done
# halo's ping-pong grids are read across GPMs and overwritten two kernels
# later: the directory must invalidate the copies; conv's layers move data
# between GPUs and GPMs; without remote caching nothing is invalidated.
python3 - "$tmp/halo-hmg.json" "$tmp/conv-hmg.json" "$tmp/halo-nocache-mg.json" <<'PY' || exit 1
import json, sys
def total(p, tail):
    return sum(v for k, v in json.load(open(p))["stats"].items()
               if k.endswith(tail) and (".l2[" in k or k.startswith("sys.")))
hmg, conv, nc = sys.argv[1], sys.argv[2], sys.argv[3]
if not total(hmg, ".lines_invalidated") > 0 or not total(hmg, ".invs_sent") > 0:
    sys.exit("FAIL: halo under hmg invalidated nothing")
if not total(conv, "sys.gpu_links.bytes.LD") > 0 or not total(conv, "sys.gpm_links.bytes.LD") > 0:
    sys.exit("FAIL: conv under hmg moved no data between GPUs or GPMs")
if total(nc, ".invs_sent") != 0 or total(nc, ".lines_invalidated") != 0:
    sys.exit("FAIL: nocache-mg sent invalidations")
PY
# sssp's variant flag-once (an ablation of its `changed` flag) computes the
# same distances with fewer stores: one per improving thread, not per edge.
"$bin" run --workload sssp --variant flag-once --size tiny --config "$src/configs/hmg-scaled.ini" \
    --protocol hmg --check --quiet --stats "$tmp/sssp-once.json" >"$tmp/out" 2>&1 ||
    fail "sssp flag-once under hmg: $(tail -5 "$tmp/out")"
python3 - "$tmp/sssp-hmg.json" "$tmp/sssp-once.json" <<'PY' || exit 1
import json, sys
def writes(p):
    return sum(v for k, v in json.load(open(p))["stats"].items()
               if ".l2[" in k and k.endswith(".writes"))
every, once = writes(sys.argv[1]), writes(sys.argv[2])
if not 0 < once < every:
    sys.exit("FAIL: sssp's L2 writes: %d per edge, %d with flag-once" % (every, once))
PY
echo "workloads-mg: passed"
