#!/usr/bin/env bash
# Spandex under a 4-line LLC (256 bytes, 2 sets of 2 ways, one bank), which
# many L1s thrash: two failures the DRF random tester found there.
# - The MESI CPU L1 took an RvkO for a Modified line only with a TBE and a
#   request slot free for writing the other words back; its TBEs all waited
#   on ReqO grants that the LLC served only after the RvkO's answer (both
#   ways of the set revoking), so the watchdog fired (exit 3). An RvkO now
#   gives the whole line back when that room is missing (mesi_l1.c).
# - The tester matched responses to requests in a fixed ring by id; a
#   request served ~390 K cycles late met a slot a later request had reused:
#   a wrong value reported (exit 1) or a hang. The ring now grows instead.
set -u
bin=$1; root=$2
fail() { echo "FAIL: $*"; exit 1; }
n=0
small="--small-caches --config $root/configs/spandex.ini --set l2.size=256 --set l2.banks=1"
# shellcheck disable=SC2086
out=$("$bin" stress --protocol spandex-g $small --set cpu.device=mesi --set gpu.sms=1 \
    --set cpu.cores=1 --warps 16 --episodes 2000 --check 2>&1) ||
    { echo "$out" | head -40; fail "SMG, one SM, one MESI CPU core"; }
echo "$out" | grep -q "^stress spandex-g *passed: 2000 episodes" || fail "SMG: no pass line"
n=$((n + 1))
# shellcheck disable=SC2086
out=$("$bin" stress --protocol spandex-d $small --episodes 1500 2>&1) ||
    { echo "$out" | head -40; fail "SDD, a late response"; }
echo "$out" | grep -q "^stress spandex-d *passed: 1500 episodes" || fail "SDD: no pass line"
n=$((n + 1))
echo "stress-spandex-small-llc: $n passed, 0 failed"
