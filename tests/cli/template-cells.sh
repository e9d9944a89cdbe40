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
run stress --protocol template --episodes 20000 --small-caches
run litmus --protocol template --iterations 20 "$src/litmus/ptx/Manual"
cat "$tmp"/cov.* | awk '$1 ~ /^coverage\.template\./ { c[$1] += $2 }
    END { for (k in c) print substr(k, 10), c[k] }' | sort >"$tmp/cells"
[ "$(wc -l <"$tmp/cells")" -gt 0 ] || fail "no template cell in the coverage"
never=$(awk '$2 == 0 { print $1 " never fired" }' "$tmp/cells")
[ -z "$never" ] || {
    echo "$never"
    fail "$(echo "$never" | wc -l) cells never fired"
}
echo "ok: all $(wc -l <"$tmp/cells") cells of template.L1 and template.L2 fired in $n runs"
