#!/usr/bin/env bash
# gpucoh verify --symmetry on: states that differ only by a relabelling of the
# L1s count once (docs/verify.md, "Search, bounds and symmetry"). On 2 L1s and on
# 3 (--ops 1; TC with leases of one tick, RCC with one guard tick a path) each reducible
# protocol gives the measured count of representatives,
# the same depth and cells as the whole search, and representatives whose orbits
# add up to the whole search's states; the seeded bugs are still caught with a
# counterexample that --replay reproduces; protocols the relabeller does not know
# are explored whole and say so.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field, symmetry_table

# protocol, extra arguments, whole-space states, representatives, orbits' total
symmetry_table '[23] L1s' <<'TABLE'
nol1 --l1s=2 5926 2998 5926
rc --l1s=2 6170 3122 6170
gpuvi --l1s=2 9899 4997 9899
gpuvini --l1s=2 9899 4997 9899
mesi --l1s=2 11717 5876 11717
nol1 --l1s=3,--ops=1 15144 2728 15144
rc --l1s=3,--ops=1 14886 2685 14886
gpuvi --l1s=3,--ops=1 20146 3611 20146
gpuvini --l1s=3,--ops=1 20146 3611 20146
gpuvini --lines=2,--ops=2,--no-atomics,--conflict=both 68135 34366 68135
mesi --l1s=3,--ops=1 24067 4177 24067
tcs --l1s=2 70407 35370 70407
tcw --l1s=2 100151 50215 100151
tcs --l1s=3,--ops=1,--lease=1 50555 8975 50555
tcw --l1s=3,--ops=1,--lease=1 37600 6647 37600
rccsc --ticks=1 71360 35829 71360
rccwo --inflight=2,--ticks=0,--no-atomics 22865 11566 22865
rccsc --l1s=3,--ops=1,--ticks=1 100502 17886 100502
ideal --l1s=2 8099 4097 8099
ideal --l1s=3,--ops=1 16978 3075 16978
ideal --lines=2,--ops=2,--no-atomics,--conflict=both 41763 21140 41763
stc-es --l1s=2,--ops=1 8293 4185 8293
stc-nv --l1s=2,--ops=1 48811 24631 48811
TABLE
# (mesi on 2 L1s: its counts fell from 12327, 6232 and 12429 once the digest left
# out the bytes a way reinstalled for a miss keeps from its previous line until the
# fill: states that differed only there counted apart, and which of them a search
# kept decided what it saw next, so the orbits added up to 102 more than the whole
# search; docs/verify.md, "Search, bounds and symmetry".)

# the seeded bugs, caught in the reduced search; the event path is the rig's own
caught rc-noinv "$tmp/rc.cex" "data value" "data value" --ops 3 --symmetry on
echo "$out" | grep -qE 'l1\[0\]|l1\[1\]' || fail "rc-noinv replay: no transition trace"
n=$((n + 1))
caught gpuvi-noinv "$tmp/vi.cex" deadlock deadlock --symmetry on
n=$((n + 1))
caught mesi-noinv "$tmp/mesi.cex" deadlock deadlock --symmetry on
n=$((n + 1))
# TC (leases, times relative to now): the same steps as without the reduction (6, 9)
caught tcs-nowait "$tmp/nowait.cex" "lease:" \
    "lease: a write to line 0 was performed at the L2 while l1\[[01]\] holds a valid copy" --symmetry on
[ "$steps" = 6 ] || fail "tcs-nowait: $steps steps, not 6"
n=$((n + 1))
caught tcw-nogwct "$tmp/nogwct.cex" "data value" \
    "data value: l1\[[01]\]'s load of line 0 returned 0; the protocol's model allows only \{1\}" --symmetry on
[ "$steps" = 9 ] || fail "tcw-nogwct: $steps steps, not 9"
n=$((n + 1))
# RCC (logical times relative to the smallest): the same 6 steps as without it
caught rccsc-nolease "$tmp/nolease.cex" "" \
    "data value: l1\[[01]\]'s load of line 0 returned 0" --ticks 1 --symmetry on
[ "$steps" = 6 ] || fail "rccsc-nolease: $steps steps, not 6"
out=$("$bin" verify --protocol rccsc-nolease --ticks 1 --symmetry on 2>&1)
echo "$out" | grep -q "^verify rccsc-nolease: symmetry over 2 L1s: 1639 states up to relabelling stand for 3226" ||
    { echo "$out"; fail "rccsc-nolease: not reduced to 1639 states"; }
n=$((n + 1))
out=$("$bin" verify --protocol rc-noinv --ops 3 --symmetry on 2>&1)
echo "$out" | grep -q "^verify rc-noinv: symmetry over 2 L1s: 2686 states up to relabelling" ||
    { echo "$out"; fail "rc-noinv: not reduced to 2686 states"; }
n=$((n + 1))

# their bugs pick the lowest-numbered other sharer: on 3 L1s not reduced, still caught
out=$("$bin" verify --protocol gpuvi-noinv --l1s 3 --ops 1 --symmetry on 2>&1)
[ $? -eq 1 ] || { echo "$out"; fail "gpuvi-noinv on 3 L1s: not caught"; }
echo "$out" | grep -q "^verify gpuvi-noinv: symmetry not used (3 L1s): its seeded bug skips the lowest-numbered" ||
    { echo "$out"; fail "gpuvi-noinv on 3 L1s: no reason for not reducing"; }
echo "$out" | grep -q " 14209 states" || { echo "$out"; fail "gpuvi-noinv on 3 L1s: not the whole search"; }
n=$((n + 1))

# STC: the EMU that changes the epoch after the first ReadyAck, caught in the
# whole search's 8 steps (a protocol hole in the EMU's table: its replay exits 3)
out=$("$bin" verify --protocol stc-es-oneack --symmetry on --cex "$tmp/oneack.cex" 2>&1)
[ $? -eq 1 ] || { echo "$out"; fail "stc-es-oneack: expected exit 1"; }
echo "$out" | grep -Eq "protocol hole in stc emu at t=[0-9]+ ps: no transition for state Change, event (Last)?Ready," ||
    { echo "$out"; fail "stc-es-oneack: not the EMU's hole"; }
echo "$out" | grep -q "shortest event sequence (8 steps)" || { echo "$out"; fail "stc-es-oneack: not 8 steps"; }
echo "$out" | grep -q "^verify stc-es-oneack: symmetry over 2 L1s: 2379 states up to relabelling" ||
    { echo "$out"; fail "stc-es-oneack: not reduced to 2379 states (4368 whole)"; }
out=$("$bin" verify --replay "$tmp/oneack.cex" 2>&1)
[ $? -eq 3 ] || { echo "$out"; fail "stc-es-oneack replay: expected exit 3"; }
n=$((n + 1))

# a protocol whose L1-naming fields are not described (GETM: its timestamps
# tie-break by SM): the whole search, said so (Spandex, WarpTM and the
# multi-GPM protocols are described: verify-symmetry-spandex.sh, -tm.sh, -mg.sh)
out=$("$bin" verify --protocol getm --ops 1 --symmetry on 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "getm: not verified"; }
echo "$out" | grep -q "^verify getm: symmetry not used (2 L1s): the fields that name an L1" ||
    { echo "$out"; fail "getm: no reason for not reducing"; }
echo "$out" | grep -q "symmetry over" && fail "getm: reported as reduced"
n=$((n + 1))

out=$("$bin" verify --protocol rc --symmetry yes 2>&1)
[ $? -eq 2 ] || { echo "$out"; fail "--symmetry yes: expected exit 2"; }
echo "$out" | grep -q "is not on, values or off" || { echo "$out"; fail "--symmetry yes: no reason"; }
n=$((n + 1))

echo "verify-symmetry: $n passed, 0 failed"
