#!/usr/bin/env bash
# Long target: tests/cli/spandex.sh's litmus parts at 1000 iterations (the default
# test runs 200, to stay within its time: README.md, "Test time"): the suite with
# every request type drawn at random and 30% of owner predictions wrong, and under
# DeNovo and GPU-coherence L1s.
set -u
bin=$1; root=$2
for part in random-litmus denovo-litmus gpu-litmus; do
    GPUCOH_SPANDEX_ITERATIONS=1000 bash "$root/tests/cli/spandex.sh" "$bin" "$root" $part || exit 1
done
