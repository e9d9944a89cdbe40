#!/usr/bin/env bash
# Long target: type-aware SC (order.model = sc-typeaware) at full length.
#  - every litmus test of the in-tree suite and the project's own, 2000
#    iterations, on mesi and gpuvi, with the paper's sizes and with one-line
#    sectors and a tiny classifier and type cache;
#  - the lock-stress workload at paper size (1 M lock-protected episodes,
#    values checked) with small structures that make sectors flip constantly;
#  - every workload at tiny passes its CPU check on mesi and gpuvi.
set -u
bin=$1; root=$2
suite=$root/litmus/ptx
own=("$root"/tests/litmus/MP-*.litmus "$root"/tests/litmus/IRIW-*.litmus)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
tiny=(--set order.sector_bytes=128 --set order.mac_entries=2 --set order.mac_ways=1
      --set order.type_cache_entries=1 --set order.type_cache_ways=1 --set order.sync_entries=2
      --set order.uq_entries=1 --set order.tq_entries=1)
small=(--set order.sector_bytes=4096 --set order.mac_entries=4 --set order.mac_ways=4
       --set order.type_cache_entries=4 --set order.type_cache_ways=2 --set order.sync_entries=8
       --set order.uq_entries=2 --set order.tq_entries=2)
for sizes in paper tiny; do
    extra=()
    [ $sizes = tiny ] && extra=("${tiny[@]}")
    "$bin" litmus --protocol mesi --protocol gpuvi --set order.model=sc-typeaware "${extra[@]}" \
        --iterations 2000 "$suite" "${own[@]}" \
        "$root"/tests/litmus/tso/*.litmus >"$tmp/l.out" 2>&1 ||
        fail "sc-typeaware litmus ($sizes sizes): $(grep -E 'FAIL|^==' "$tmp/l.out" | head -20)"
    echo "$sizes sizes:"
    grep '^==' "$tmp/l.out"
done
"$bin" run --workload lock-stress --size paper --protocol gpuvi --set order.model=sc-typeaware \
    "${small[@]}" --check --quiet >"$tmp/s.out" 2>&1 ||
    fail "lock-stress (1 M episodes) under sc-typeaware: $(tail -5 "$tmp/s.out")"
for p in mesi gpuvi; do
    for w in $("$bin" list workloads | awk '{print $1}'); do
        "$bin" run --workload $w --size tiny --protocol $p --set order.model=sc-typeaware --check \
            --quiet >"$tmp/w.out" 2>&1 || fail "$w under sc-typeaware on $p: $(tail -5 "$tmp/w.out")"
    done
done
echo "order-typeaware (long): 1 passed, 0 failed"
