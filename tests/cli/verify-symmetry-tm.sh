#!/usr/bin/env bash
# gpucoh verify --symmetry on for WarpTM (docs/verify.md, "Search, bounds and
# symmetry", "Transactions under the reduction"): its bank names no core, so
# states that differ only by a relabelling of the L1s (with the cores' attempts
# and committed history) count once. On 2 L1s both searches run: the measured
# count of representatives, the same depth and cells as the whole search, and
# orbits that add up to the whole search's states. On 3 L1s only the reduced
# search runs (10 s; the whole one took 22 s on the shared 2-core machine on
# 2026-12-05 and found 160630 states at depth 28, 17 of 92 cells): its orbits
# must add up to that count. The seeded bug is caught at the whole search's
# depth and replays; WarpTM is not reduced over values (it validates by value).
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field, symmetry_table

# protocol, extra arguments, whole-space states, representatives, orbits' total
symmetry_table '2 L1s' <<'TABLE'
warptm --ops=1 4748 2380 4748
warptm --ops=1,--values=1 1655 831 1655
warptm --ops=1,--plain 9208 4617 9208
TABLE

# 3 L1s: the reduced search alone, against the whole search's count and shape
on=$("$bin" verify --protocol warptm --l1s 3 --ops 1 --values 1 --symmetry on 2>&1) ||
    { echo "$on"; fail "warptm on 3 L1s"; }
[ "$(field "$on" states)" = 26901 ] || { echo "$on"; fail "warptm on 3 L1s: not 26901 representatives"; }
echo "$on" | grep -q "^verify warptm: symmetry over 3 L1s: 26901 states up to relabelling stand for 160630 states" ||
    { echo "$on"; fail "warptm on 3 L1s: the orbits do not add up to the whole search's 160630"; }
[ "$(shape "$on" warptm)" = "depth 28 cells reached 17 of 92" ] ||
    { echo "$on"; fail "warptm on 3 L1s: not the whole search's depth 28 and 17 of 92 cells"; }
n=$((n + 1))

# the seeded bug (a validation that ignores values), caught at the whole
# search's 12 steps in 3256 representatives (6203 states without the reduction)
caught warptm-noval "$tmp/noval.cex" serializability \
    "serializability: core [01]'s transaction was validated and committed having read 0" --symmetry on
[ "$steps" = 12 ] || fail "warptm-noval: $steps steps, not 12"
out=$("$bin" verify --protocol warptm-noval --symmetry on 2>&1)
echo "$out" | grep -q "^verify warptm-noval: symmetry over 2 L1s: 3256 states up to relabelling" ||
    { echo "$out"; fail "warptm-noval: not reduced to 3256 states"; }
n=$((n + 1))

# not over values: a validation compares the values read with the line's
out=$("$bin" verify --protocol warptm --ops 1 --symmetry values 2>&1) || { echo "$out"; fail "warptm values"; }
echo "$out" | grep -q "^verify warptm: symmetry over values not used: its controllers are not described as blind" ||
    { echo "$out"; fail "warptm: reduced over values"; }
[ "$(field "$out" states)" = 2380 ] || { echo "$out"; fail "warptm --symmetry values: not 2380 states"; }
n=$((n + 1))

echo "verify-symmetry-tm: $n passed, 0 failed"
