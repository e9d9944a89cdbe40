#!/usr/bin/env bash
# Long target for Spandex: the litmus suite at 1000 iterations on
# configs/spandex.ini (mesh, 16 banks) under both device L1s, and 1 M DRF
# stress episodes there with small caches and the observers on
# (tests/cli/spandex.sh runs 20 K; stress-1m.sh runs 1 M on tc-fermi); the
# same with every access drawing its request type from the full set and 30%
# of owner predictions wrong on purpose (forwarded updates performed exactly
# once, no Nack loop).
set -u
bin=$1; root=$2
tests=("$root/litmus/ptx")
for t in "$root"/tests/litmus/*.litmus; do
    case $(basename "$t") in bad-*) ;; *) tests+=("$t") ;; esac
done
for p in spandex-d spandex-g; do
    "$bin" litmus --config "$root/configs/spandex.ini" --protocol $p --iterations 1000 \
        "${tests[@]}" || exit $?
    "$bin" stress --config "$root/configs/spandex.ini" --protocol $p --episodes 1000000 \
        --small-caches --check || exit $?
done
fcs=(--set fcs.random=true --set fcs.mispredict=30)
"$bin" litmus --config "$root/configs/spandex.ini" --protocol spandex-d --iterations 1000 \
    "${fcs[@]}" "${tests[@]}" || exit $?
"$bin" stress --config "$root/configs/spandex.ini" --protocol spandex-d --episodes 1000000 \
    --small-caches --check "${fcs[@]}" || exit $?
