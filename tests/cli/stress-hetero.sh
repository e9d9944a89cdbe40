#!/usr/bin/env bash
# Heterogeneous stress (docs/cpu.md): on configs/spandex.ini the DRF random
# tester gives agents to the 16 CPU cores' L1s as well as the 16 SMs', so
# episodes move data between CPU and GPU L1s of different kinds, with tiny
# caches and the invariant observers on (golden memory, single owner per
# word, bounded ownership retries): 20 K episodes under each of the paper's
# four static designs (SDD, SDG, SMD, SMG), and under SMD with the DeNovo
# GPU L1s drawing every request type and ownership mask at random (30% of
# owner predictions sent to a wrong L1, MESI CPU L1s among them, which Nack
# forwarded and predicted requests). tests/long/spandex-cpu.sh runs 1 M.
set -u
bin=$1; root=$2
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0
for design in spandex-d:denovo spandex-g:denovo spandex-d:mesi spandex-g:mesi; do
    p=${design%:*} dev=${design#*:}
    out=$("$bin" stress --config "$root/configs/spandex.ini" --protocol $p --set cpu.device=$dev \
        --episodes 20000 --small-caches --check 2>&1) || { echo "$out" | head -40; fail "stress $design"; }
    echo "$out" | grep -q "^stress $p *passed: 20000 episodes" || fail "stress $design: no pass line"
    n=$((n + 1))
done
out=$("$bin" stress --config "$root/configs/spandex.ini" --protocol spandex-d --set cpu.device=mesi \
    --episodes 20000 --small-caches --check --set fcs.random=true --set fcs.mispredict=30 \
    --stats "$tmp/s.json" 2>&1) || { echo "$out" | head -40; fail "stress SMD, random request types"; }
echo "$out" | grep -q "^stress spandex-d *passed: 20000 episodes" || fail "stress SMD random: no pass line"
nacks=$(grep -Po '"cpu\[[0-9]+\].l1.nacks_sent":\s*\K[0-9]+' "$tmp/s.json" | awk '{s += $1} END {print s + 0}')
[ "$nacks" -gt 0 ] || fail "no MESI CPU L1 Nacked a forwarded or predicted request"
n=$((n + 1))
echo "stress-hetero: $n passed, 0 failed"
