#!/usr/bin/env bash
# gpucoh verify --symmetry values: states that differ only by a relabelling of
# the L1s and of the stores' values count once (docs/verify.md, "Search, bounds
# and symmetry"). Each data-blind protocol gives the measured count of
# representatives, whose orbits add up to the whole search's states (measured
# without the reduction: tests/cli/verify-symmetry.sh checks those counts), at
# the whole search's depth and cells; the seeded bugs are still caught in as many
# steps as without it, and their counterexamples replay; past 3 values, or for a
# protocol the relabeller does not describe, the reduction says why it is not used.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field, reduced_table

# protocol, extra arguments, whole-space states (the orbits' total),
# representatives, the whole search's depth and cells reached
reduced_table values "[23] L1s and the stores' values" <<'TABLE'
nol1 --l1s=2 5926 1529 11 17
rc --l1s=2 6170 1596 13 22
gpuvi --l1s=2 9899 2531 14 38
gpuvini --l1s=2 9899 2531 14 38
mesi --l1s=2 11717 2982 21 41
rc --values=3 20413 2069 13 22
mesi --values=3 37549 3739 21 41
gpuvi --l1s=3,--ops=1 20146 1834 12 32
mesi --l1s=3,--ops=1 24067 2127 17 31
rccwo --inflight=2,--ticks=0,--no-atomics 22865 5834 13 19
ideal --l1s=2 8099 2081 13 28
ideal --l1s=3,--ops=1 16978 1566 10 22
stc-es --l1s=2 79269 19965 28 33
TABLE

# the seeded bugs, caught in the reduced search in the whole search's steps
caught rc-noinv "$tmp/rc.cex" "data value" "data value" --ops 3 --symmetry values
[ "$steps" = 8 ] || fail "rc-noinv: $steps steps, not 8"
n=$((n + 1))
caught gpuvi-noinv "$tmp/vi.cex" deadlock deadlock --symmetry values
[ "$steps" = 7 ] || fail "gpuvi-noinv: $steps steps, not 7"
n=$((n + 1))
caught mesi-noinv "$tmp/mesi.cex" deadlock deadlock --symmetry values
[ "$steps" = 13 ] || fail "mesi-noinv: $steps steps, not 13"
n=$((n + 1))
caught tcs-nowait "$tmp/nowait.cex" "lease:" \
    "lease: a write to line 0 was performed at the L2 while l1\[[01]\] holds a valid copy" --symmetry values
[ "$steps" = 6 ] || fail "tcs-nowait: $steps steps, not 6"
n=$((n + 1))
caught tcw-nogwct "$tmp/nogwct.cex" "data value" \
    "data value: l1\[[01]\]'s load of line 0 returned 0; the protocol's model allows only \{[12]\}" --symmetry values
[ "$steps" = 9 ] || fail "tcw-nogwct: $steps steps, not 9"
n=$((n + 1))
caught rccsc-nolease "$tmp/nolease.cex" "" \
    "data value: l1\[[01]\]'s load of line 0 returned 0" --ticks 1 --symmetry values
[ "$steps" = 6 ] || fail "rccsc-nolease: $steps steps, not 6"
n=$((n + 1))
# the representatives of the bugs' searches up to the violation (whole: 5321, 3226)
out=$("$bin" verify --protocol rc-noinv --ops 3 --symmetry values 2>&1)
[ "$(field "$out" states)" = 1399 ] || { echo "$out"; fail "rc-noinv: not 1399 states"; }
out=$("$bin" verify --protocol rccsc-nolease --ticks 1 --symmetry values 2>&1)
[ "$(field "$out" states)" = 881 ] || { echo "$out"; fail "rccsc-nolease: not 881 states"; }
n=$((n + 1))

# more than 3 values: the L1s alone, said so
out=$("$bin" verify --protocol rc --values 4 --symmetry values 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "rc --values 4: not verified"; }
echo "$out" | grep -q "^verify rc: symmetry over values not used: more than 3 values" ||
    { echo "$out"; fail "rc --values 4: no reason for not relabelling values"; }
echo "$out" | grep -q "^verify rc: symmetry over 2 L1s: 26284 states up to relabelling stand for 52234 states" ||
    { echo "$out"; fail "rc --values 4: not reduced over the L1s"; }
n=$((n + 1))
# L1s the relabeller cannot swap (Spandex's mix of devices): the whole search
out=$("$bin" verify --protocol spandex-g --devices gpu,mesi --symmetry values 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "spandex-g: not verified"; }
echo "$out" | grep -q "^verify spandex-g: symmetry not used (2 L1s): no two of its L1s are of one device" ||
    { echo "$out"; fail "spandex-g: no reason"; }
echo "$out" | grep -q "symmetry over" && fail "spandex-g: reported as reduced"
n=$((n + 1))
# STC's seeded bug (an EMU hole; its replay exits 3): the whole search's 8 steps
out=$("$bin" verify --protocol stc-es-oneack --symmetry values 2>&1)
[ $? -eq 1 ] || { echo "$out"; fail "stc-es-oneack: expected exit 1"; }
echo "$out" | grep -q "shortest event sequence (8 steps)" || { echo "$out"; fail "stc-es-oneack: not 8 steps"; }
[ "$(field "$out" states)" = 1305 ] || { echo "$out"; fail "stc-es-oneack: not 1305 states"; }
n=$((n + 1))

echo "verify-values: $n passed, 0 failed"
