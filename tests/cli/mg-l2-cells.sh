#!/usr/bin/env bash
# mg-l2-cells.sh - the multi-GPM bank and directory as tables (nhcc.L2,
# src/coh/mg/mg_l2.c; nhcc/hmg.Dir, mg_dir.c): the multi-GPU litmus tests
# under every multi-GPM protocol (and hmg and sw-h with mg.gpu_atomics =
# gpu-home, whose .gpu atomics at a GPU home fetch the line: I + GAtomic, IA +
# Fill, IA + FillOnce) and gpucoh stress on a small machine with a 16-entry
# directory (V + Replace) fire every cell listed below, checked in their
# --coverage. The bank's cells not listed are defined for races these runs do
# not produce (none is known to be unreachable): a request to a line while the
# GPU home's fetch for a .gpu atomic is out (the five IA stalls); a .gpu
# atomic at a GPU home, or an atomic or a far read from an L1, while the
# bank's read of the remote line is out (IR, IRX + GAtomic, Atomic,
# LoadFar); an invalidation of a line the bank holds no copy of or whose
# read already raced (I + Inv, IRX + Inv). nhcc.Rounds and nhcc.Slots have
# directed tests of their own (tests/unit/644, 645). A cell that should not
# exist is a hole (a panic, exit 3), which a run here would meet as a failure.
# usage: mg-l2-cells.sh GPUCOH REPO
set -u
bin=$1
src=${2:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0
run() { # a gpucoh command line; its coverage goes to $tmp/cov.N
    n=$((n + 1))
    "$bin" "$@" --coverage "$tmp/cov.$n" >"$tmp/out.$n" 2>&1
    rc=$?
    [ $rc -eq 0 ] || {
        tail -n 20 "$tmp/out.$n"
        fail "$*: exit $rc"
    }
}
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
cat "$tmp"/cov.* | awk '$1 ~ /^coverage\.nhcc(\/hmg)?\.(L2|Dir)\./ { c[$1] += $2 }
    END { for (k in c) if (c[k] > 0) print substr(k, 10) }' | sort >"$tmp/fired"
cells="
nhcc.L2.I.HLoad nhcc.L2.I.HWrite nhcc.L2.I.HAtomic nhcc.L2.I.Load nhcc.L2.I.LoadFar
nhcc.L2.I.Write nhcc.L2.I.Atomic nhcc.L2.I.GAtomic
nhcc.L2.V.HLoad nhcc.L2.V.HWrite nhcc.L2.V.HAtomic nhcc.L2.V.Load nhcc.L2.V.LoadFar
nhcc.L2.V.Write nhcc.L2.V.Atomic nhcc.L2.V.GAtomic nhcc.L2.V.Inv nhcc.L2.V.Replace
nhcc.L2.M.HLoad nhcc.L2.M.HWrite nhcc.L2.M.HAtomic nhcc.L2.M.Replace
nhcc.L2.IV.HLoad nhcc.L2.IV.HWrite nhcc.L2.IV.HAtomic nhcc.L2.IV.MemData
nhcc.L2.IA.Fill nhcc.L2.IA.FillOnce
nhcc.L2.IR.Load nhcc.L2.IR.Write nhcc.L2.IR.Inv nhcc.L2.IR.Fill nhcc.L2.IR.FillNoWay
nhcc.L2.IRX.Load nhcc.L2.IRX.Write nhcc.L2.IRX.Fill
nhcc/hmg.Dir.I.RemoteLd nhcc/hmg.Dir.I.RemoteSt nhcc/hmg.Dir.I.LocalSt nhcc/hmg.Dir.I.Inv
nhcc/hmg.Dir.V.RemoteLd nhcc/hmg.Dir.V.RemoteSt nhcc/hmg.Dir.V.LocalSt nhcc/hmg.Dir.V.Inv
nhcc/hmg.Dir.V.Replace
"
never=0
for c in $cells; do
    grep -qx "$c" "$tmp/fired" || {
        echo "$c never fired"
        never=$((never + 1))
    }
done
[ $never -eq 0 ] || fail "$never cells never fired"
echo "ok: $(echo $cells | wc -w) cells of nhcc.L2 and nhcc/hmg.Dir fired in $n runs"
