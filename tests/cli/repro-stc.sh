#!/usr/bin/env bash
# gpucoh repro stc at tiny: every run of repro/stc/stc.sweep finishes (all
# 16 benchmarks under SRC, the four STC variants and TCS on stc-gcn, and the
# sensitivity and scaling blocks), every figure is drawn and every claim gets
# a verdict computed from values (none is left unknown). The verdicts at tiny
# are not the paper's shape; tests/long/repro-stc-quick.sh runs the quick size
# and repro/stc/README.md says what it shows. The numbers must be those stored
# in repro/stc/results/tiny (the tiny check, tests/data/repro-tiny-same.sh).
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$bin" repro stc --size tiny -j 2 --out "$tmp/r" >"$tmp/report" 2>"$tmp/log"; rc=$?
[ $rc -eq 0 ] || fail "repro exited $rc: $(tail -20 "$tmp/log")"
# (a verdict line; the spread section counts replicas that cannot check a
# claim on a block the replicas do not repeat)
grep -q '^\[cannot check\]' "$tmp/report" &&
    fail "a claim could not be checked: $(grep '^\[cannot check\]' "$tmp/report")"
n=$(grep -c '^\[holds\]\|^\[does not hold\]' "$tmp/report")
[ "$n" -eq "$(grep -c '^\[claim ' "$root/repro/stc/report.ini")" ] || fail "$n verdicts"
for f in fig8-reuse fig8-other fig9 fig10 fig11 period epochs bsq-size; do
    [ -s "$tmp/r/$f.svg" ] || fail "no $f.svg"
done
grep -q '^stc-reuse,stc-mb,' "$tmp/r/summary.csv" || fail "summary.csv: $(cat "$tmp/r/summary.csv")"
# the tiny check (docs/repro.md): the numbers stored in repro/stc/results/tiny
bash "$root/tests/data/repro-tiny-same.sh" stc "$root/repro/stc/results/tiny" "$tmp/r" >"$tmp/tiny" ||
    fail "$(cat "$tmp/tiny")"
echo "repro-stc: 1 passed, 0 failed"
