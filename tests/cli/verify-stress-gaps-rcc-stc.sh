#!/usr/bin/env bash
# The cheapest of the runs tools/verify-stress-table.sh adds for RCC, STC and
# Spandex-G to reach what the stress tester reaches (docs/verify.md, "Against
# the stress tester"), each checked to verify and to reach the cells it was
# added for: one L1 with two operations in flight and conflicting lines (RCC's
# copy being written, VI, meeting the other line's fill), one L1 with the lines
# in two STC bands (stc.seb=7: a load behind an uncached load that crossed an
# epoch change, I_I.Load), STC-MB's SEB moved by an EpochConflict (Idle.Remap,
# and a demand sent under the old SEB, DemandMoved), and Spandex-G's atomic and
# second load behind an outstanding miss with a merge limit of 1.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, reaches

reaches "^verify rccsc " "rccsc.L1.VI.Load rccsc.L1.VI.Store rccsc.L1.VI.Rsp rccsc.L1.VI.Replace" --protocol rccsc \
    --l1s 1 --lines 2 --conflict l1 --ops 3 --inflight 2 --ticks 0 --values 1 --no-atomics
reaches "^verify stc-es " "stc.L1.I_I.Atomic stc.L1.I_V.Load" --protocol stc-es \
    --l1s 1 --inflight 2 --ops 2 --values 1 --merge-max 1
reaches "^verify stc-es " "stc.L1.I_I.Load" --protocol stc-es \
    --l1s 1 --lines 2 --set stc.seb=7 --set stc.seb_min=7 --inflight 3 --ops 3 --values 1 --no-atomics
reaches "^verify stc-mb " "stc.EMU.Idle.Remap stc.EMU.Prepare.DemandMoved" --protocol stc-mb \
    --l1s 1 --lines 2 --inflight 2 --ops 3 --values 1 --no-atomics
reaches "^verify spandex-g " "rc.L1.II.Atomic rc.L1.IV.Load" --protocol spandex-g --inflight 2 --merge-max 1 --ops 2 --values 1
echo "ok: $n checks"
