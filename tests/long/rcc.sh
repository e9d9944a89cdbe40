#!/usr/bin/env bash
# Long target: 1 M DRF stress episodes of rccsc (under order.model = sc) and
# rccwo with small caches, the invariant observers on and a 12-bit stored
# timestamp width (rollover throughout), and 200 K with the worked example's
# fixed lease of 10 and a fast livelock guard.
set -u
bin=$1
"$bin" stress --protocol rccsc --set order.model=sc --set rcc.ts_bits=12 --episodes 1000000 \
    --small-caches --check || exit 1
"$bin" stress --protocol rccwo --set rcc.ts_bits=12 --episodes 1000000 --small-caches --check || exit 1
"$bin" stress --protocol rccsc --set order.model=sc --set rcc.ts_bits=12 --set rcc.lease=fixed:10 \
    --set rcc.livelock_cycles=20 --episodes 200000 --small-caches --check --seed 7 || exit 1
