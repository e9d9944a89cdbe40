#!/usr/bin/env bash
# [calibration NAME] in report.ini, on the made-up reproduction of
# tests/data/repro-explain: a calibration undone by an ablation block (NO-COH
# with a 4 KB L1) is listed under the figure it affects; the claim whose
# verdict flips when it is undone (NO-COH over 1.3x NO-L1: 1.63 -> 1.13) is
# flagged [rests on calibration l1-size], the one that does not flip is not;
# the calibrations section gives the undone numbers, and a calibration that
# cannot be undone (undo = none (REASON)) says its effect is not measured.
# A calibration missing a key, or naming an unknown figure, is
# report.ini:LINE, exit 2.
set -u
bin=$1; root=$2
. "$root/tests/data/repro-toy.sh"

run repro toy --size tiny --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" || fail "repro toy: $(cat "$tmp/log")"
main=$(awk -v a="$(cyc nol1 "")" -v b="$(cyc rc "")" 'BEGIN { printf "%.2f", a / b }')
undone=$(awk -v a="$(cyc nol1 "")" -v b="$(cyc rc "l1.size=4K")" 'BEGIN { printf "%.2f", a / b }')
awk -v m="$main" -v u="$undone" 'BEGIN { exit !(m > 1.3 && u <= 1.3) }' ||
    fail "the toy no longer flips the claim (main $main, undone $undone)"
grep -A4 "^== Fig. 1: NO-COH over NO-L1 (size tiny) ==" "$tmp/report" |
    grep -qx "calibration l1-size (made after a first result was seen): the L1 grew from 4 KB to the machine's size (made up)" ||
    fail "no calibration under the figure: $(cat "$tmp/report")"
grep -qxF "[holds] all: NO-COH more than 1.3 times as fast as NO-L1: speedup(all, rc, nol1) $main [rests on calibration l1-size]" \
    "$tmp/report" || fail "flag: $(cat "$tmp/report")"
grep "^\[does not hold\] all: NO-COH at least 8 times" "$tmp/report" | grep -q "rests on" &&
    fail "a claim that does not flip is flagged"
grep -A2 "^\[does not hold\] all: NO-COH at least 8 times" "$tmp/report" |
    grep -qxF "    calibration gen: a generator's budget (made up) (its effect is not measured)" ||
    fail "the unmeasured calibration under its claim: $(cat "$tmp/report")"
sed -n '/^== Calibrations: /,/^files: /p' "$tmp/report" >"$tmp/cal"
grep -qxF "      claim rc-gains [holds] → [does not hold]: rests on this calibration" "$tmp/cal" ||
    fail "calibrations section: $(cat "$tmp/cal")"
grep -qxF "      Fig1 all rc over nol1: $main → $undone; paper 9.00" "$tmp/cal" || fail "undone number: $(cat "$tmp/cal")"
grep -qxF "    undone: not measured (the old generator was not kept: a made-up reason)" "$tmp/cal" ||
    fail "undo = none: $(cat "$tmp/cal")"

check() {
    local old=$1 new=$2 want=$3
    ini_replace "$old" "$new"
    run repro toy --lint >"$tmp/o" 2>"$tmp/e"; local rc=$?
    [ $rc -eq 2 ] || fail "'$new': exit $rc, expected 2: $(cat "$tmp/e")"
    grep -qF -- "$want" "$tmp/e" || fail "'$new': expected '$want' in $(cat "$tmp/e")"
    [ -z "${4:-}" ] || grep -qF "report.ini:$4: " "$tmp/e" || fail "'$new': not at line $4: $(cat "$tmp/e")"
}
n=$(grep -n -m1 -F "affects = fig1" "$tmp/ini" | cut -d: -f1)
check "affects = fig1" "affects = fig2" "affects 'fig2': no such figure or claim" "$n"
n=$(grep -n -m1 -F "undo = l1-small l1.size=4K" "$tmp/ini" | cut -d: -f1)
check "undo = l1-small l1.size=4K" "undo = l1-tiny" "'l1-tiny' is not a sweep block" "$n"
check "undo = l1-small l1.size=4K" "undo = none" "expected none (REASON)" "$n"
n=$(grep -n -m1 -F "[calibration l1-size]" "$tmp/ini" | cut -d: -f1)
check "after_result = yes" "after_results = yes" "[calibration l1-size]: unknown key 'after_results'"
check "after_result = yes" "# no after_result" "[calibration l1-size] needs what, why, source, after_result" "$n"
echo "ok: rc-gains rests on l1-size ($main → $undone); gen unmeasured; 5 bad calibrations refused"
