#!/usr/bin/env bash
# repro-tiny-same.sh NAME STORED_DIR OUT_DIR - does a fresh `gpucoh repro NAME
# --size tiny` (its output folder OUT_DIR) give the numbers stored in
# repro/NAME/results/tiny (STORED_DIR)? summary.csv, figures.csv and
# plot-data.csv must be the same bytes; report.txt the same but for what
# depends on the call, not on the code measured: the output folder's path and
# the run counts on its second line (how many runs were reused), the line
# saying stored runs were stale, the files line, and the scale check (it
# reads the stored results of its sizes, which change when they are retaken).
# Prints what differs and how to retake the results, and exits 1; or exits 0.
set -u
name=$1; want=$2; got=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
retake="the code this reproduction measures changed since results/tiny was taken: rerun \`gpucoh repro $name --size tiny --store\` and retake the larger sizes"
norm() {
    awk '/^== Scale check: / { skip = 1 } /^files: / { skip = 0 } !skip { print }' "$1" |
    sed -E -e '2s/^([0-9]+ runs) .*$/\1/' -e '/^[0-9]+ of those run now were stored but stale: /d' \
        -e '/^files: /d'
}
bad=""
for f in summary.csv figures.csv plot-data.csv; do
    if ! cmp -s "$want/$f" "$got/$f"; then
        bad="$bad$f differs:"$'\n'"$(diff "$want/$f" "$got/$f" | head -20)"$'\n'
    fi
done
norm "$want/report.txt" >"$tmp/want"
norm "$got/report.txt" >"$tmp/got"
if ! cmp -s "$tmp/want" "$tmp/got"; then
    bad="${bad}report.txt differs:"$'\n'"$(diff "$tmp/want" "$tmp/got" | head -40)"$'\n'
fi
[ -z "$bad" ] && exit 0
printf '%s\n%s%s\n' "repro $name: $retake" "$bad" "repro $name: $retake"
exit 1
