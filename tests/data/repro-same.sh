#!/usr/bin/env bash
# repro-same.sh STORED_DIR REPORT SUMMARY REPORT_INI - does a repro report from
# the generic engine say what the stored one (written by the spec-002
# reproduction in C before it became data) said? summary.csv must be the same
# bytes; the report the same except (1) the output folder's path, (2) the
# files line, which now names the plot data and PNGs, and (3) each claim's
# detail after its text: a claim is now an expression and its detail lists
# the expression's values ("speedup(inter, tcw) 1.17") where the C code wrote
# prose ("gpucoh 1.17"), and (4) the line under each claim quoting the paper's
# sentence it tests, which the C code did not print, and (5) the effect ratio
# and direction of each of the paper's numbers (and summary.csv's table of
# them), which the C code did not compute. The verdicts and the claims' texts
# must be the same; the claim no-inv, removed because it could not fail, is
# gone from the stored reports. (6) The size in every section's title, the
# misses section and the calibrations section came later too and are left
# out, as is a claim's `[rests on calibration NAME]` flag. (7) The run count:
# the sweep has grown since (the replicas on other inputs, whose spread
# section, after the misses, is left out too).
# Prints what differs and exits 1, or exits 0.
set -u
want=$1; report=$2; sum=$3; ini=$4
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# summary.csv's first table (per set and configuration) is the stored one; the
# second, the paper's numbers with their effect ratios, came later
sed '/^$/,$d' "$sum" >"$tmp/sum"
cmp -s "$want/summary.csv" "$tmp/sum" || { echo "summary.csv differs: $(diff "$want/summary.csv" "$tmp/sum")"; exit 1; }
texts=$(sed -n 's/^text = //p' "$ini")
norm() {
    # (5) the effect ratio and direction columns of the paper's numbers and the
    # two lines that explain them, which came later, are left out
    awk '/^== (Misses and the ablations|Calibrations: )/ { skip = 1 } /^files: / { skip = 0 }
         !skip { print }' "$1" |
    sed -E -e 's/ \(size [a-z]+\)( ==)?$/\1/' -e 's/ \[rests on calibration [^]]*\]//g' \
        -e '/^files: /d' -e '/^    the paper: /d' -e '2s/ in .*$/ in DIR/' -e '2s/\([0-9]+ run now, [0-9]+ from before/(RUNS/' -e '2s/^[0-9]+ runs \(/N runs (/' \
        -e '/^\(effect: /d' -e '/^ effect, 0 none/d' -e 's/gpucoh effect dir  verdict$/gpucoh  verdict/' \
        -e 's/^(.{66}) +(-?[0-9]+\.[0-9]{2}|n\/a) (✓  |✗  |n\/a)  /\1  /' -e 's/^(.{58} {7}-) {13}/\1  /' |
        awk -v texts="$texts" 'BEGIN { n = split(texts, t, "\n") }
            /^\[(holds|does not hold|cannot check)\] / {
                for (i = 1; i <= n; i++) if (t[i] != "" && index($0, t[i])) {
                    print substr($0, 1, index($0, t[i]) + length(t[i]) - 1); next }
                print "UNKNOWN CLAIM " $0; next }
            { print }'
}
norm "$want/report.txt" >"$tmp/want"
norm "$report" >"$tmp/got"
if grep -q "UNKNOWN CLAIM" "$tmp/want" "$tmp/got"; then
    echo "a claim's text changed: $(grep -h "UNKNOWN CLAIM" "$tmp/want" "$tmp/got")"; exit 1
fi
n=$(grep -c '^\[' "$tmp/want")
[ "$(grep -c '^\[' "$tmp/got")" -eq "$n" ] || { echo "expected $n claims"; exit 1; }
diff "$tmp/want" "$tmp/got" >"$tmp/diff" || { echo "the report differs from $want: $(cat "$tmp/diff")"; exit 1; }
