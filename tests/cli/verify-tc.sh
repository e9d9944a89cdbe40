#!/usr/bin/env bash
# gpucoh verify on Temporal Coherence (tcs, tcw): time is an explorer event (a
# tick to the next expiry), leases are whole ticks. Both verify on 2 L1s x 1 line
# x 2 values; the seeded bugs tcs-nowait (a write performed while leases run) and
# tcw-nogwct (a fence that ignores the GWCT) are caught with short counterexamples
# that --replay reproduces with a trace, ticks included; the correct protocols
# replay the same events without a violation. A separate test from verify.sh to
# keep each under its CPU budget.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field

out=$("$bin" verify --protocol tcs,tcw 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "verify tcs,tcw"; }
for p in tcs tcw; do
    line=$(echo "$out" | grep "^verify $p ") || fail "no result line for $p"
    echo "$line" | grep -q " verified: 2 L1s x 1 lines x 2 values, .*, leases .*2 ticks:" || fail "$p: $line"
    states=$(echo "$line" | sed -E 's/.* ([0-9]+) states.*/\1/')
    [ "$states" -gt 10000 ] || fail "$p: only $states states explored"
    n=$((n + 1))
done

# TC-Strong performing a write while another L1's lease runs: caught by the
# lease check when the write is performed, before any load reads the stale copy
caught tcs-nowait "$tmp/nowait.cex" "lease:" \
    "lease: a write to line 0 was performed at the L2 while l1\[[01]\] holds a valid copy"
echo "$out" | grep -qE "l2 +GetX +E>E" || { echo "$out"; fail "tcs-nowait replay: no trace of the write"; }
sed 's/^protocol tcs-nowait/protocol tcs/' "$tmp/nowait.cex" > "$tmp/tcs.cex"
out=$("$bin" verify --replay "$tmp/tcs.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "tcs replays the tcs-nowait events with a violation"; }
echo "$out" | grep -qE "l2 +GetX" && { echo "$out"; fail "tcs: the write did not wait for the lease"; }
# the bank performs it once ticks have let the lease (2 ticks) expire: in the
# third (a copy is valid through the cycle its lease ends)
for t in 1 2 3; do
    echo tick >> "$tmp/tcs.cex"
    out=$("$bin" verify --replay "$tmp/tcs.cex" 2>&1)
    [ $? -eq 0 ] || { echo "$out"; fail "tcs: tick $t ends in a violation or is refused"; }
    performed=$(echo "$out" | sed -n "/^step $((steps + 1)): tick/,\$p" | grep -cE "l2 +GetX +E>E")
    [ "$t" -lt 3 ] && [ "$performed" -ne 0 ] && { echo "$out"; fail "tcs: the write was performed after $t ticks, its lease running"; }
done
[ "$performed" -eq 1 ] || { echo "$out"; fail "tcs: the write was not performed after 3 ticks"; }
n=$((n + 1))

# TC-Weak whose fence does not wait for the GWCT: after the writer's fence
# another L1 still hits its stale copy
caught tcw-nogwct "$tmp/nogwct.cex" "data value" \
    "data value: l1\[[01]\]'s load of line 0 returned 0; the protocol's model allows only \{1\}"
# the correct tcw holds the fence until the GWCT has passed: the same events
# end without a violation (the fence has not completed, so the stale hit is
# allowed); the fencing core has its fence in flight until a tick
sed 's/^protocol tcw-nogwct/protocol tcw/' "$tmp/nogwct.cex" > "$tmp/tcw.cex"
out=$("$bin" verify --replay "$tmp/tcw.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "tcw replays the tcw-nogwct events with a violation"; }
fencer=$(sed -nE 's/^op ([0-9]) fence.*/\1/p' "$tmp/tcw.cex")
[ -n "$fencer" ] || fail "tcw-nogwct: no fence in the counterexample"
{ cat "$tmp/tcw.cex"; echo "op $fencer load 0 0"; } > "$tmp/tcw-wait.cex"
out=$("$bin" verify --replay "$tmp/tcw-wait.cex" 2>&1)
[ $? -eq 2 ] || { echo "$out"; fail "tcw: the fence should still be waiting"; }
echo "$out" | grep -q "the core has --inflight operations in flight" || { echo "$out"; fail "tcw: the fence did not wait"; }
# the GWCT is the line's timestamp when the store was performed (a lease of up
# to 2 ticks): the fence is released in the third tick
{ cat "$tmp/tcw.cex"; printf 'tick\ntick\ntick\n'; echo "op $fencer load 0 0"; } > "$tmp/tcw-tick.cex"
out=$("$bin" verify --replay "$tmp/tcw-tick.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "tcw: three ticks did not release the fence"; }
echo "$out" | grep -q "^step $((steps + 3)): tick" || { echo "$out"; fail "tcw: no tick step"; }
n=$((n + 1))

out=$("$bin" verify --protocol tcs --lease 9 2>&1)
[ $? -eq 2 ] || fail "--lease 9: expected exit 2"
printf 'protocol rc\nl1s 2\nlines 1\nvalues 2\nops 2\ntick\n' > "$tmp/bad.cex"
out=$("$bin" verify --replay "$tmp/bad.cex" 2>&1)
[ $? -eq 2 ] || fail "tick under rc: expected exit 2"
echo "$out" | grep -q "bad.cex:6: tick: this protocol has no time" || { echo "$out"; fail "tick under rc: no file:line"; }
n=$((n + 1))

echo "verify-tc: $n passed, 0 failed"
