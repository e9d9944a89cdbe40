#!/usr/bin/env bash
# gpucoh verify --symmetry on for the multi-GPM protocols (docs/verify.md, "Search,
# bounds and symmetry", "The multi-GPM protocols under the reduction"): on one GPU
# with one SM per GPM a relabelling of the GPMs (each L1 with its bank, the homes,
# the links, the directory's sharer vectors) is a symmetry. On 2 GPMs both searches
# run: the measured count of representatives, the same depth and cells as the whole
# search, and orbits that add up to the whole search's states (with --line-pages
# the two lines may have different homes). On 3 GPMs only the reduced search runs
# (4 s; the whole ones took 7 s on the shared 2-core machine on 2026-12-05): its
# orbits must add up to the whole search's count, at its depth and cells. A seeded
# bug is caught in the whole search's steps and replays; 2 GPUs are not reduced.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field, symmetry_table

# protocol, extra arguments, whole-space states, representatives, orbits' total
symmetry_table '2' <<'TABLE'
nhcc --ops=1 1075 543 1075
hmg --ops=1 1075 543 1075
ideal-mg --ops=1 1075 543 1075
sw-nh --ops=1 1199 606 1199
sw-h --ops=1 1199 606 1199
nocache-mg --ops=1 1075 543 1075
nhcc --lines=2,--line-pages,--ops=1 2714 1365 2714
hmg --lines=2,--line-pages,--ops=1,--no-atomics 1306 659 1306
sw-nh --lines=2,--line-pages,--ops=1 2910 1464 2910
sw-h --scopes=sys,--ops=1 1736 876 1736
hmg --scopes=sys,--sync,--ops=1,--values=1 1622 819 1622
TABLE

# 3 GPMs: the reduced search alone, against the whole search's count and shape
while read -r p whole reduced depth cells; do
    on=$("$bin" verify --protocol "$p" --l1s 3 --ops 1 --values 1 --symmetry on 2>&1) ||
        { echo "$on"; fail "$p on 3 GPMs"; }
    [ "$(field "$on" states)" = "$reduced" ] || { echo "$on"; fail "$p on 3 GPMs: not $reduced representatives"; }
    echo "$on" | grep -q "^verify $p: symmetry over 3 L1s: $reduced states up to relabelling stand for $whole states" ||
        { echo "$on"; fail "$p on 3 GPMs: the orbits do not add up to the whole search's $whole"; }
    [ "$(shape "$on" "$p")" = "depth $depth cells reached ${cells//_/ }" ] ||
        { echo "$on"; fail "$p on 3 GPMs: not the whole search's depth $depth and $cells cells"; }
    n=$((n + 1))
done <<'TABLE'
nhcc 33789 5821 21 37_of_106
sw-nh 36611 6329 27 31_of_97
TABLE

# the seeded bug (a release answered without its markers), caught in the whole
# search's 16 steps in 10043 representatives (19562 states without the reduction)
caught nocache-mg-norel "$tmp/norel.cex" "data value" "data value: l1\[[01]\]'s load of line 0 returned 0" \
    --ops 3 --values 1 --no-atomics --symmetry on
[ "$steps" = 16 ] || fail "nocache-mg-norel: $steps steps, not 16"
out=$("$bin" verify --protocol nocache-mg-norel --ops 3 --values 1 --no-atomics --symmetry on 2>&1)
echo "$out" | grep -q "^verify nocache-mg-norel: symmetry over 2 L1s: 10043 states up to relabelling" ||
    { echo "$out"; fail "nocache-mg-norel: not reduced to 10043 states"; }
n=$((n + 1))

# 2 GPUs: GPU homes and neighbours are arithmetic on GPM numbers; explored whole
out=$("$bin" verify --protocol nhcc --gpus 2 --ops 1 --symmetry on 2>&1) || { echo "$out"; fail "nhcc on 2 GPUs"; }
echo "$out" | grep -q "^verify nhcc: symmetry not used (2 L1s): over GPMs only on one GPU with one SM per GPM" ||
    { echo "$out"; fail "nhcc on 2 GPUs: no reason for not reducing"; }
[ "$(field "$out" states)" = 1075 ] || { echo "$out"; fail "nhcc on 2 GPUs: not the whole search's 1075 states"; }
n=$((n + 1))

echo "verify-symmetry-mg: $n passed, 0 failed"
