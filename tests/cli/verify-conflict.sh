#!/usr/bin/env bash
# gpucoh verify with conflicting lines and a small merge limit (docs/verify.md,
# "Conflicting lines"): --conflict gives the L1s (l1), the L2 bank (l2) or both
# one set of one way, so the rig's two lines evict each other and the
# replacement cells are reached, and the protocols still verify; --merge-max 0
# with two operations in flight reaches MergeFull; --conflict-ways 2 makes it one
# set of two ways for three lines (a recall or a write-back while the other way
# stays in use). A counterexample found with them replays under them (the file
# records them); bad combinations exit 2. Spandex-D's W.Load, W.Store and
# R.ReqWBStale (docs/verify.md, "Against the stress tester") are reached, and the
# sequences that reach them, written out as event files, replay with their
# transitions. About 27 CPU seconds (25 to 28 s user on 2026-12-05, 55 to 71 s
# wall under other jobs).
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field, reaches, bad

# rc: an L1 of one line drops a valid copy for the other line
reaches "one-way L1s (lines conflict)" "rc.L1.V.Replace" --protocol rc --lines 2 --conflict l1
# the bank of one line writes a dirty line back, drops a clean one
reaches "one-way L2 (lines conflict)" "nc.L2.M.Replace nc.L2.V.Replace" \
    --protocol rc --lines 2 --conflict l2
# MESI: M, E and S replaced, the write-back (M_I) meeting forwards, the bank's
# PutXOld (a write-back overtaken by a newer owner); the inclusive bank's recall
reaches "one-way L1s (lines conflict)" \
    "mesi.L1.M.Replace mesi.L1.E.Replace mesi.L1.S.Replace mesi.L1.M_I.WbAck mesi.L1.M_I.FwdGetX mesi.L2.MT.PutXOld mesi.L2.M.PutXOld" \
    --protocol mesi --lines 2 --conflict l1 --no-atomics --values 1
reaches "one-way L1s and L2 (lines conflict)" "mesi.L2.MT.Recall mesi.L2.MT_I.OwnerData" \
    --protocol mesi --lines 2 --conflict both --ops 1
# TC's bank of one way: a line replaced while its lease runs (P) or after (E);
# the bank waiting for a busy way (a fill, a TC-Strong write waiting for a
# lease) sleeps until the time it waits for instead of retrying every cycle,
# without which this run did not finish (docs/verify.md, "Conflicting lines")
reaches "one-way L1s and L2 (lines conflict)" "tcs.L2.P.Replace tcs.L2.E.Replace" \
    --protocol tcs --lines 2 --conflict both --ops 1
reaches "one-way L1s and L2 (lines conflict)" "tcw.L2.P.Replace tcw.L2.E.Replace" \
    --protocol tcw --lines 2 --conflict both --ops 1
# multi-GPM (nhcc: 1 GPU x 2 GPMs): the home writes a dirty line back and drops a
# clean one or a remote copy, the L1 drops a valid copy (about 4 s)
reaches "one-way L1s and L2 (lines conflict)" "nhcc.L2.M.Replace nhcc.L2.V.Replace rc.L1.V.Replace" \
    --protocol nhcc --lines 2 --conflict both --ops 2 --values 1 --no-atomics
# two loads of a line in flight, the fill taking none merged
reaches "merge_max 0" "rc.L1.IV.MergeFull" --protocol rc --inflight 2 --merge-max 0 \
    --values 1 --no-atomics

# Spandex-D's writer asking for a word of its line in W that a forward took
# meanwhile (W.Load, W.Store): core 0 stores A, loads B (A's way: A written back,
# B waits for the ack), core 1's store of A has the LLC forward A's word to core
# 0, whose next load or store of A passes the waiting B out of order
reaches "one-way L1s (lines conflict)" "spandex.DeNovo-L1.W.Load spandex.DeNovo-L1.W.Store" \
    --protocol spandex-d --lines 2 --conflict l1 --inflight 2 --ops-each 3,1 --kinds ls,s \
    --values 1 --no-atomics --set l1.issue=out-of-order
# ... and that write-back, stale once core 1 owns A, reaching the LLC while a MESI
# device's ReqS has it revoke A from core 1 (R.ReqWBStale)
reaches "devices denovo,denovo,mesi" "spandex.LLC.R.ReqWBStale" \
    --protocol spandex-d --devices denovo,denovo,mesi --lines 2 --conflict l1 --ops-each 2,1,1 \
    --kinds s,s,l --values 1 --no-atomics
# the two sequences, written out as event files, replay with those transitions
# (the load of A in W stalls: it moves only after the write-back's ack)
cat >"$tmp/w.cex" <<'END'
protocol spandex-d
l1s 2
lines 2
values 1
ops 3
atomics 0
inflight 2
sync 0
conflict 1
ops_each 3,1
set l1.issue=out-of-order
op 0 store 0 1
deliver l1[0] l2 0
deliver dram l2 0
deliver l2 l1[0] 1
op 0 load 1 0
op 1 store 0 1
deliver l1[1] l2 0
deliver l2 l1[0] 2
op 0 load 0 0
deliver l1[0] l2 0
deliver l2 l1[0] 2
END
out=$("$bin" verify --replay "$tmp/w.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "W.Load sequence: expected a replay without violation"; }
echo "$out" | grep -qE "l1\[0\] +ReplaceOwned +O>W" && echo "$out" | grep -qE "l1\[0\] +FwdO +W>W" &&
    echo "$out" | grep -A1 "^step 9: op 0 load 0 0" | grep -q "^step 10" &&
    echo "$out" | grep -A1 -E "l1\[0\] +WbAck +W>I" | grep -qE "l1\[0\] +Load +I>BV" ||
    { echo "$out"; fail "W.Load sequence: not the forward in W, the stalled load, the ack"; }
cat >"$tmp/r.cex" <<'END'
protocol spandex-d
l1s 3
lines 2
values 1
ops 2
atomics 0
inflight 1
sync 0
conflict 1
ops_each 2,1,1
devices denovo,denovo,mesi
op 0 store 0 1
deliver l1[0] l2 0
deliver dram l2 0
deliver l2 l1[0] 1
op 0 store 1 1
op 1 store 0 1
deliver l1[1] l2 0
op 2 load 0 0
deliver l1[2] l2 0
deliver l1[0] l2 0
END
out=$("$bin" verify --replay "$tmp/r.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "R.ReqWBStale sequence: expected a replay without violation"; }
echo "$out" | grep -qE "l2 +ReqSOwned +O>R" && echo "$out" | grep -qE "l2 +ReqWBStale +R>R" ||
    { echo "$out"; fail "R.ReqWBStale sequence: no stale write-back in R"; }
n=$((n + 1))

# three lines in one set of two ways: a request meets a line the bank is recalling
# (GPU-VI's S_R.GetS, S_R.Write) while the other way stays in use
reaches "one-set two-way L2 (lines conflict)" "gpuvi.L2.S_R.GetS gpuvi.L2.S_R.Write" \
    --protocol gpuvi --lines 3 --conflict l2 --conflict-ways 2 --ops-each 3,1 --values 1 --no-atomics
# ... and an acquire load of the other way's line passes a request waiting for the
# evicted way while its write-back is in flight (Spandex-D's W.SelfInv)
reaches "one-set two-way L1s (lines conflict)" "spandex.DeNovo-L1.W.SelfInv" \
    --protocol spandex-d --l1s 1 --lines 3 --conflict l1 --conflict-ways 2 --inflight 2 --ops 4 \
    --values 1 --no-atomics --sync --set l1.issue=out-of-order
caught rc-noinv "$tmp/ways.cex" "data value" "data value: l1\[[01]\]'s load of line [012] returned" \
    --ops 3 --lines 3 --conflict l1 --conflict-ways 2
grep -q "^conflict_ways 2$" "$tmp/ways.cex" ||
    { cat "$tmp/ways.cex"; fail "the counterexample does not record --conflict-ways"; }
n=$((n + 1))

# a counterexample under --conflict and --merge-max replays under them
caught rc-noinv "$tmp/noinv.cex" "data value" "data value: l1\[[01]\]'s load of line [01] returned" \
    --ops 3 --lines 2 --conflict l1 --merge-max 1
grep -q "^conflict 1$" "$tmp/noinv.cex" && grep -q "^merge_max 1$" "$tmp/noinv.cex" ||
    { cat "$tmp/noinv.cex"; fail "the counterexample does not record --conflict and --merge-max"; }
n=$((n + 1))

bad "needs --lines 2" --protocol rc --conflict l1
bad "is not l1, l2 or both" --protocol rc --lines 2 --conflict l3
bad "one set of 1 way" --protocol rc --lines 2 --conflict both --set l2.ways=2 --set l2.size=256
bad "--conflict-ways 2 needs --conflict and --lines 3" --protocol rc --lines 2 --conflict l2 --conflict-ways 2
bad "--conflict-ways 2 needs --conflict and --lines 3" --protocol rc --lines 3 --conflict-ways 2
bad "conflict-ways" --protocol rc --lines 3 --conflict l2 --conflict-ways 3
bad "lines" --protocol rc --lines 4
bad "disagree" --protocol rc --merge-max 1 --set l1.merge_max=2
bad "merge-max" --protocol rc --merge-max 9
n=$((n + 1))

echo "verify-conflict: $n passed, 0 failed"
