#!/usr/bin/env bash
# table.sh - the simulator-speed table `make bench` prints.
#
# One row per measurement, wall-clock on this machine (so say its load when
# quoting them; bench/README.md records instruction counts too):
#  - memsys: requests per second through L1 -> crossbar -> L2 -> DRAM under
#    rc (bench-memsys: the directed-test driver in place of the SMs);
#  - engine: events per second of the event engine alone (bench-engine);
#  - kmn, spinlock, histogram, stn (memory-bound workloads) at SIZE: thread
#    instructions per second in timing mode (tc-fermi, rc) and in functional
#    mode, and timing as a share of functional;
#  - cl on hmg-scaled under hmg (4 GPUs x 4 GPMs: the sysnet, the L2 banks'
#    release rounds) at SIZE: thread instructions per second in timing mode;
#  - then the explorer of `gpucoh verify`: states, transitions, seconds and
#    states per second for a few protocols at fixed bounds (bench/verify.sh).
# Use: bench/table.sh [BUILD_DIR] (default build); SIZE=small for the issue's
# size (kmn then takes minutes), WORKLOADS="..." to choose.
# SPDX-License-Identifier: BSD-3-Clause
set -eu
build=${1:-build}
size=${SIZE:-quick}
workloads=${WORKLOADS:-kmn spinlock histogram stn}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# speed FILE.json: "<thread insts/s> <wall s>" from a run's statistics
speed() {
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["speed"]; print(s["thread_insts_per_second"], s["wall_seconds"])' "$1"
}

printf '%-22s %-12s %14s %10s  %s\n' benchmark mode figure wall_s unit
memsys=$("$build/bench-memsys")
rate=$(sed -n 's/.* = \([0-9.]*\) M requests\/s.*/\1/p' <<<"$memsys")
wall=$(sed -n 's/.* requests in \([0-9.]*\) s.*/\1/p' <<<"$memsys")
printf '%-22s %-12s %14s %10s  %s\n' memsys timing/rc "$rate" "$wall" "M requests/s"
engine=$("$build/bench-engine")
rate=$(sed -n 's/.* = \([0-9.]*\) M events\/s.*/\1/p' <<<"$engine")
wall=$(sed -n 's/.* events in \([0-9.]*\) s.*/\1/p' <<<"$engine")
printf '%-22s %-12s %14s %10s  %s\n' engine - "$rate" "$wall" "M events/s"
for w in $workloads; do
    "$build/gpucoh" run --workload "$w" --size "$size" --protocol rc --stats "$tmp/t.json" >/dev/null
    "$build/gpucoh" run --workload "$w" --size "$size" --functional --stats "$tmp/f.json" >/dev/null
    read -r ti tw <<<"$(speed "$tmp/t.json")"
    read -r fi fw <<<"$(speed "$tmp/f.json")"
    awk -v w="$w-$size" -v ti="$ti" -v tw="$tw" -v fi="$fi" -v fw="$fw" 'BEGIN {
        printf "%-22s %-12s %14.2f %10.2f  %s\n", w, "timing/rc", ti / 1e6, tw, "M thread insts/s"
        printf "%-22s %-12s %14.2f %10.2f  %s\n", w, "functional", fi / 1e6, fw, "M thread insts/s"
        printf "%-22s %-12s %13.1f%% %10s  %s\n", w, "timing/func", 100 * ti / fi, "", "of functional rate"
    }'
done
# the multi-GPM path: 16 GPMs' L2 banks, the sysnet between them
"$build/gpucoh" run --workload cl --size "$size" --protocol hmg --config configs/hmg-scaled.ini \
    --stats "$tmp/m.json" >/dev/null
read -r mi mw <<<"$(speed "$tmp/m.json")"
awk -v w="cl-$size" -v mi="$mi" -v mw="$mw" 'BEGIN {
    printf "%-22s %-12s %14.2f %10.2f  %s\n", w, "hmg-scaled", mi / 1e6, mw, "M thread insts/s"
}'
echo
"$(dirname "$0")/verify.sh" "$build"
