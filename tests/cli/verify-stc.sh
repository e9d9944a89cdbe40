#!/usr/bin/env bash
# gpucoh verify on spatiotemporal coherence with its epoch management unit: the
# EMU's links to the L1s are explorer channels (every order of its handshake
# messages and demands is explored), its wake-up period is the time event. STC-ES
# verifies on 2 L1s x 1 line x 2 values (the line in band 1, band 0 current at
# the start, so stores block, demand and wait for the EMU's grant); the seeded
# stc-es-oneack (an EMU that changes the epoch after the first ReadyAck) is caught
# (a later ReadyAck meets a hole of the EMU's table)
# with a short counterexample that --replay reproduces with the simulator's dump;
# the correct stc-es replays the same events without a violation.
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

out=$("$bin" verify --protocol stc-es --ops 1 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "verify stc-es"; }
line=$(echo "$out" | grep "^verify stc-es ") || fail "no result line for stc-es"
echo "$line" | grep -q " verified: 2 L1s x 1 lines x 2 values, 1 ops per L1 (1 in flight), the EMU waking once a tick:" || fail "stc-es: $line"
states=$(echo "$line" | sed -E 's/.* ([0-9]+) states.*/\1/')
[ "$states" -gt 5000 ] || fail "stc-es: only $states states explored"
n=$((n + 1))

out=$("$bin" verify --protocol stc-es-oneack --cex "$tmp/oneack.cex" 2>&1)
[ $? -eq 1 ] || { echo "$out"; fail "stc-es-oneack: expected exit 1"; }
echo "$out" | grep -q "^verify stc-es-oneack: VIOLATION: simulator fault (exit 3)" || { echo "$out"; fail "stc-es-oneack: not caught"; }
echo "$out" | grep -Eq "protocol hole in stc emu at t=[0-9]+ ps: no transition for state Change, event (Last)?Ready," || { echo "$out"; fail "stc-es-oneack: not the EMU's table (a ReadyAck outside Prepare)"; }
steps=$(echo "$out" | sed -nE 's/.*shortest event sequence \(([0-9]+) steps\).*/\1/p')
[ -n "$steps" ] && [ "$steps" -lt 30 ] || fail "stc-es-oneack: counterexample of '$steps' steps"
grep -q "^deliver l1\[[01]\] emu 0" "$tmp/oneack.cex" || fail "stc-es-oneack: no EMU link in the counterexample"
grep -q "^tick" "$tmp/oneack.cex" || fail "stc-es-oneack: no wake-up of the EMU in the counterexample"
out=$("$bin" verify --replay "$tmp/oneack.cex" 2>&1)
[ $? -eq 3 ] || { echo "$out"; fail "stc-es-oneack replay: expected exit 3 (the simulator's fault)"; }
echo "$out" | grep -Eq "protocol hole in stc emu at t=[0-9]+ ps: no transition for state Change, event (Last)?Ready," || { echo "$out"; fail "stc-es-oneack replay did not reproduce"; }
echo "$out" | grep -q "^  from CU [01]$" || { echo "$out"; fail "stc-es-oneack replay: the hole does not name the CU"; }
echo "$out" | grep -q "^emu: change, grant 0x2" || { echo "$out"; fail "stc-es-oneack replay: no EMU dump"; }
sed 's/^protocol stc-es-oneack/protocol stc-es/' "$tmp/oneack.cex" > "$tmp/es.cex"
out=$("$bin" verify --replay "$tmp/es.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "stc-es replays the stc-es-oneack events with a violation"; }
n=$((n + 1))

printf 'protocol stc-es\nl1s 2\nlines 1\nvalues 2\nops 2\ndeliver emu l1[0] 0\n' > "$tmp/bad.cex"
out=$("$bin" verify --replay "$tmp/bad.cex" 2>&1)
[ $? -eq 2 ] || { echo "$out"; fail "an empty EMU link: expected exit 2"; }
echo "$out" | grep -q "bad.cex:6: nothing in flight on that channel" || { echo "$out"; fail "empty EMU link: no file:line"; }
n=$((n + 1))

echo "verify-stc: $n passed, 0 failed"
