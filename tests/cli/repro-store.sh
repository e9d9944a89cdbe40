#!/usr/bin/env bash
# gpucoh repro NAME --size S --store keeps the results with the code:
# repro/NAME/results/S/ holds report.txt, summary.csv, figures.csv and
# plot-data.csv (the same bytes as the output folder's) and a provenance file
# (size, commit, date, wall time, host cores). Storing again replaces the
# folder whole and leaves no temporary folder. Runs the made-up reproduction
# of tests/data/repro-explain in a copy (GPUCOH_ROOT); then its scale check
# against a made-up stored quick result.
set -u
bin=$1; root=$2
. "$root/tests/data/repro-toy.sh"
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
# every run's own wall time summed, and the longest: the sum at least the longest (each printed to
# 0.1 s, so a toy run of a few milliseconds may print 0.0)
python3 - "$p" <<'PY' || fail "run seconds: $(cat "$p")"
import configparser, sys
c = configparser.ConfigParser(inline_comment_prefixes=("#",))
c.read(sys.argv[1])
p = c["provenance"]
s, m = float(p["run_seconds"]), float(p["longest_run_seconds"])
sys.exit(0 if 0 <= m <= s + 0.05 else 1)
PY
run_s=$(grep -E "^run_seconds = " "$p")
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
# the reused runs keep their own wall times: the sum is the first call's
grep -qx "$run_s" "$res/tiny/provenance" || fail "run_seconds changed on reuse: $(cat "$res/tiny/provenance")"
[ "$(ls -A "$res")" = tiny ] || fail "left behind: $(ls -A "$res")"


# the scale check ([scale_check] sizes = tiny quick, factor 2) compares this
# run at tiny with the stored results at quick: a made-up results/quick, the
# tiny one with a claim's verdict flipped and an effect ratio 3 times as large.
# The stored tiny is made wrong the same way, and must not be read: a --store
# at tiny replaces it only after the report is written.
cp -r "$res/tiny" "$res/quick"
sed -i 's/^\[holds\] all: NO-COH more than 1.3/[does not hold] all: NO-COH more than 1.3/' "$res/quick/report.txt"
awk -F, -v OFS=, '$1 == "Fig1" && $3 == "" { $9 = sprintf("%.4f", $9 * 3) } { print }' "$res/tiny/summary.csv" >"$res/quick/summary.csv"
e=$(awk -F, '$1 == "Fig1" && $3 == "" { printf "%.2f", $9 }' "$res/tiny/summary.csv")
e3=$(awk -F, '$1 == "Fig1" && $3 == "" { printf "%.2f", $9 }' "$res/quick/summary.csv")
ek=$(awk -F, '$1 == "Fig1" && $3 == "kmn" { printf "%.2f", $9 }' "$res/tiny/summary.csv")
cp "$res/quick/report.txt" "$res/quick/summary.csv" "$res/tiny/"
run repro toy --size tiny --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" || fail "scale check run: $(cat "$tmp/log")"
sed -n '/^== Scale check: tiny against quick (this run at tiny, the stored results at quick) ==$/,/^files: /p' "$tmp/report" >"$tmp/sc"
[ -s "$tmp/sc" ] || fail "no scale check: $(cat "$tmp/report")"
grep -qxF "results/tiny: this run" "$tmp/sc" || fail "this run's line: $(cat "$tmp/sc")"
grep -qE "^results/quick: 20[0-9-]+T[0-9:]+Z, commit " "$tmp/sc" || fail "provenance line: $(cat "$tmp/sc")"
grep -qxF "claim rc-gains: [holds] at tiny, [does not hold] at quick: NOT stable" "$tmp/sc" || fail "flipped claim: $(cat "$tmp/sc")"
grep -qxF "claim rc-fast: [does not hold] at tiny, [does not hold] at quick: stable" "$tmp/sc" || fail "same claim: $(cat "$tmp/sc")"
grep -qxF "Fig1 all rc speedup_hm over nol1: effect $e at tiny, $e3 at quick: NOT stable" "$tmp/sc" || fail "effect x3: $(cat "$tmp/sc")"
grep -qxF "Fig1 all kmn rc speedup over nol1: effect $ek at tiny, $ek at quick: stable" "$tmp/sc" || fail "same effect: $(cat "$tmp/sc")"
grep -qxF "1 of 2 claims and 1 of 2 effect ratios stable between tiny and quick" "$tmp/sc" || fail "count: $(cat "$tmp/sc")"
# at quick, tiny's side is the stored results (now the made-up ones)
run repro toy --size quick --out "$tmp/q" >"$tmp/report" 2>"$tmp/log" || fail "scale check at quick: $(cat "$tmp/log")"
sed -n '/^== Scale check: tiny against quick (this run at quick, the stored results at tiny) ==$/,/^files: /p' "$tmp/report" >"$tmp/sc"
grep -q "^claim rc-gains: \[does not hold\] at tiny, " "$tmp/sc" ||
    fail "at quick, the stored tiny was not read: $(cat "$tmp/sc")"
echo "ok: the scale check finds the flipped verdict and the tripled effect ratio, and reads this run, not the stored results, at its own size"
