#!/usr/bin/env bash
# repro-tiny.sh BIN ROOT NAME - the tiny check of one reproduction (a default
# test, cli/repro-tiny-NAME, for every repro/NAME/results/tiny/): rerun
# `gpucoh repro NAME --size tiny` and compare it with the stored tiny results
# (repro-tiny-same.sh). A difference means the code the reproduction measures
# changed since its results were taken.
set -u
bin=$1; root=$2; name=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" repro "$name" --size tiny -j 2 --out "$tmp/r" >/dev/null 2>"$tmp/log"; rc=$?
# exit 1 is a run that failed its check: a result too, compared like the others
[ $rc -le 1 ] || { echo "FAIL: repro $name exited $rc: $(tail -20 "$tmp/log")"; exit 1; }
bash "$root/tests/data/repro-tiny-same.sh" "$name" "$root/repro/$name/results/tiny" "$tmp/r" ||
    { echo "FAIL"; exit 1; }
echo "ok: repro $name at tiny gives the stored results"
