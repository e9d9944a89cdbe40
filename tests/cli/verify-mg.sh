#!/usr/bin/env bash
# gpucoh verify on the multi-GPM homes: one SM and one L2 bank per GPM, the
# links between banks explorer channels (a FIFO per bank pair and vnet), homes
# placed by first touch. hmg and nhcc verify (with scoped operations: fences,
# acquires, releases and atomics at .cta/.gpu/.sys); the seeded hmg-noinv (a write
# at the home invalidates no other GPM's copy) is caught by the scoped data-value
# rule with a counterexample of < 30 events that --replay reproduces; on 2 GPUs x 1
# GPM the same bug is caught through .sys fences and, as the scoped model allows
# a stale read after .gpu synchronisation across GPUs, not flagged with .gpu alone.
# The seeded bugs sw-nh-noinv (an acquire leaves the bank's remote copies valid) and
# nocache-mg-norel (a release is answered without its round of markers) are caught
# the same way and replayed; the correct protocol replaying their events diverges.
# The other multi-GPM protocols verify too: nocache-mg, software coherence (sw-nh;
# sw-h hierarchical on 2 GPUs, its acquires through the banks) and ideal-mg, whose
# free invalidations travel on channels of their own (replayed as `deliver ... free`)
# and whose free release marker once overtook the write it covers (the bounds
# that caught it verify now).
set -u
bin=$1
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

check_verified() { # NAME EXPECTED-BOUNDS-TEXT ARGS...
    local name=$1 want=$2
    shift 2
    out=$("$bin" verify --protocol "$name" "$@" 2>&1)
    [ $? -eq 0 ] || { echo "$out"; fail "verify $name $*"; }
    line=$(echo "$out" | grep "^verify $name ") || fail "no result line for $name"
    echo "$line" | grep -q " verified: $want:" || fail "$name: $line"
    states=$(echo "$line" | sed -E 's/.* ([0-9]+) states.*/\1/')
    [ "$states" -gt 1000 ] || fail "$name: only $states states explored"
    n=$((n + 1))
}

check_verified nhcc "2 L1s x 1 lines x 1 values, 2 ops per L1 (1 in flight), 1 GPU x 2 GPMs" \
    --values 1
check_verified hmg "2 L1s x 1 lines x 2 values, 1 ops per L1 (1 in flight), 1 GPU x 2 GPMs, scopes cta gpu sys" \
    --ops 1 --scopes cta,gpu,sys
check_verified hmg "2 L1s x 1 lines x 2 values, 1 ops per L1 (1 in flight), acquire/release, 2 GPUs x 1 GPMs, scopes gpu sys" \
    --ops 1 --gpus 2 --scopes gpu,sys --sync
# the bounds under which hmg-noinv is caught below
check_verified hmg "2 L1s x 1 lines x 1 values, 3 ops per L1 (1 in flight), no atomics, 1 GPU x 2 GPMs" \
    --ops 3 --values 1 --no-atomics

# the other multi-GPM protocols, a few seconds each
check_verified nocache-mg "2 L1s x 1 lines x 1 values, 2 ops per L1 (1 in flight), 1 GPU x 2 GPMs" \
    --values 1
check_verified sw-nh "2 L1s x 1 lines x 1 values, 2 ops per L1 (1 in flight), 1 GPU x 2 GPMs" \
    --values 1
check_verified sw-h "2 L1s x 1 lines x 2 values, 1 ops per L1 (1 in flight), acquire/release, 2 GPUs x 1 GPMs, scopes gpu sys" \
    --ops 1 --gpus 2 --scopes gpu,sys --sync
# ideal-mg: its free release marker overtook the forwarded write here (20 events)
check_verified ideal-mg "2 L1s x 1 lines x 1 values, 3 ops per L1 (1 in flight), no atomics, 1 GPU x 2 GPMs" \
    --ops 3 --values 1 --no-atomics

# a free invalidation replays on its own channel: GPM 1 shares the line homed at
# GPM 0, GPM 0's store invalidates it
printf 'protocol ideal-mg\nl1s 2\nlines 1\nvalues 1\nops 3\natomics 0\ninflight 1\nsync 0\ngpus 1\n' > "$tmp/free.cex"
printf '%s\n' "op 0 load 0 0" "deliver l1[0] l2[0] 0" "deliver dram[0] l2[0] 0" "deliver l2[0] l1[0] 1" \
    "op 1 load 0 0" "deliver l1[1] l2[1] 0" "deliver l2[1] l2[0] 0" "deliver l2[0] l2[1] 1" \
    "deliver l2[1] l1[1] 1" "op 0 store 0 1" "deliver l1[0] l2[0] 0" "deliver l2[0] l2[1] 0 free" >> "$tmp/free.cex"
out=$("$bin" verify --replay "$tmp/free.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "ideal-mg free replay: expected exit 0"; }
echo "$out" | grep -q "^step 12: deliver l2\[0\] l2\[1\] 0 free" || { echo "$out"; fail "ideal-mg: no free delivery"; }
echo "$out" | grep -qE '^ +[0-9]+ l2\[1\] +Inv +V>I ' || { echo "$out"; fail "ideal-mg: the free invalidation did not drop the copy"; }
n=$((n + 1))
sed -i 's/^protocol ideal-mg/protocol nhcc/' "$tmp/free.cex"
out=$("$bin" verify --replay "$tmp/free.cex" 2>&1)
[ $? -eq 2 ] || { echo "$out"; fail "nhcc free replay: expected exit 2"; }
echo "$out" | grep -q "free.cex:21: no such channel (free" || { echo "$out"; fail "nhcc free: no file:line"; }
n=$((n + 1))

out=$("$bin" verify --protocol hmg-noinv --ops 3 --values 1 --no-atomics --cex "$tmp/noinv.cex" 2>&1)
[ $? -eq 1 ] || { echo "$out"; fail "hmg-noinv: expected exit 1"; }
echo "$out" | grep -q "^verify hmg-noinv: VIOLATION: data value: l1\[[01]\]'s load of line 0 returned 0; the protocol's model allows only {1}" ||
    { echo "$out"; fail "hmg-noinv: not caught by the data-value rule"; }
steps=$(echo "$out" | sed -nE 's/.*shortest event sequence \(([0-9]+) steps\).*/\1/p')
[ -n "$steps" ] && [ "$steps" -lt 30 ] || fail "hmg-noinv: counterexample of '$steps' steps"
[ "$(grep -cE '^(op|deliver) ' "$tmp/noinv.cex")" -eq "$steps" ] || fail "hmg-noinv: file has not $steps steps"
grep -q "^deliver l2\[0\] l2\[1\] [01]" "$tmp/noinv.cex" || fail "hmg-noinv: no link between banks in the counterexample"
n=$((n + 1))

out=$("$bin" verify --replay "$tmp/noinv.cex" 2>&1)
[ $? -eq 1 ] || { echo "$out"; fail "hmg-noinv replay: expected exit 1"; }
echo "$out" | grep -q "^replay hmg-noinv: VIOLATION after $steps steps: data value" || { echo "$out"; fail "hmg-noinv replay did not reproduce"; }
echo "$out" | grep -qE '^ +[0-9]+ l2\[[01]\] ' || { echo "$out"; fail "hmg-noinv replay: no bank transition traced"; }
n=$((n + 1))

# scopes: on 2 GPUs of 1 GPM the bug is seen through .sys synchronisation ...
out=$("$bin" verify --protocol hmg-noinv --gpus 2 --scopes sys --ops 3 --values 1 --no-atomics 2>&1)
[ $? -eq 1 ] || { echo "$out"; fail "hmg-noinv .sys on 2 GPUs: expected exit 1"; }
echo "$out" | grep -q "^verify hmg-noinv: VIOLATION: data value" || { echo "$out"; fail "hmg-noinv .sys: not caught"; }
echo "$out" | grep -q "op [01] fence.sys 0 0" || { echo "$out"; fail "hmg-noinv .sys: no .sys fence in the counterexample"; }
n=$((n + 1))
# ... and not through .gpu alone, which does not synchronise across GPUs
check_verified hmg-noinv "2 L1s x 1 lines x 1 values, 3 ops per L1 (1 in flight), no atomics, 2 GPUs x 1 GPMs, scopes gpu" \
    --gpus 2 --scopes gpu --ops 3 --values 1 --no-atomics

# the seeded bugs of software coherence and of nocache-mg: caught by the scoped
# data-value rule in < 30 events and replayed; the correct protocol replaying the same
# events parts from the bug's path at step AT (PATTERN traced there by the one SIDE
# names, not the other) and cannot follow the file from step STOP on (exit 2)
at_step() { sed -n "/^step $1:/,/^step /p" | grep -qE "$2"; }
check_seeded() { # NAME CORRECT AT PATTERN SIDE STOP
    local name=$1 good=$2 at=$3 pat=$4 side=$5 stop=$6 bad_out good_out line
    out=$("$bin" verify --protocol "$name" --ops 3 --values 1 --no-atomics --cex "$tmp/$name.cex" 2>&1)
    [ $? -eq 1 ] || { echo "$out"; fail "$name: expected exit 1"; }
    echo "$out" | grep -q "^verify $name: VIOLATION: data value: l1\[[01]\]'s load of line 0 returned 0" ||
        { echo "$out"; fail "$name: not caught by the data-value rule"; }
    steps=$(echo "$out" | sed -nE 's/.*shortest event sequence \(([0-9]+) steps\).*/\1/p')
    [ -n "$steps" ] && [ "$steps" -lt 30 ] || fail "$name: counterexample of '$steps' steps"
    [ "$(grep -cE '^(op|deliver) ' "$tmp/$name.cex")" -eq "$steps" ] || fail "$name: file has not $steps steps"
    bad_out=$("$bin" verify --replay "$tmp/$name.cex" 2>&1)
    [ $? -eq 1 ] || { echo "$bad_out"; fail "$name replay: expected exit 1"; }
    echo "$bad_out" | grep -q "^replay $name: VIOLATION after $steps steps: data value" ||
        { echo "$bad_out"; fail "$name replay did not reproduce"; }
    n=$((n + 2))
    sed "s/^protocol $name\$/protocol $good/" "$tmp/$name.cex" > "$tmp/$good.cex"
    good_out=$("$bin" verify --replay "$tmp/$good.cex" 2>&1)
    [ $? -eq 2 ] || { echo "$good_out"; fail "$good replaying $name's events: expected exit 2"; }
    echo "$good_out" | grep -q "VIOLATION" && { echo "$good_out"; fail "$good: a violation on $name's events"; }
    if [ "$side" = good ]; then
        echo "$good_out" | at_step "$at" "$pat" && ! echo "$bad_out" | at_step "$at" "$pat"
    else
        echo "$bad_out" | at_step "$at" "$pat" && ! echo "$good_out" | at_step "$at" "$pat"
    fi || { echo "$good_out"; fail "$good and $name at step $at: '$pat' not only in $side's trace"; }
    line=$(grep -nE '^(op|deliver) ' "$tmp/$good.cex" | sed -n "${stop}p" | cut -d: -f1)
    echo "$good_out" | grep -q "^gpucoh: error: $tmp/$good.cex:$line: nothing in flight on that channel" ||
        { echo "$good_out"; fail "$good: did not stop at step $stop (line $line)"; }
    n=$((n + 1))
}
# sw-nh-noinv: core 1's acquire leaves its bank's copy valid and its load hits it;
# under sw-nh the acquire drops it and the load goes to the home
check_seeded sw-nh-noinv sw-nh 25 '^ +[0-9]+ l2\[1\] +Inv +V>I ' good 29
# nocache-mg-norel: core 1's release is answered while its store is still on the link
# to the home; under nocache-mg the round waits for its marker's answer
check_seeded nocache-mg-norel nocache-mg 7 '^ +[0-9]+ l2\[1\] +Answered +Round>Idle ' bug 8

printf 'protocol hmg\nl1s 2\nlines 1\nvalues 2\nops 2\ngpus 1\ndeliver l2[0] l2[1] 0\n' > "$tmp/bad.cex"
out=$("$bin" verify --replay "$tmp/bad.cex" 2>&1)
[ $? -eq 2 ] || { echo "$out"; fail "an empty link: expected exit 2"; }
echo "$out" | grep -q "bad.cex:7: nothing in flight on that channel" || { echo "$out"; fail "empty link: no file:line"; }
n=$((n + 1))

out=$("$bin" verify --protocol hmg --scopes gpu,warp 2>&1)
[ $? -eq 2 ] || { echo "$out"; fail "--scopes warp: expected exit 2"; }
n=$((n + 1))

echo "verify-mg: $n passed, 0 failed"
