#!/usr/bin/env bash
# Type-aware SC (order.model = sc-typeaware, spec 001 §2.5): every core litmus
# test of the in-tree suite and the project's own gives only SC outcomes over
# 1000 iterations on mesi and gpuvi, with the paper's sizes and with one-line
# sectors and a tiny classifier and type cache (sectors evicted, recalled and
# turned unsafe all the time); the lock-stress workload (20480 lock-protected
# episodes, values checked) passes with small structures that make sectors
# flip constantly; the combination is refused on a non-write-atomic protocol.
# Each part is a test of its own (cli/order-typeaware-PART; tests/data/parts.sh):
# parts: mesi gpuvi workloads
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

# the litmus tests under type-aware SC on one protocol, at the paper's sizes and tiny ones
litmus_on() {
    local p=$1 sizes extra
    for sizes in paper tiny; do
        extra=()
        [ $sizes = tiny ] && extra=("${tiny[@]}")
        "$bin" litmus --protocol $p --set order.model=sc-typeaware "${extra[@]}" --core \
            --iterations 1000 "$suite" >"$tmp/l.out" 2>&1 ||
            fail "sc-typeaware ($sizes sizes) on $p: $(grep -E 'FAIL|^==' "$tmp/l.out" | head)"
        grep -q "^== $p (model sc): [1-9][0-9]* passed, 0 failed" "$tmp/l.out" || fail "summary"
        echo "$sizes sizes: $(grep '^==' "$tmp/l.out")"
        "$bin" litmus --protocol $p --set order.model=sc-typeaware "${extra[@]}" --iterations 1000 \
            "${own[@]}" "$root"/tests/litmus/tso/*.litmus >"$tmp/o.out" 2>&1 ||
            fail "sc-typeaware ($sizes sizes), own tests on $p: $(grep -E 'FAIL|^==' "$tmp/o.out")"
        grep -q "^== $p (model sc): 13 passed, 0 failed" "$tmp/o.out" || fail "own tests summary"
    done
}
part_mesi() { litmus_on mesi; }
part_gpuvi() { litmus_on gpuvi; }

# the refusal, lock-stress with sectors flipping, bh with a thrashing classifier
part_workloads() {
    "$bin" run --workload vecadd --size tiny --protocol rc --set order.model=sc-typeaware >"$tmp/o" 2>&1
    [ $? -eq 2 ] || fail "sc-typeaware on rc not refused"

    "$bin" run --workload lock-stress --size tiny --protocol mesi --set order.model=sc-typeaware \
        "${small[@]}" --check --stats "$tmp/s.json" >"$tmp/s.out" 2>&1 ||
        fail "lock-stress under sc-typeaware: $(tail -5 "$tmp/s.out")"
    # the sectors really moved: evictions with recalls, and transitions to unsafe
    tot() { grep -o "\"gpu\.mac\[[0-9]*\]\.$1\":[[:space:]]*[0-9]*" "$tmp/s.json" |
        awk -F: '{n += $NF} END {print n + 0}'; }
    ev=$(tot evictions); rc=$(tot recalls); srw=$(tot 'to_state\.S_RW')
    sms() { grep -o "\"gpu\.sm\[[0-9]*\]\.$1\":[[:space:]]*[0-9]*" "$2" |
        awk -F: '{n += $NF} END {print n + 0}'; }
    echo "lock-stress: $ev MAC evictions, $rc recalls, $srw transitions to S_RW"
    [ "$ev" -gt 1000 ] && [ "$rc" -gt 1000 ] && [ "$srw" -gt 50 ] || fail "lock-stress: sectors did not flip"
    # a classifier set smaller than the sectors one instruction touches (128-byte
    # sectors, one 2-way set per MAC): instructions whose lines keep being
    # recalled are sent line by line (once livelocked), and a safe access that
    # shares a line with an earlier queued unsafe instruction keeps its place
    # behind it (once sent ahead: bh lost a body whose slot was overwritten by
    # its own thread's earlier store)
    thrash=(--set order.sector_bytes=128 --set order.mac_entries=2 --set order.mac_ways=2
            --set order.type_cache_entries=1 --set order.type_cache_ways=1)
    for p in nol1 gpuvi; do
        "$bin" run --workload bh --size tiny --protocol $p --set order.model=sc-typeaware \
            "${thrash[@]}" --quiet --stats "$tmp/t.json" >"$tmp/t.out" 2>&1 ||
            fail "bh with a thrashing classifier on $p: $(tail -5 "$tmp/t.out")"
        serial=$(sms ta_serial_insts "$tmp/t.json"); same=$(sms ta_same_line "$tmp/t.json")
        echo "bh, thrashing classifier, $p: $serial instructions sent line by line, $same kept behind"
        [ "$serial" -gt 100 ] && [ "$same" -gt 0 ] || fail "bh on $p: the fallbacks did not run"
    done
}

source "$root/tests/data/parts.sh" "$0" "${3:-}"
echo "order-typeaware: ${3:-every part} passed"
