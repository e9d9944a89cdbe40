#!/usr/bin/env bash
# template-cells.sh - the example protocol's tables (template.L1 and
# template.L2, src/coh/template/): gpucoh stress with small caches
# (evictions, merges, MSHR pressure) and the hand-written PTX litmus tests
# (litmus/ptx/Manual: .gpu loads that bypass the L1, atomics behind a miss)
# fire every defined cell of both, checked in their --coverage (every
# defined cell is printed there, so a cell added to a table is asserted too).
# A cell that should not exist is a hole (a panic, exit 3), which a run here
# would meet as a failure.
# usage: template-cells.sh GPUCOH REPO
set -u
bin=$1
src=${2:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
. "$src/tests/cells-check.sh"
run stress --protocol template --episodes 20000 --small-caches
run litmus --protocol template --iterations 20 "$src/litmus/ptx/Manual"
check_cells '^coverage[.]template[.]' 9 "template.L1 and template.L2"
