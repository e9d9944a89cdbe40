#!/usr/bin/env bash
# verify.sh - the explorer's speed (`gpucoh verify`, docs/verify.md): states,
# transitions, seconds, states per second and memory for a few protocols at
# fixed bounds (2 L1s x 1 line x 2 values, 2 operations per L1, one in flight,
# atomics on; Spandex also with one MESI CPU L1 beside a DeNovo one). Wall-clock
# on this machine, so quote the load with it; speed changes are judged by
# instruction counts (callgrind; bench/README.md).
# Use: bench/verify.sh [BUILD_DIR] (default build); PROTOS="rc mesi" to choose
# (an entry NAME:DEVICES runs NAME with --devices DEVICES).
# SPDX-License-Identifier: BSD-3-Clause
set -eu
build=${1:-build}
protos=${PROTOS:-rc mesi spandex-g spandex-d spandex-d:denovo,mesi}

printf '%-26s %10s %12s %6s %9s %10s %8s\n' protocol states transitions depth seconds states/s MiB
for e in $protos; do
    name=${e%%:*}
    args=(--protocol "$name")
    [ "$e" != "$name" ] && args+=(--devices "${e#*:}")
    line=$("$build/gpucoh" verify "${args[@]}" | grep "^verify $name ")
    awk -v p="$e" '{
        match($0, /[0-9]+ states/); st = substr($0, RSTART, RLENGTH - 7)
        match($0, /[0-9]+ transitions/); tr = substr($0, RSTART, RLENGTH - 12)
        match($0, /depth [0-9]+/); d = substr($0, RSTART + 6, RLENGTH - 6)
        match($0, /[0-9.]+ s,/); s = substr($0, RSTART, RLENGTH - 3)
        match($0, /[0-9.]+ MiB/); m = substr($0, RSTART, RLENGTH - 4)
        ok = $0 ~ / verified:/ ? "" : " (not verified)"
        printf "%-26s %10s %12s %6s %9s %10.0f %8s%s\n", p, st, tr, d, s, (s > 0 ? st / s : 0), m, ok
    }' <<<"$line"
done
