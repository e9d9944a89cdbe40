#!/usr/bin/env bash
# gpucoh verify on GETM and WarpTM (docs/verify.md, "Transactions"): cores run small
# transactions (transactional loads and stores, commits; aborts clean up and
# retry) against the real L2 bank and validation unit, and every commit is
# judged serializable in timestamp order. getm verifies on 2 L1s x 1 line x
# 2 values; the seeded getm-nowts (its VU never compares a load's warpts with
# the granule's wts) is caught with a short counterexample that --replay
# reproduces, and the correct getm replays the same events up to the broken
# commit with the load aborted instead (TxLdLate), where the commit is refused.
# The seeded warptm-noval (its validation never compares values) likewise.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field

out=$("$bin" verify --protocol getm 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "verify getm"; }
line=$(echo "$out" | grep "^verify getm ") || fail "no result line for getm"
echo "$line" | grep -q " verified: 2 L1s x 1 lines x 2 values, 2 ops per L1" || fail "getm: $line"
states=$(echo "$line" | sed -E 's/.* ([0-9]+) states.*/\1/')
[ "$states" -gt 100000 ] || fail "getm: only $states states explored"
n=$((n + 1))

# a load that reads a write logically later than itself commits
caught getm-nowts "$tmp/nowts.cex" serializability \
    "serializability: core [01]'s transaction at warpts [0-9]+ committed having read 1 from line 0"
echo "$out" | grep -qE "l2 +TxLdWait +Locked>Locked" || { echo "$out"; fail "getm-nowts replay: the load did not wait for the owner"; }
n=$((n + 1))

# the correct getm: the load is refused (a later write reserved its granule),
# so the same events up to the broken commit end without a violation, and the
# commit itself is no longer possible (the attempt ended with the abort)
sed 's/^protocol getm-nowts/protocol getm/' "$tmp/nowts.cex" > "$tmp/getm.cex"
head -n -1 "$tmp/getm.cex" > "$tmp/before.cex"
out=$("$bin" verify --replay "$tmp/before.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "getm replays the getm-nowts events with a violation"; }
echo "$out" | grep -qE "l2 +TxLdLate +Locked>Locked" || { echo "$out"; fail "getm: the late load was not refused"; }
out=$("$bin" verify --replay "$tmp/getm.cex" 2>&1)
[ $? -eq 2 ] || { echo "$out"; fail "getm: the commit of an aborted attempt: expected exit 2"; }
echo "$out" | grep -q "getm.cex:$(wc -l < "$tmp/getm.cex"): the core cannot take this transactional operation now" || { echo "$out"; fail "getm commit: no file:line"; }
n=$((n + 1))

# WarpTM's seeded warptm-noval (its validation never compares the values read
# with the bank's): a transaction whose read another commit overwrote is
# validated and commits; the correct warptm replays the same events with that
# validation failing on the value (ValMismatch) and no violation
caught warptm-noval "$tmp/noval.cex" serializability \
    "serializability: core [01]'s transaction was validated and committed having read 0 from line 0, whose committed value is 1"
echo "$out" | grep -qE "l2 +ValRead +Free>Shared" || { echo "$out"; fail "warptm-noval replay: the stale read was not validated"; }
sed 's/^protocol warptm-noval/protocol warptm/' "$tmp/noval.cex" > "$tmp/warptm.cex"
out=$("$bin" verify --replay "$tmp/warptm.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "warptm replays the warptm-noval events with a violation"; }
echo "$out" | grep -qE "l2 +ValMismatch +Free>Free" || { echo "$out"; fail "warptm: the stale read passed validation"; }
n=$((n + 1))

# two lines: an aborted store's cleanup releases the other line's reservation
out=$("$bin" verify --protocol getm --lines 2 --ops 1 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "verify getm --lines 2"; }
n=$((n + 1))

# WarpTM: stores stay in the core until the commit validates the values read;
# on two lines a read-only attempt may commit silently (the TCD), judged as a
# snapshot of the commit order
out=$("$bin" verify --protocol warptm --lines 2 --ops 1 --values 1 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "verify warptm --lines 2"; }
echo "$out" | grep -q "^verify warptm .* verified: 2 L1s x 2 lines x 1 values, 1 ops per L1" || { echo "$out"; fail "warptm: no result line"; }
n=$((n + 1))

# --plain: plain operations outside the transactions. A plain store of 3 (the
# values above --values are the plain writes') and another core's
# transactional load of the line that reads it: the commit is serializable
# (weak isolation, item 21: a plain value may be read); without --plain the
# value is out of range; --plain needs transactions and at most 3 values
printf 'protocol getm\nl1s 2\nlines 1\nvalues 2\nops 2\natomics 1\ninflight 1\nsync 0\nplain 1\nop 0 store 0 3\ndeliver l1[0] l2 0\ndeliver dram l2 0\ndeliver l2 l1[0] 1\nop 1 txload 0 0\ndeliver l1[1] l2 0\ndeliver l2 l1[1] 1\nop 1 commit 0 0\n' > "$tmp/mix.cex"
out=$("$bin" verify --replay "$tmp/mix.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "plain store then txload: expected no violation"; }
echo "$out" | grep -qE "l1\[0\] +Store +I>II" || { echo "$out"; fail "plain store: not issued"; }
echo "$out" | grep -qE "l2 +TxLd +Free>Free" || { echo "$out"; fail "txload after the plain store: not at the VU"; }
grep -v '^plain' "$tmp/mix.cex" > "$tmp/noplain.cex"
out=$("$bin" verify --replay "$tmp/noplain.cex" 2>&1)
[ $? -eq 2 ] || { echo "$out"; fail "a store of 3 without --plain: expected exit 2"; }
for p in getm warptm; do
    out=$("$bin" verify --protocol $p --plain --ops 1 --values 1 2>&1)
    [ $? -eq 0 ] || { echo "$out"; fail "verify $p --plain"; }
    echo "$out" | grep -q "^verify $p .* verified: .*, plain accesses: " || { echo "$out"; fail "$p --plain: no result line"; }
done
"$bin" verify --protocol rc --plain >/dev/null 2>&1
[ $? -eq 2 ] || fail "rc --plain: expected exit 2"
"$bin" verify --protocol getm --plain --values 4 >/dev/null 2>&1
[ $? -eq 2 ] || fail "getm --plain --values 4: expected exit 2"
n=$((n + 1))

# what the cores do not model is refused
for s in getm.commit_waits=false warptm.eager=true warptm.eapg=true; do
    p=getm; [ "${s%%.*}" = warptm ] && p=warptm
    out=$("$bin" verify --protocol $p --set $s 2>&1)
    [ $? -eq 2 ] || { echo "$out"; fail "$p --set $s: expected exit 2"; }
    echo "$out" | grep -q "are not explored" || { echo "$out"; fail "$p --set $s: no reason"; }
done
n=$((n + 1))

# a transactional operation under a protocol without transactions
printf 'protocol rc\nl1s 2\nlines 1\nvalues 2\nops 2\natomics 1\ninflight 1\nsync 0\nop 0 txload 0 0\n' > "$tmp/rc.cex"
out=$("$bin" verify --replay "$tmp/rc.cex" 2>&1)
[ $? -eq 2 ] || { echo "$out"; fail "txload under rc: expected exit 2"; }
echo "$out" | grep -q "rc.cex:9: a transactional operation under a protocol without them" || { echo "$out"; fail "txload under rc: no reason"; }
n=$((n + 1))

echo "verify-getm: $n passed, 0 failed"
