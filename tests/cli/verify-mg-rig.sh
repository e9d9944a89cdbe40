#!/usr/bin/env bash
# gpucoh verify's multi-GPM rig options (docs/verify.md, "Several GPMs" and "Against the
# stress tester"): --gpm-sms 2 puts two L1s on one GPM's bank, so a second L1 release
# reaches the bank while its round runs (nhcc.Rounds' Round.Release, AnsweredMore);
# --ops-each bounds each core's operations, so that hmg on 2 GPUs x 2 GPMs, where a GPU
# home is not the system home, reaches its forwarding slots and Dir.V.Inv in seconds;
# and a core with two in flight may load its own store's value from its bank's copy
# before the remote home performs it (nhcc's L2.IR.Load, IRX.Load); --line-pages puts
# each line on a page of its own. Each run verifies
# (exit 0) and reaches its cells (a count above 0 in --coverage); bad values exit 2.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, reaches, bad

reaches "^verify nhcc .* verified: .*1 GPU x 2 GPMs of 2 SMs" \
    "nhcc.Rounds.Round.Release nhcc.Rounds.Round.AnsweredMore" \
    --protocol nhcc --l1s 4 --gpm-sms 2 --ops-each 2,2,0,0 --values 1
reaches "^verify hmg .* verified: .*2 GPUs x 2 GPMs" \
    "nhcc.Slots.Fwd.Count nhcc.Slots.Fwd.InvAck nhcc.Slots.Inv.Count nhcc/hmg.Dir.V.Inv" \
    --protocol hmg --l1s 4 --gpus 2 --ops-each 1,1,0,1 --values 1 --no-atomics
reaches "^verify nhcc .* verified: .*3 ops per L1" "nhcc.L2.IR.Load nhcc.L2.IRX.Load" \
    --protocol nhcc --inflight 2 --ops 3 --ops-each 3,1 --values 1 --no-atomics --merge-max 0
# two lines on pages of their own: one bank the home of one line, a remote cache of
# the other, whose answer finds the one way held by a home line (IR.FillNoWay)
reaches "^verify nhcc .* verified: .*a page per line" "nhcc.L2.IR.FillNoWay" \
    --protocol nhcc --lines 2 --line-pages --conflict l2 --values 1 --no-atomics

# a counterexample header carries both: two SMs' loads reach GPM 0's one bank
printf 'protocol nhcc\nl1s 4\nlines 1\nvalues 1\nops 1\natomics 0\ninflight 1\nsync 0\ngpus 1\ngpm_sms 2\nops_each 1,1,0,0\nop 0 load 0 0\nop 1 load 0 0\ndeliver l1[0] l2[0] 0\ndeliver l1[1] l2[0] 0\n' >"$tmp/two.cex"
out=$("$bin" verify --replay "$tmp/two.cex" 2>&1)
[ $? -eq 0 ] || { echo "$out"; fail "two SMs replay: expected exit 0"; }
echo "$out" | grep -q "^replay nhcc: 4 steps, no violation" || { echo "$out"; fail "two SMs replay"; }
[ "$(echo "$out" | grep -c '^ .* l2\[0\] .*HLoad')" -ge 1 ] || { echo "$out"; fail "two SMs replay: no bank load"; }
n=$((n + 1))
sed -i 's/^ops_each 1,1,0,0$/ops_each 1,1/' "$tmp/two.cex"
out=$("$bin" verify --replay "$tmp/two.cex" 2>&1)
[ $? -eq 2 ] || { echo "$out"; fail "ops_each of 2 for 4 L1s: expected exit 2"; }
n=$((n + 1))

bad "--gpm-sms" --protocol nhcc --l1s 4 --gpm-sms 3
bad "--gpm-sms 2" --protocol nhcc --l1s 3 --gpm-sms 2
bad "--gpm-sms 2: protocol 'rc'" --protocol rc --gpm-sms 2
bad "--ops-each 1,1: 2 bounds for 4 L1s" --protocol nhcc --l1s 4 --ops-each 1,1
bad "--ops-each 0,0: every bound is 0" --protocol nhcc --ops-each 0,0
bad "--ops-each" --protocol nhcc --ops-each 1,x
bad "--symmetry" --protocol rc --symmetry on --ops-each 1,0
bad "--line-pages: protocol 'rc'" --protocol rc --lines 2 --line-pages

echo "verify-mg-rig: $n passed, 0 failed"
