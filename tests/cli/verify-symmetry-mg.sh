#!/usr/bin/env bash
# gpucoh verify --symmetry on for the multi-GPM protocols (docs/verify.md, "Search,
# bounds and symmetry", "The multi-GPM protocols under the reduction"): a
# relabelling of the GPMs (each L1 with its bank, the homes, the links, the
# directory's sharer vectors) that keeps the GPUs is a symmetry. On 2 GPMs both searches
# run: the measured count of representatives, the same depth and cells as the whole
# search, and orbits that add up to the whole search's states (with --line-pages
# the two lines may have different homes). On 3 GPMs only the reduced search runs
# (4 s; the whole ones took 7 s on the shared 2-core machine on 2026-12-05): its
# orbits must add up to the whole search's count, at its depth and cells. A seeded
# bug is caught in the whole search's steps and replays. On 2 GPUs and with two
# SMs a GPM a subgroup: whole GPMs, keeping the GPU structure.
# Each part is a test of its own (cli/verify-symmetry-mg-PART; tests/data/parts.sh):
# parts: one-gpu gpus
set -u
bin=$1 root=$2
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field, symmetry_table, reduced_table

part_one_gpu() {
# protocol, extra arguments, whole-space states, representatives, orbits' total
symmetry_table '2 L1s' <<'TABLE'
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
reduced_table on '3 L1s' <<'TABLE'
nhcc --l1s=3,--ops=1,--values=1 33789 5821 21 37
sw-nh --l1s=3,--ops=1,--values=1 36611 6329 27 31
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

}

part_gpus() {
# 2 GPUs: the relabellings of whole GPUs and of the GPM index within a GPU
# alike (GPU homes and release neighbours are arithmetic on GPM numbers); with
# two SMs a GPM, each L1 with its GPM. Both searches on 2 GPUs x 1 GPM; on
# 2 x 1 of 2 SMs and 2 x 2 the reduced search alone, against the whole one's
# count and shape (measured with both on 2026-12-05)
symmetry_table '2 L1s (by GPM, keeping the GPUs)' <<'TABLE'
nhcc --gpus=2,--ops=1 1075 543 1075
hmg --gpus=2,--ops=1 959 484 959
ideal-mg --gpus=2,--ops=1 1075 543 1075
sw-nh --gpus=2,--ops=1 1199 606 1199
sw-h --gpus=2,--ops=1 1075 543 1075
nocache-mg --gpus=2,--ops=1 1075 543 1075
hmg --gpus=2,--ops=1,--scopes=gpu,sys,--sync 9401 4718 9401
TABLE
reduced_table on '4 L1s (by GPM with its SMs, keeping the GPUs)' <<'TABLE'
hmg --l1s=4,--gpus=2,--gpm-sms=2,--ops=1,--values=1,--no-atomics 93944 46990 19 38
TABLE
reduced_table on '4 L1s (by GPM, keeping the GPUs)' <<'TABLE'
hmg --l1s=4,--gpus=2,--ops=1,--values=1,--kinds=ls,ls,ls,ls 240057 60021 25 41
TABLE

# over the stores' values too (data-blind: the banks copy, merge and exchange
# data, never read it): the orbits add up to the whole search (measured both ways)
reduced_table values "2 L1s and the stores' values" <<'TABLE'
nhcc --ops=1 1075 302 10 32
TABLE
reduced_table values "2 L1s (by GPM, keeping the GPUs) and the stores' values" <<'TABLE'
sw-h --gpus=2,--ops=1,--scopes=gpu,sys,--sync 11105 3162 14 33
TABLE

# one GPM: nothing to relabel
out=$("$bin" verify --protocol nhcc --l1s 2 --gpm-sms 2 --ops 1 --symmetry on 2>&1) || { echo "$out"; fail "nhcc on one GPM"; }
echo "$out" | grep -q "^verify nhcc: symmetry not used (2 L1s): one GPM: no relabelling of GPMs to make" ||
    { echo "$out"; fail "nhcc on one GPM: no reason for not reducing"; }
n=$((n + 1))

}

source "$root/tests/data/parts.sh" "$0" "${3:-}"
echo "verify-symmetry-mg: ${3:-every part}: $n passed, 0 failed"
