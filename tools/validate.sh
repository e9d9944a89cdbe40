#!/usr/bin/env bash
# validate.sh - gpucoh against GPGPU-Sim on the same programs (docs/validation.md).
#
#   tools/validate.sh [--size tiny|quick] [-j N] [--out DIR]
#
# Runs validation/validation.sweep on gpucoh (resumable: a second call reuses
# finished runs), writes gpucoh's figures as DIR/gpucoh-SIZE.csv with the
# columns of the committed GPGPU-Sim data (validation/gpgpusim/tc-SIZE.csv),
# and compares the two with tools/validate_report.py: DIR/report.md (per
# workload and baseline the cycle ratio, both simulators' instructions, hit
# rates and DRAM accesses; per baseline the correlation and mean absolute
# error of cycles) and DIR/cycles.svg/.png (the scatter plot). `make
# validate` runs it with the defaults (size tiny, -j 2,
# results/validate-tiny). GPGPU-Sim itself is not run: its side is data.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
size=tiny jobs=2 out=
while [ $# -gt 0 ]; do
    case $1 in
    --size) size=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h | --help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "validate.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
    esac
done
out=${out:-$root/results/validate-$size}
reference=$root/validation/gpgpusim/tc-$size.csv
[ -f "$reference" ] || { echo "validate.sh: no GPGPU-Sim data for size $size ($reference)" >&2; exit 2; }
# The RCC, strong-ordering and GETM sets' GPGPU-Sim data, where it exists.
references=("$reference")
for set in rcc so getm; do
    [ -f "$root/validation/gpgpusim/$set-$size.csv" ] && references+=("$root/validation/gpgpusim/$set-$size.csv")
done
gpucoh=${GPUCOH:-$root/build/gpucoh}

# A failed run is reported by the report (check column), not here.
"$gpucoh" sweep "$root/validation/validation.sweep" --size "$size" -j "$jobs" --out "$out" || true
/usr/bin/python3 "$root/tools/validate_report.py" --gpucoh-runs "$out/runs" \
    --gpgpusim "${references[@]}" --out "$out"
