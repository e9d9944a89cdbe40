#!/usr/bin/env bash
# gpucoh repro chopin (thesis Chapter 6 as data on the reproduction engine,
# about 30 s on 2 cores) says what the hand-written `gpucoh chopin repro` said
# before it became data: tests/data/repro-chopin-c/report.txt is that
# command's report, and tests/data/chopin-same.py compares every number of its
# tables and its claim verdicts with the engine's.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" repro chopin -j 2 --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" ||
    { echo "FAIL: repro exited $?: $(tail -5 "$tmp/log")"; exit 1; }
/usr/bin/python3 "$root/tests/data/chopin-same.py" "$root/tests/data/repro-chopin-c/report.txt" "$tmp/r" ||
    { echo "FAIL: repro chopin differs from the hand-written reproduction"; exit 1; }
echo ok
