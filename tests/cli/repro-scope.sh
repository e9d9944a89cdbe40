#!/usr/bin/env bash
# An ablation block that runs fewer apps than the main block (the toy of
# tests/data/repro-explain with saxpy added to main; its block l1-small runs
# kmn only). Without `rest` the explain and the calibration compare the main
# block and the ablation over the block's apps alone, before and after, and
# say so; with `rest = main` the apps the block does not run are the main
# block's runs on both sides (an ablation of one app's input). Each number is
# checked against results.csv's cycles; `rest = all` is report.ini:LINE, exit 2.
set -u
bin=$1; root=$2
. "$root/tests/data/repro-toy.sh"

sed -i '0,/^workloads kmn$/s//workloads kmn saxpy/' "$tmp/root/repro/toy/toy.sweep"
run repro toy --size tiny --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" || fail "repro toy: $(cat "$tmp/log")"
# cycles of app $1 under configuration $2 with settings $3
cyc2() { awk -F, -v a="$1" -v c="$2" -v s="$3" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["workload"] == a && $col["config"] == c && $col["settings"] == s { print $col["cycles"] }' "$tmp/r/results.csv"; }
k_nol1=$(cyc2 kmn nol1 ""); k_rc=$(cyc2 kmn rc ""); k_rc4=$(cyc2 kmn rc l1.size=4K)
s_nol1=$(cyc2 saxpy nol1 ""); s_rc=$(cyc2 saxpy rc "")
for v in "$k_nol1" "$k_rc" "$k_rc4" "$s_nol1" "$s_rc"; do
    [ -n "$v" ] || fail "a run is missing from results.csv: $(cat "$tmp/r/results.csv")"
done
# speedup_hm: the harmonic mean of the apps' speedups
read -r k_main k_abl set_main set_abl < <(awk -v a="$k_nol1" -v b="$k_rc" -v c="$k_rc4" \
    -v d="$s_nol1" -v e="$s_rc" 'BEGIN { x = a / b; y = a / c; z = d / e
    printf "%.2f %.2f %.2f %.2f\n", x, y, 2 / (1 / x + 1 / z), 2 / (1 / y + 1 / z) }')
[ "$k_main" != "$set_main" ] || fail "saxpy changes nothing ($k_main): the test shows nothing"
grep -qF "    small-l1: with a 4 KB L1 under NO-COH (block l1-small, l1.size=4K; over its apps kmn): $k_main → $k_abl; paper 9.00" \
    "$tmp/report" || fail "the scoped explain ($k_main → $k_abl): $(grep -A2 '^Fig1 all rc' "$tmp/report")"
grep -qF "    undone (block l1-small, l1.size=4K; before and after over its apps kmn):" "$tmp/report" ||
    fail "the scoped calibration: $(grep -A3 '^l1-size' "$tmp/report")"
grep -qF "      Fig1 all rc over nol1: $k_main → $k_abl; paper 9.00" "$tmp/report" ||
    fail "the calibration's number ($k_main → $k_abl): $(grep -A4 '^l1-size' "$tmp/report")"

# rest = main: saxpy's runs are the main block's on both sides
awk '{ print } $0 == "ablation = l1-small l1.size=4K" || $0 == "undo = l1-small l1.size=4K" { print "rest = main" }' \
    "$tmp/ini" >"$ini"
run repro toy --size tiny --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" || fail "repro toy (rest): $(cat "$tmp/log")"
grep -qF "    small-l1: with a 4 KB L1 under NO-COH (block l1-small, l1.size=4K; apps kmn, the rest the main block's): $set_main → $set_abl; paper 9.00" \
    "$tmp/report" || fail "rest = main ($set_main → $set_abl): $(grep -A2 '^Fig1 all rc' "$tmp/report")"
grep -qF "      Fig1 all rc over nol1: $set_main → $set_abl; paper 9.00" "$tmp/report" ||
    fail "the calibration with rest = main: $(grep -A4 '^l1-size' "$tmp/report")"

n=$(grep -n -m1 -xF "ablation = l1-small l1.size=4K" "$tmp/ini" | cut -d: -f1)
awk -v n="$n" '{ print } NR == n { print "rest = all" }' "$tmp/ini" >"$ini"
run repro toy --lint >"$tmp/o" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] || fail "rest = all: exit $rc, expected 2: $(cat "$tmp/e")"
grep -qF "report.ini:$((n + 1)): rest = all: expected main" "$tmp/e" || fail "rest = all: $(cat "$tmp/e")"
echo "ok: over kmn $k_main → $k_abl; with the rest the main block's $set_main → $set_abl; rest = all refused"
