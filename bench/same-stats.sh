#!/usr/bin/env bash
# same-stats.sh - do two gpucoh binaries give bit-identical statistics?
#
# Runs every workload x protocol below with BEFORE and AFTER and compares the
# --stats JSON of each pair with the host-speed figures left out (the "speed"
# block and "engine.events", the count of host events, also among each launch's
# kernel_stats, which a faster engine may change without changing anything
# simulated; and the setting sim.partitions, which only says how the engine
# runs the machine). A speed change to the
# simulator must leave every other number identical.
# Use: bench/same-stats.sh BEFORE AFTER [OUTDIR] [tiny|quick|small|all] [ARG...]
# (all: tiny and quick, minutes. small: a few long runs at size small, a few
# minutes on two cores, where a wake-up or an order that tiny and quick
# never reach can show: a TC L2 bank's left-over wake-up moved one of repro
# tc's small numbers and no tiny or quick run.)
# Options only one binary has (new ones, at their defaults) are left out of
# the compared config, and counters only one has (new statistics) out of the
# compared statistics. ARGs are given to AFTER only (e.g. `--set sim.partitions=max`: a setting
# that must not change a statistic, which BEFORE may not know).
# Exit 0 when every pair matches, 1 when one differs (its diff is printed).
# SPDX-License-Identifier: BSD-3-Clause
set -u
before=$1 after=$2 out=${3:-/tmp/same-stats} which=${4:-all}
shift $(($# < 4 ? $# : 4))
after_args=("$@")
mkdir -p "$out"
workloads="kmn cl stn spinlock histogram"
protocols="nol1 rc tcw mesi gpuvi rccsc getm"
fail=0 n=0

# run NAME ARGS...: one run with each binary, then compare
run() {
  local name=$1; shift
  for b in before after; do
    local bin=$before extra=(); [ $b = after ] && bin=$after extra=(${after_args[@]+"${after_args[@]}"})
    "$bin" "$@" ${extra[@]+"${extra[@]}"} --stats "$out/$name.$b.json" >"$out/$name.$b.log" 2>&1
    echo $? >"$out/$name.$b.rc"
  done
  n=$((n + 1))
  if ! cmp -s "$out/$name.before.rc" "$out/$name.after.rc" ||
     ! python3 - "$out/$name.before.json" "$out/$name.after.json" <<'PY'
import json, sys
def load(p):
    try:
        d = json.load(open(p))
    except FileNotFoundError:
        return None
    d.pop("speed", None)
    d.get("stats", {}).pop("engine.events", None)
    d.get("config", {}).pop("sim.partitions", None)  # how the host runs it, not what
    return d
def per_launch(d, keep):  # each launch's counters by name, those in `keep` only
    ks = d.get("kernel_stats", {})
    names = ks.pop("names", [])
    ks["launches"] = [{**{k: v for k, v in l.items() if k != "values"},
                       "values": {n: v for n, v in zip(names, l.get("values", [])) if n in keep}}
                      for l in ks.get("launches", [])]
a, b = load(sys.argv[1]), load(sys.argv[2])
if a and b:  # an option or a counter only one binary has (a new one) is not compared
    for k in set(a.get("config", {})) ^ set(b.get("config", {})):
        a.get("config", {}).pop(k, None)
        b.get("config", {}).pop(k, None)
    for k in set(a.get("stats", {})) ^ set(b.get("stats", {})):
        a.get("stats", {}).pop(k, None)
        b.get("stats", {}).pop(k, None)
    both = set(a.get("kernel_stats", {}).get("names", [])) & set(b.get("kernel_stats", {}).get("names", []))
    both.discard("engine.events")  # a host-speed field
    per_launch(a, both)
    per_launch(b, both)
if a != b:
    if a and b:
        for k in sorted(set(a.get("stats", {})) | set(b.get("stats", {}))):
            if a["stats"].get(k) != b["stats"].get(k):
                print(f"  {k}: {a['stats'].get(k)} -> {b['stats'].get(k)}")
    sys.exit(1)
PY
  then
    echo "DIFFERS: $name"; fail=1
  fi
}

if [ "$which" = small ]; then
  tcw_paper="--protocol tcw --set tc.sc_fence_invalidates=false --set tc.fence_gwct=warp --set tc.load_gwct=false"
  run ndl-small-tcw-12800 run --workload ndl --size small $tcw_paper --set tc.lease=fixed:12800
  run kmn-small-tcw run --workload kmn --size small $tcw_paper
  run cl-small-mesi run --workload cl --size small --protocol mesi
  run stn-small-rc run --workload stn --size small --protocol rc
  echo "$n pairs compared, $([ $fail = 0 ] && echo 'all identical' || echo 'SOME DIFFER')"
  exit $fail
fi
sizes="tiny quick"; [ "$which" != all ] && sizes=$which
for size in $sizes; do
  for w in $workloads; do
    for p in $protocols; do
      # quick: the protocols with the most traffic, to keep the check minutes long
      [ $size = quick ] && case $p in nol1|rc|tcw|mesi) ;; *) continue ;; esac
      run "$w-$size-$p" run --workload $w --size $size --protocol $p
    done
    run "$w-$size-hmg" run --workload $w --size $size --protocol hmg --config configs/hmg-4x4.ini
  done
done
echo "$n pairs compared, $([ $fail = 0 ] && echo 'all identical' || echo 'SOME DIFFER')"
exit $fail
