#!/usr/bin/env bash
# Long target: 1 M DRF stress episodes per protocol with small caches, and
# per STC variant again with 4 epochs and a 4-entry blocked store queue
# (tests/cli/stress-stc.sh runs 20 K of those).
set -u
bin=$1
"$bin" stress --protocol all --episodes 1000000 --small-caches --check || exit $?
for p in stc-nv stc-es stc-ab stc-mb; do
    "$bin" stress --protocol $p --episodes 1000000 --small-caches --check --set stc.epochs=4 \
        --set stc.bsq_entries=4 --set stc.seb=7 --set stc.seb_min=7 || exit $?
done
