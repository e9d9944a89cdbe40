#!/usr/bin/env bash
# gpucoh verify on Relativistic Cache Coherence (rccsc, rccwo): logical time,
# judged as such (a load returns the line's value at a logical time between its
# core's clock at issue and at the answer; one value per logical time in every
# state), with the livelock guard's tick as a bounded event. Both verify on
# 2 L1s x 1 line x 2 values (one guard tick per path here, to stay in the test's
# CPU budget; make verify runs the default three); the seeded rccsc-nolease (a
# write version that ignores the leases granted) is caught with a short
# counterexample that --replay reproduces; the correct rccsc replays the same
# events without a violation, and its copy expires after guard ticks.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field

out=$("$bin" verify --protocol rccsc,rccwo --ticks 1 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "verify rccsc,rccwo"; }
for p in rccsc rccwo; do
    line=$(echo "$out" | grep "^verify $p ") || fail "no result line for $p"
    echo "$line" | grep -q " verified: 2 L1s x 1 lines x 2 values, .*, logical leases 1..2, 1 guard ticks:" || fail "$p: $line"
    states=$(echo "$line" | sed -E 's/.* ([0-9]+) states.*/\1/')
    [ "$states" -gt 20000 ] || fail "$p: only $states states explored"
    n=$((n + 1))
done

# a write whose version ignores the lease just granted: the reader's copy holds
# the old value at logical times where the line already holds the new one
caught rccsc-nolease "$tmp/nolease.cex" "" \
    "(data value: l1\[[01]\]'s load of line 0 returned|one value per logical time)"
echo "$out" | grep -qE "l2 +Write +V>V" || { echo "$out"; fail "rccsc-nolease replay: no trace of the write"; }
n=$((n + 1))

# the correct rccsc: the same events end without a violation
sed 's/^protocol rccsc-nolease/protocol rccsc/' "$tmp/nolease.cex" > "$tmp/rccsc.cex"
out=$("$bin" verify --replay "$tmp/rccsc.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "rccsc replays the rccsc-nolease events with a violation"; }
reader=$(sed -nE 's/^op ([01]) load 0 0/\1/p' "$tmp/rccsc.cex" | head -1)
[ -n "$reader" ] || fail "rccsc-nolease: no load in the counterexample"
# ... the reader still hits its copy (its clock has not reached the write's version)
{ cat "$tmp/rccsc.cex"; echo "op $reader load 0 0"; } > "$tmp/hit.cex"
out=$("$bin" verify --replay "$tmp/hit.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "rccsc: the reader's second load"; }
echo "$out" | sed -n "/^step $((steps + 1)):/,\$p" | grep -qE "l1\[$reader\] +Load +V>V" || { echo "$out"; fail "rccsc: no hit on the copy"; }
# ... until three guard ticks carry its clock past the lease (2): the copy expires
# and the GETS brings the new value (not a renewal: the line was written since)
{ cat "$tmp/rccsc.cex"; printf 'tick\ntick\ntick\nop %s load 0 0\ndeliver l1[%s] l2 0\ndeliver l2 l1[%s] 1\n' "$reader" "$reader" "$reader"; } > "$tmp/expire.cex"
out=$("$bin" verify --replay "$tmp/expire.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "rccsc: the load after the ticks"; }
echo "$out" | grep -qE "l1\[$reader\] +Expire +V>E" || { echo "$out"; fail "rccsc: the copy did not expire after three ticks"; }
echo "$out" | grep -qE "l2 +GetS +V>V" || { echo "$out"; fail "rccsc: no GETS after the expiry"; }
{ cat "$tmp/rccsc.cex"; printf 'tick\ntick\ntick\ntick\n'; } > "$tmp/toomany.cex"
out=$("$bin" verify --replay "$tmp/toomany.cex" 2>&1)
[ $? -eq 2 ] || { echo "$out"; fail "a fourth tick past --ticks 3: expected exit 2"; }
echo "$out" | grep -q "toomany.cex:$(wc -l < "$tmp/toomany.cex"): tick: the --ticks bound is reached" || { echo "$out"; fail "fourth tick: no file:line"; }
n=$((n + 1))

out=$("$bin" verify --protocol rccsc --lease 3 2>&1)
[ $? -eq 2 ] || fail "--lease 3 under RCC: expected exit 2"
echo "$out" | grep -q "powers of two" || { echo "$out"; fail "--lease 3: no reason"; }
n=$((n + 1))

echo "verify-rcc: $n passed, 0 failed"
