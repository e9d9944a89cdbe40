#!/usr/bin/env bash
# Long target: tests/long/workloads-sizes.sweep (every workload at quick under
# every protocol, the twelve Temporal Coherence benchmarks at small, the basic
# set at paper size), run as a parallel sweep so that
# it finishes in reasonable time; failed runs are listed with their output.
set -u
bin=$1
root=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" sweep "$root/tests/long/workloads-sizes.sweep" -j "$(nproc)" --out "$out"
rc=$?
for e in "$out"/runs/*.err; do
    [ -e "$e" ] || continue
    echo "== failed: $(basename "$e" .err)"
    cat "$e"
done
exit $rc
