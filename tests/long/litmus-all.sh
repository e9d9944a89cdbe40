#!/usr/bin/env bash
# Long target: every litmus test of the in-tree suite (litmus/) (unsupported ones are
# reported as skipped) and the project's own, 2000 iterations each.
set -u
bin=$1; root=$2
"$bin" litmus --protocol all --iterations 2000 "$root/litmus/ptx" "$root"/tests/litmus/MP-*.litmus \
    "$root"/tests/litmus/IRIW-*.litmus
