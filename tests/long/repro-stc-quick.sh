#!/usr/bin/env bash
# gpucoh repro stc at size quick (320 runs; repro/stc/README.md gives the time
# on 2 cores and what the report shows): every run finishes and every claim
# gets a verdict.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" repro stc --size quick -j 2 --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" ||
    { echo "FAIL: repro exited $?: $(tail -5 "$tmp/log")"; exit 1; }
! grep -q '^\[cannot check\]' "$tmp/report" || { echo "FAIL: a claim could not be checked"; exit 1; }
grep -E '^\[(holds|does not hold)\]' "$tmp/report"
echo ok
