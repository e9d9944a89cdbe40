#!/usr/bin/env bash
# mg-l2-cells.sh - the multi-GPM bank and directory as tables (nhcc.L2,
# src/coh/mg/mg_l2.c; nhcc/hmg.Dir, mg_dir.c): the multi-GPU litmus tests
# under every multi-GPM protocol (and hmg and sw-h with mg.gpu_atomics =
# gpu-home, whose .gpu atomics at a GPU home fetch the line: I + GAtomic, IA +
# Fill, IA + FillOnce) and gpucoh stress on a small machine with a 16-entry
# directory (V + Replace) fire every defined cell of both tables, checked in
# their --coverage (every defined cell is printed there, so a cell added to a
# table is asserted too), but those listed below: races these runs do not
# produce (none is known to be unreachable): a request to a line while the
# GPU home's fetch for a .gpu atomic is out (the five IA stalls); a .gpu
# atomic at a GPU home, or an atomic or a far read from an L1, while the
# bank's read of the remote line is out (IR, IRX + GAtomic, Atomic,
# LoadFar); an invalidation of a line the bank holds no copy of or whose
# read already raced (I + Inv, IRX + Inv). nhcc.Rounds and nhcc.Slots have
# directed tests of their own (tests/unit/644, 645). A listed cell that a
# change of timing makes fire is noted, not failed. A cell that should not
# exist is a hole (a panic, exit 3), which a run here would meet as a failure.
# usage: mg-l2-cells.sh GPUCOH REPO
set -u
bin=$1
src=${2:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
. "$src/tests/cells-check.sh"
lit=(--set topology.gpus=3 --set topology.gpms=2 --set gpu.sms=2 --set l2.banks=2
     --set topology.page_bytes=4K --iterations 100 "$src/litmus/multi-gpu")
small=(--set topology.gpus=2 --set topology.gpms=2 --set gpu.sms=2 --set l2.banks=2
       --set topology.page_bytes=4K --set mg.dir_entries=16 --set mg.dir_ways=2
       --small-caches --episodes 20000)
for p in nhcc hmg ideal-mg sw-nh sw-h nocache-mg; do
    run litmus --protocol $p "${lit[@]}"
    run stress --protocol $p "${small[@]}"
done
for p in hmg sw-h; do
    run litmus --protocol $p --set mg.gpu_atomics=gpu-home "${lit[@]}"
done
# defined cells of nhcc.L2 that no run here reaches
unreached="
nhcc.L2.IA.Load nhcc.L2.IA.LoadFar nhcc.L2.IA.Write nhcc.L2.IA.Atomic nhcc.L2.IA.GAtomic
nhcc.L2.IR.Atomic nhcc.L2.IR.LoadFar nhcc.L2.IR.GAtomic
nhcc.L2.IRX.Atomic nhcc.L2.IRX.LoadFar nhcc.L2.IRX.GAtomic
nhcc.L2.I.Inv nhcc.L2.IRX.Inv
"
check_cells '^coverage[.]nhcc(/hmg)?[.](L2|Dir)[.]' 9 "nhcc.L2 and nhcc/hmg.Dir" "$unreached"
