#!/usr/bin/env bash
# Long target: the memory models the SM enforces, at full iterations.
#  - sc: every litmus test of the in-tree suite and the project's own on every
#    write-atomic protocol (`all` skips the others), 2000 iterations each,
#    judged by the SC enumeration;
#  - tso: the TSO tests on every write-atomic protocol, with and without the
#    store buffer, 2000 iterations;
#  - every workload at size quick passes its CPU check under tso and sc on mesi
#    and gpuvi.
set -u
bin=$1; root=$2
suite=$root/litmus/ptx
own=("$root"/tests/litmus/MP-*.litmus "$root"/tests/litmus/IRIW-*.litmus)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$bin" litmus --protocol all --set order.model=sc --iterations 2000 "$suite" \
    "${own[@]}" "$root"/tests/litmus/tso/*.litmus >"$tmp/sc.out" 2>&1 ||
    fail "sc: $(grep -E 'FAIL|^==' "$tmp/sc.out" | head -20)"
grep '^==' "$tmp/sc.out"
for sb in 8 0; do
    "$bin" litmus --protocol all --set order.model=tso --set order.store_buffer=$sb --iterations 2000 \
        "$root"/tests/litmus/tso/*.litmus >"$tmp/tso.out" 2>&1 ||
        fail "tso (store buffer $sb): $(grep -E 'FAIL|^==' "$tmp/tso.out" | head -20)"
    grep '^==' "$tmp/tso.out"
done
for m in tso sc; do
    for p in mesi gpuvi; do
        for w in $("$bin" list workloads | awk '{print $1}'); do
            "$bin" run --workload $w --size quick --protocol $p --set order.model=$m --check --quiet \
                >"$tmp/w.out" 2>&1 || fail "$w (quick) under $m on $p: $(tail -5 "$tmp/w.out")"
        done
    done
done
echo "order-models (long): 1 passed, 0 failed"
