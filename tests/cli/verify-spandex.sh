#!/usr/bin/env bash
# gpucoh verify on Spandex: its LLC (word state, owner ids) with the device L1s
# it serves. spandex-d (DeNovo L1s), spandex-g (GPU-coherence L1s) and the
# heterogeneous mixes of --devices (a MESI CPU-device L1 beside a DeNovo or a
# GPU-coherence one; the MESI L1's loads judged write-atomic) verify on 2 L1s x
# 1 line x 2 values; the seeded spandex-d-noinv (DeNovo acquires that keep
# stale valid words) is caught with a short counterexample that --replay
# reproduces, also with the device mix recorded in the file; the correct
# spandex-d replays the same events without a violation; a bad device list,
# and the random request types the explorer cannot enumerate, are input errors.
# With fcs.l1_to_l1 (owners answer requesters from L1 to L1, a line's one
# owner its readers too) spandex-d and a GPU-coherence L1 beside a DeNovo or a
# MESI one verify, and a
# counterexample file delivers between two L1s.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field

# verified NAME ARGS...: the result line says verified, with more than MIN states
verified() {
    local name=$1 min=$2
    shift 2
    out=$("$bin" verify --protocol "$name" "$@" 2>&1)
    [ $? -eq 0 ] || { echo "$out"; fail "verify $name $*"; }
    line=$(echo "$out" | grep "^verify $name ") || fail "no result line for $name $*"
    echo "$line" | grep -q " verified: 2 L1s x 1 lines x 2 values, 2 ops per L1 (1 in flight)" || fail "$name $*: $line"
    states=$(echo "$line" | sed -E 's/.* ([0-9]+) states.*/\1/')
    [ "$states" -gt "$min" ] || fail "$name $*: only $states states explored"
}
verified spandex-d 20000
verified spandex-g 5000
n=$((n + 1))
verified spandex-d 20000 --devices denovo,mesi
echo "$line" | grep -q ", devices denovo,mesi: " || fail "the device mix is not in the result line: $line"
verified spandex-g 10000 --devices gpu,mesi
verified spandex-g 10000 --devices gpu,denovo
n=$((n + 1))

# fcs.l1_to_l1: owners answer requesters from L1 to L1, a channel per pair of
# L1s; with stores sent to the predicted owner (ReqWTo) and atomics taking
# ownership, an owner performs a predicted write sent to it from L1 to L1
# (DeNovo-L1.O.FwdWT), an old owner's words can reach the new owner before its
# grant (DeNovo-L1.BO.Relay, never reached through the LLC), and the LLC relays
# and passes nothing
verified spandex-d 15000 --set fcs.l1_to_l1=true --set fcs.store=wto --set fcs.load=vo --coverage "$tmp/peer.cov"
grep -qE "^coverage.spandex.DeNovo-L1.BO.Relay [1-9]" "$tmp/peer.cov" || fail "l1_to_l1: no relay before its grant"
grep -qE "^coverage.spandex.DeNovo-L1.O.FwdWT [1-9]" "$tmp/peer.cov" || fail "l1_to_l1: no predicted write performed"
for cell in O.Relay O.Predicted O.OwnerAnswer; do
    grep -qE "^coverage.spandex.LLC.$cell 0" "$tmp/peer.cov" || fail "l1_to_l1: the LLC's $cell reached"
done
# and a read of a line the other L1 owns is answered by that owner
grep -qE "^coverage.spandex.LLC.O.ReqVOwnedOne [1-9]" "$tmp/peer.cov" || fail "l1_to_l1: no read answered by its owner"
grep -qE "^coverage.spandex.DeNovo-L1.O.FwdV [1-9]" "$tmp/peer.cov" || fail "l1_to_l1: no owner answered a read"
verified spandex-g 5000 --set fcs.l1_to_l1=true --devices gpu,denovo
# a GPU-coherence L1's read of a line a MESI CPU owns is answered by the CPU,
# also while its write-back is in flight (MI: the values as of the LLC's
# forward, which a write the LLC took after the write-back may have replaced)
verified spandex-g 10000 --set fcs.l1_to_l1=true --devices gpu,mesi --coverage "$tmp/mesi.cov"
grep -qE "^coverage.spandex.MESI-L1.MI.FwdV [1-9]" "$tmp/mesi.cov" || fail "l1_to_l1: no read answered during a write-back"
grep -qE "^coverage.spandex.LLC.O.ReqVOwnedOne [1-9]" "$tmp/mesi.cov" || fail "l1_to_l1: no GPU read answered by the CPU"
out=$("$bin" verify --protocol spandex-d --set fcs.l1_to_l1=true --symmetry on 2>&1)
echo "$out" | grep -q "symmetry not used (2 L1s): the L1s message each other" || { echo "$out"; fail "l1_to_l1 under --symmetry on"; }
cat > "$tmp/peer.cex" <<'CEX'
protocol spandex-d
l1s 2
lines 1
values 2
ops 2
atomics 1
inflight 1
sync 0
set fcs.l1_to_l1=true
op 0 store 0 1
deliver l1[0] l2 0
deliver dram l2 0
deliver l2 l1[0] 1
op 1 store 0 2
deliver l1[1] l2 0
deliver l2 l1[0] 2
deliver l1[0] l1[1] 1
deliver l2 l1[1] 1
CEX
out=$("$bin" verify --replay "$tmp/peer.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "replay of a relay from L1 to L1"; }
echo "$out" | grep -qE "l1\[1\] +Relay +BO>BO" || { echo "$out"; fail "replay: the relay did not reach l1[1] first"; }
echo "$out" | grep -qE "l1\[1\] +GrantDone +BO>O" || { echo "$out"; fail "replay: the grant did not complete the store"; }
sed 's/^set fcs.l1_to_l1=true$//' "$tmp/peer.cex" > "$tmp/nopeer.cex"
out=$("$bin" verify --replay "$tmp/nopeer.cex" 2>&1)
[ $? -eq 2 ] && echo "$out" | grep -q "no such channel" || { echo "$out"; fail "an L1-to-L1 channel without fcs.l1_to_l1"; }
n=$((n + 1))

caught spandex-d-noinv "$tmp/noinv.cex" "data value" \
    "data value: l1\[[01]\]'s load of line 0 returned 0; the protocol's model allows only \{1\}" --ops 3
[ "$(grep -cE '^(op|deliver) ' "$tmp/noinv.cex")" -eq "$steps" ] || fail "spandex-d-noinv: file has not $steps steps"
grep -q "^op [01] fence" "$tmp/noinv.cex" || fail "spandex-d-noinv: no acquire in the counterexample"
echo "$out" | grep -qE "l1\[[01]\] +LoadHit +V>V" || { echo "$out"; fail "replay: no trace of the stale hit"; }
sed 's/^protocol spandex-d-noinv/protocol spandex-d/' "$tmp/noinv.cex" > "$tmp/d.cex"
out=$("$bin" verify --replay "$tmp/d.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "spandex-d replays the spandex-d-noinv events with a violation"; }
echo "$out" | grep -qE "l1\[[01]\] +SelfInv" || { echo "$out"; fail "spandex-d replay: no self-invalidation at the acquire"; }
n=$((n + 1))

# the device mix travels in the counterexample file
out=$("$bin" verify --protocol spandex-d-noinv --devices denovo,mesi --ops 3 --cex "$tmp/mix.cex" 2>&1)
[ $? -eq 1 ] || { echo "$out"; fail "spandex-d-noinv with a MESI L1: expected exit 1"; }
grep -q "^devices denovo,mesi$" "$tmp/mix.cex" || fail "no devices line in the counterexample"
out=$("$bin" verify --replay "$tmp/mix.cex" 2>&1)
[ $? -eq 1 ] || { echo "$out"; fail "mixed replay: expected exit 1"; }
echo "$out" | grep -q "^replay spandex-d-noinv: VIOLATION after" || { echo "$out"; fail "mixed replay did not reproduce"; }
n=$((n + 1))

for bad in "spandex-d mesi,denovo:spandex-d's own L1s (denovo) come first" \
           "spandex-d mesi,mesi:needs its own L1 (denovo) first" \
           "spandex-d denovo,gpu:unknown device 'gpu' for spandex-d" \
           "spandex-g denovo,gpu:spandex-g's own L1s (gpu) come first" \
           "spandex-g gpu,mesi,denovo:of one kind" \
           "spandex-d denovo,cpu:unknown device 'cpu'" \
           "rc gpu,gpu:has one kind of L1"; do
    p=${bad%% *}; rest=${bad#* }; devs=${rest%%:*}; msg=${rest#*:}
    out=$("$bin" verify --protocol "$p" --devices "$devs" 2>&1)
    [ $? -eq 2 ] || { echo "$out"; fail "--protocol $p --devices $devs: expected exit 2"; }
    echo "$out" | grep -q "$msg" || { echo "$out"; fail "--devices $devs: no '$msg'"; }
done
out=$("$bin" verify --protocol spandex-d --set fcs.random=true 2>&1)
[ $? -eq 2 ] || { echo "$out"; fail "fcs.random: expected exit 2"; }
echo "$out" | grep -q "the explorer cannot enumerate them" || { echo "$out"; fail "fcs.random: no reason"; }
n=$((n + 1))

echo "verify-spandex: $n passed, 0 failed"
