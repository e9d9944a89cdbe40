#!/usr/bin/env bash
# spandex-cells.sh - Spandex's tables (spandex.LLC, spandex.DeNovo-L1,
# spandex.MESI-L1; src/coh/spandex/): gpucoh stress, litmus, verify and a
# tiny workload under spandex-d and spandex-g, with CPU cores of either kind
# beside the SMs, every request type drawn at random (fcs.random, 30% of the
# owner predictions wrong), loads typed ReqS, and an LLC of 2 sets (one bank
# of 256 bytes: evictions, RvkO, write-backs that find the line gone), fire
# every defined cell of the three tables but those listed below, checked in
# their --coverage (every defined cell is printed there, so a cell added to a
# table is asserted too). Ten listed cells seem dead: the LLC's IV and SI
# stall every request (REQ_STALLS, spx_llc.c), the owned forms too, but an IV
# line was just allocated with no owner (clear_owners) and an SI line came
# from S, which has none, and no grant happens in either, so a request there
# is never classified Owned or WTfwd. The others are races these runs do not
# produce (not shown unreachable), which a change of timing may make fire
# (noted, not failed); a dead one that fires fails the test. MESI-L1's
# S.FwdNack fired twice in the first run until an RvkO stopped waiting for
# write-back room (mesi_l1.c, take_forward), which moved that run's timing. A cell that
# should not exist is a hole (a panic, exit 3), which a run here would meet as
# a failure.
# usage: spandex-cells.sh GPUCOH REPO
set -u
bin=$1
src=${2:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
. "$src/tests/cells-check.sh"
cfg=(--config "$src/configs/spandex.ini")
rnd=(--set fcs.random=true --set fcs.mispredict=30)
# a 2-set LLC on the default machine (spandex.ini's: stress-spandex-small-llc.sh)
llc=(--small-caches --set l2.size=256 --set l2.banks=1 --set cpu.cores=2 --warps 16)
run stress --protocol spandex-d --episodes 20000 --warps 16 --small-caches "${cfg[@]}" \
    --set cpu.device=mesi "${rnd[@]}"
run stress --protocol spandex-d --episodes 40000 --small-caches "${cfg[@]}" \
    --set cpu.device=denovo --set cpu.cores=4
run stress --protocol spandex-d --episodes 5000 --small-caches "${cfg[@]}" \
    --set cpu.device=denovo --set fcs.random=true
run stress --protocol spandex-g --episodes 5000 --small-caches "${cfg[@]}" --set cpu.device=mesi
run stress --protocol spandex-d --episodes 20000 "${llc[@]}" --set cpu.device=mesi "${rnd[@]}"
run stress --protocol spandex-d --episodes 20000 "${llc[@]}" --set cpu.device=denovo \
    --set fcs.load=s --set fcs.strong_shared=true
# with paths between L1s: reads answered by a line's one owner (O), and such a
# read waiting while the LLC gathers (G) or revokes (R)
run stress --protocol spandex-d --episodes 20000 --small-caches "${cfg[@]}" \
    --set cpu.device=denovo --set cpu.cores=4 --set fcs.l1_to_l1=true
run stress --protocol spandex-d --episodes 5000 "${llc[@]}" --set cpu.device=mesi "${rnd[@]}" \
    --set fcs.l1_to_l1=true
run litmus --protocol spandex-d --iterations 10 "${rnd[@]}" "$src/litmus/ptx"
run litmus --protocol spandex-d "${cfg[@]}" --set cpu.device=mesi --iterations 100 \
    "$src/litmus/cpu-gpu"
run verify --protocol spandex-d --devices denovo,mesi
run run --workload bfs --size tiny --protocol spandex-d "${cfg[@]}" --quiet
# defined cells that no run here reaches: table.State.Event
unreached="
LLC.IV.ReqVOwned LLC.IV.ReqVOwnedOne LLC.IV.ReqSOwned LLC.IV.ReqWTOwned LLC.IV.ReqWTfwd
LLC.SI.ReqVOwned LLC.SI.ReqVOwnedOne LLC.SI.ReqSOwned LLC.SI.ReqWTOwned LLC.SI.ReqWTfwd
LLC.G.ReqWTdata
LLC.I.Relay LLC.IV.Relay LLC.V.Relay LLC.S.Relay LLC.SI.Relay
DeNovo-L1.BV.AtomicHit DeNovo-L1.BV.FwdWT DeNovo-L1.BV.PredV
DeNovo-L1.BS.AtomicHit DeNovo-L1.BS.AtomicWT
DeNovo-L1.BS.FwdV DeNovo-L1.BS.FwdO DeNovo-L1.BS.FwdWT DeNovo-L1.BS.PredV
DeNovo-L1.BO.AtomicHit DeNovo-L1.BO.FwdWT DeNovo-L1.BO.PredV
DeNovo-L1.BW.AtomicHit DeNovo-L1.BW.PredV DeNovo-L1.BW.PredFillOwned
DeNovo-L1.W.AtomicHit
MESI-L1.IS.Atomic MESI-L1.S.FwdNack
"
dead="
LLC.IV.ReqVOwned LLC.IV.ReqVOwnedOne LLC.IV.ReqSOwned LLC.IV.ReqWTOwned LLC.IV.ReqWTfwd
LLC.SI.ReqVOwned LLC.SI.ReqVOwnedOne LLC.SI.ReqSOwned LLC.SI.ReqWTOwned LLC.SI.ReqWTfwd
"
check_cells '^coverage[.]spandex[.]' 17 "spandex.LLC, DeNovo-L1 and MESI-L1" "$unreached" "$dead"
