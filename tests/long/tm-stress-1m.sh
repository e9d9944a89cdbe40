#!/usr/bin/env bash
# Long target: the transactional-memory stress tester on the timing machine
# (tests/unit/662-tm-stress.c) at a million transactions for GETM and for
# WarpTM: random transactions from every SM over 64 words with tiny validation
# tables, checked for serialisability (docs/transactions.md); GETM also with
# 11-bit timestamps, rolling over about every 150 transactions. Every test of
# the file runs, the variants WarpTM-EL and EAPG at a million too, and the four
# designs with the smallest tables and the serialising fallback (every run
# also checked for forward progress).
set -u
bin=$1
unit=$(dirname "$bin")/unit-662-tm-stress
TM_STRESS_EPISODES=1000000 TM_STRESS_SEED=2 "$unit" || exit 1
