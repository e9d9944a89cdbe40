#!/usr/bin/env bash
# Heterogeneous stress (docs/cpu.md): on configs/spandex.ini the DRF random
# tester gives agents to the 16 CPU cores' L1s as well as the 16 SMs', so
# episodes move data between CPU and GPU L1s of different kinds, with tiny
# caches and the invariant observers on (golden memory, single owner per
# word, bounded ownership retries): 20 K episodes under each of the paper's
# four static designs (SDD, SDG, SMD, SMG). tests/long/spandex-cpu.sh runs
# 1 M.
set -u
bin=$1; root=$2
fail() { echo "FAIL: $*"; exit 1; }
n=0
for design in spandex-d:denovo spandex-g:denovo spandex-d:mesi spandex-g:mesi; do
    p=${design%:*} dev=${design#*:}
    out=$("$bin" stress --config "$root/configs/spandex.ini" --protocol $p --set cpu.device=$dev \
        --episodes 20000 --small-caches --check 2>&1) || { echo "$out" | head -40; fail "stress $design"; }
    echo "$out" | grep -q "^stress $p *passed: 20000 episodes" || fail "stress $design: no pass line"
    n=$((n + 1))
done
echo "stress-hetero: $n passed, 0 failed"
