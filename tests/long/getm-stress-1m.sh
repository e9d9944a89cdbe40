#!/usr/bin/env bash
# Long target: GETM's validation-unit stress tester (tests/unit/660-getm-vu.c)
# at a million transactions, for three seeds: random transactions of 16 warps
# over 24 words with tiny tables, checked for serialisability by replaying the
# commits in timestamp order (docs/transactions.md). About 3 s per seed.
set -u
bin=$1
unit=$(dirname "$bin")/unit-660-getm-vu
for seed in 1 2 3; do
    GETM_STRESS_EPISODES=1000000 GETM_STRESS_SEED=$seed "$unit" || exit 1
done
