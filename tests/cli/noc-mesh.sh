#!/usr/bin/env bash
# The 2D mesh ([noc] topology = mesh) carries every protocol's messages with
# the crossbar's ports: the litmus core subset passes and the DRF stress tester
# finds no wrong value on it, a workload gives the right output, the same
# configuration and seed give identical statistics, and the mesh is really in
# use (its cycle count differs from the crossbar's and its links carry flits).
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mesh=(--set noc.topology=mesh --set noc.latency_cycles=2 --set noc.flit_bytes=16)

for p in rc gpuvi mesi; do
    "$bin" litmus --protocol $p --core "$root/litmus/ptx" "${mesh[@]}" >"$tmp/l.out" 2>&1 ||
        fail "litmus core on a mesh under $p: $(grep -E 'FAIL|^==' "$tmp/l.out" | head)"
    grep -q "^== $p (model ptx): [0-9]* passed, 0 failed" "$tmp/l.out" || fail "litmus summary $p"
    out=$("$bin" stress --protocol $p --episodes 3000 --small-caches --check "${mesh[@]}" 2>&1) ||
        { echo "$out" | head -30; fail "stress on a mesh under $p"; }
    echo "$out" | grep -q "^stress $p *passed: 3000 episodes" || fail "stress $p: no pass line"
done

run() { "$bin" run --workload histogram --size tiny --protocol mesi --quiet "$@"; }
run "${mesh[@]}" --stats "$tmp/a.json" >"$tmp/a.out" 2>&1 || fail "histogram on a mesh: $(cat "$tmp/a.out")"
run "${mesh[@]}" --stats "$tmp/b.json" >/dev/null 2>&1 || fail "histogram on a mesh (again)"
sim() { grep -Ev 'wall_seconds|per_second' "$1"; } # host speed varies
cmp -s <(sim "$tmp/a.json") <(sim "$tmp/b.json") || fail "same configuration and seed, different statistics"
run --stats "$tmp/x.json" >/dev/null 2>&1 || fail "histogram on the crossbar"
cyc() { grep -Po '^\t"cycles":\t\K[0-9]+' "$1"; }
hops() { grep -Po '"gpu.noc.up.hop_flits":\t\K[0-9]+' "$1"; }
[ -n "$(cyc "$tmp/a.json")" ] || fail "no cycle count in the statistics"
[ "$(cyc "$tmp/a.json")" != "$(cyc "$tmp/x.json")" ] || fail "mesh and crossbar took the same cycles"
[ "$(hops "$tmp/a.json")" -gt "$(hops "$tmp/x.json")" ] || fail "the mesh's links carried no more flits than one hop each"
"$bin" config show "${mesh[@]}" >"$tmp/cfg.out" 2>&1 || fail "config show"
grep -q 'topology *= *mesh' "$tmp/cfg.out" || fail "config show does not list the topology"
"$bin" run --workload histogram --size tiny --set noc.topology=ring >"$tmp/bad.out" 2>&1
[ $? -eq 2 ] || fail "an unknown topology is not an input error"
echo "noc-mesh: 1 passed, 0 failed"
