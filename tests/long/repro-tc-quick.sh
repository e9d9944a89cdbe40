#!/usr/bin/env bash
# gpucoh repro tc at size quick (the README's demo, about 2 minutes on 2 cores)
# says what the spec-002 reproduction said before it became data:
# tests/data/repro-tc-quick/ holds the report and summary.csv the C
# reproduction wrote at quick; tests/data/repro-same.sh says what may differ.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" repro tc --size quick -j 2 --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" ||
    { echo "FAIL: repro exited $?: $(tail -5 "$tmp/log")"; exit 1; }
bash "$root/tests/data/repro-same.sh" "$root/tests/data/repro-tc-quick" "$tmp/report" \
    "$tmp/r/summary.csv" "$root/repro/tc/report.ini" || exit 1
echo ok
