#!/usr/bin/env bash
# gpucoh repro NAME --size S --store keeps the results with the code:
# repro/NAME/results/S/ holds report.txt, summary.csv, figures.csv and
# plot-data.csv (the same bytes as the output folder's) and a provenance file
# (size, commit, date, wall time, host cores). Storing again replaces the
# folder whole and leaves no temporary folder. Runs the made-up reproduction
# of tests/data/repro-explain in a copy (GPUCOH_ROOT).
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$tmp/root"
cp -r "$root/tests/data/repro-explain/repro" "$tmp/root/"
ln -s "$root/tools" "$tmp/root/tools"
ln -s "$root/configs" "$tmp/root/configs"
run() { GPUCOH_ROOT=$tmp/root "$bin" "$@"; }
res=$tmp/root/repro/toy/results

run repro toy --size tiny --out "$tmp/r" --store >"$tmp/report" 2>"$tmp/log" || fail "store: $(cat "$tmp/log")"
grep -qF "repro toy: results stored in $res/tiny" "$tmp/log" || fail "no stored line: $(cat "$tmp/log")"
for f in report.txt summary.csv figures.csv plot-data.csv; do
    cmp -s "$tmp/r/$f" "$res/tiny/$f" || fail "$f differs from the output folder's"
done
p=$res/tiny/provenance
grep -qx "size = tiny" "$p" || fail "provenance size: $(cat "$p")"
grep -qE "^commit = (unknown \(not a git checkout\)|[0-9a-f]{7,}(-dirty)?)$" "$p" || fail "commit: $(cat "$p")"
grep -qE "^date = 20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-9:]{8}Z$" "$p" || fail "date: $(cat "$p")"
grep -qE "^wall_seconds = [0-9]+\.[0-9]$" "$p" || fail "wall time: $(cat "$p")"
grep -qx "host_cores = $(nproc --all 2>/dev/null || nproc)" "$p" || grep -qE "^host_cores = [1-9][0-9]*$" "$p" ||
    fail "cores: $(cat "$p")"
grep -qx "runs = 3" "$p" && grep -qx "runs_run_now = 3" "$p" && grep -qx "runs_failed = 0" "$p" ||
    fail "runs: $(cat "$p")"
head -1 "$res/tiny/report.txt" | grep -qF "at size tiny" || fail "report header lacks the size"

# again: the folder is replaced (now every run is reused), nothing else is left
echo stale >"$res/tiny/old-file"
run repro toy --size tiny --out "$tmp/r" --store >/dev/null 2>"$tmp/log" || fail "store again: $(cat "$tmp/log")"
[ ! -e "$res/tiny/old-file" ] || fail "the old folder was not replaced"
grep -qx "runs_run_now = 0" "$res/tiny/provenance" || fail "second provenance: $(cat "$res/tiny/provenance")"
[ "$(ls -A "$res")" = tiny ] || fail "left behind: $(ls -A "$res")"
echo "ok: results/tiny stored with provenance, replaced whole"
