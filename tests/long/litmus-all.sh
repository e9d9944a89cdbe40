#!/usr/bin/env bash
# Long target: every litmus test of the shared suite (unsupported ones are
# reported as skipped) and the project's own, 2000 iterations each.
set -u
bin=$1; root=$2
shared=${GPUCOH_SHARED:-$root/../shared}
"$bin" litmus --protocol all --iterations 2000 "$shared/litmus/ptx" "$root"/tests/litmus/MP-*.litmus \
    "$root"/tests/litmus/IRIW-*.litmus
