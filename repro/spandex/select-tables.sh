#!/usr/bin/env bash
# Writes tables/DESIGN/MODULE.fcs, the request type of every static
# instruction of each benchmark under each FCS design, with gpucoh spandex
# select at size quick on configs/spandex.ini (docs/protocols/spandex.md),
# with Algorithm 6 on (--cpu-shared: the DeNovo CPU L1s keep the words of a
# ReqS Shared).
# The same binary gives the same files; `repro spandex` runs the committed
# ones. Usage: repro/spandex/select-tables.sh [GPUCOH]   (from the project root)
set -euo pipefail
bin=${1:-build/gpucoh}
cd "$(dirname "$0")/../.."
# module:workload (tables are named by the PTX module, fcs.table's %m)
benchmarks="flexvs:flex-vs flexowt:flex-o-wt flexoawta:flex-oa-wta prodcons:prod-cons ep:ep
            fcnn:fcnn lstm:lstm lenet:lenet"
for design in fcs:fcs fcs-fwd:fcs+fwd fcs-pred:fcs+pred; do
    mkdir -p "repro/spandex/tables/${design%%:*}"
    for b in $benchmarks; do
        out="repro/spandex/tables/${design%%:*}/${b%%:*}.fcs"
        "$bin" spandex select --workload "${b##*:}" --size quick --config configs/spandex.ini \
            --hw "${design##*:}" --cpu-shared --out "$out.tmp"
        mv "$out.tmp" "$out"
    done
done
