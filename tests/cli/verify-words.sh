#!/usr/bin/env bash
# gpucoh verify's options that close gaps against the stress tester
# (docs/verify.md, "Against the stress tester"): --words 2 (Spandex: the cores
# use words 0 and 1 of one line, so part of a line is owned, forwarded or
# revoked while other words stay) and --plain-only / --plain with --inflight
# (getm, warptm: plain operations several in flight, without transactions).
# Each run verifies and reaches cells that no run without the option reached;
# a counterexample under --words replays under it; bad values exit 2. About
# 10 CPU seconds.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field, reaches, bad

# DeNovo: a load of word 1 while word 0 is owned (O.Load), a load hit on word 0
# while a ReqO for word 1 is out (BO.LoadHit), a store to word 0 waiting behind
# a ReqV for word 1 (BV.StoreHit); 789 states
reaches "words 0..1 of one" \
    "spandex.DeNovo-L1.O.Load spandex.DeNovo-L1.O.Store spandex.DeNovo-L1.BO.LoadHit spandex.DeNovo-L1.BV.StoreHit" \
    --protocol spandex-d --l1s 1 --words 2 --inflight 2 --ops 3 --values 1
# a MESI device's ReqS revoking the DeNovo L1's word 0 while its ReqO or ReqV
# for word 1 is out (BO.RvkO, BV.RvkO), the LLC gathering two owners' words
# (G.FwdRsp; 45 612 states)
reaches "words 0..1 of one" \
    "spandex.DeNovo-L1.BO.RvkO spandex.DeNovo-L1.BV.RvkO spandex.LLC.G.FwdRsp" \
    --protocol spandex-d --devices denovo,mesi --words 2 --ops 2 --values 1
# GETM's and WarpTM's L1 (rc's) with two plain operations in flight, no
# transactions: the II and IV rows (13 077 states)
for p in getm warptm; do
    reaches "plain accesses only" "rc.L1.II.Load rc.L1.II.Store rc.L1.IV.Load rc.L1.IV.FlashInv" \
        --protocol $p --plain-only --inflight 2 --ops 2 --values 1 --no-atomics
done
# with transactions too: a plain operation behind another, then an attempt
reaches "plain accesses" "rc.L1.IV.Load getm.VU.Free.TxLd" \
    --protocol getm --plain --inflight 2 --ops 2 --values 1 --no-atomics --l1s 1

# a counterexample under --words replays under it (the file records it)
caught spandex-d-noinv "$tmp/w.cex" "data value" "data value: l1\[[01]\]'s load of line [01] returned" \
    --words 2 --ops 3 --values 1 --no-atomics
grep -q "^words 2$" "$tmp/w.cex" || { cat "$tmp/w.cex"; fail "the counterexample does not record --words"; }
n=$((n + 1))

bad "'3' is not a whole number from 1 to 2" --protocol spandex-d --words 3
bad "two words of one line (--lines 1)" --protocol spandex-d --words 2 --lines 2
bad "keeps state per line" --protocol rc --words 2
bad "puts both locations in one line" --protocol spandex-d --words 2 --conflict l1
bad "protocol 'rc' has no transactions" --protocol rc --plain-only
bad "name one" --protocol getm --plain --plain-only
bad "values at most 3" --protocol warptm --plain-only --values 4
n=$((n + 1))

echo "verify-words: $n passed, 0 failed"
