#!/usr/bin/env bash
# A sweep file per size and a design at its best setting, on the made-up
# reproduction of tests/data/repro-best (NO-COH over NO-L1 on kmn):
# report.ini's `sweep.tiny = toyb-tiny.sweep` makes `repro toyb --size tiny`
# run that file as written (its block at size quick stays quick), while the
# default file's block `extra` is named as not run at this size; a
# `best = l1.size` variant takes, per app, the L1 size with the fewest cycles
# (checked against results.csv), and the report lists it beside the paper's
# choice (a paper.csv row naming the 16 KB variant); an [explain] with a
# reference computes its number there and takes what the ablation's block
# does not run from it. A mapping to a missing file, an unknown size, a best
# key the block does not sweep or a best beside a setting is
# report.ini:LINE, exit 2, and runs nothing. An explain whose block this
# size does not run is listed as not run, and its miss counts as unexplained.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$tmp/root"
cp -r "$root/tests/data/repro-best/repro" "$tmp/root/"
ln -s "$root/tools" "$tmp/root/tools"
ln -s "$root/configs" "$tmp/root/configs"
run() { GPUCOH_ROOT=$tmp/root "$bin" "$@"; }
# cyc SIZE CONFIG SETTINGS: cycles of that run in results.csv
cyc() { awk -F, -v z="$1" -v c="$2" -v s="$3" 'NR > 1 && $4 == z && $5 == c && $7 == s { print $10 }' "$tmp/r/results.csv"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

run repro toyb --size tiny --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" || fail "repro toyb: $(cat "$tmp/log")"
grep -qxF "the sweep of size tiny: toyb-tiny.sweep, run as written (its blocks' sizes kept)" "$tmp/report" ||
    fail "which sweep: $(cat "$tmp/report")"
grep -qxF "not in toyb-tiny.sweep, so not run at this size (their numbers are unknown here): extra" "$tmp/report" ||
    fail "the absent block: $(cat "$tmp/report")"
grep -qF "not run at size tiny: rc-extra is not in toyb-tiny.sweep" "$tmp/report" ||
    fail "the absent variant's row: $(cat "$tmp/report")"
# an explain not run at this size explains nothing here: the miss stays unexplained
grep -A2 -F "Fig1 all rc-best over nol1: paper 9.00" "$tmp/report" | sed -n 2p | grep -qx "    unexplained" ||
    fail "a miss explained by a block not run here: $(cat "$tmp/report")"
grep -A2 -F "Fig1 all rc-best over nol1: paper 9.00" "$tmp/report" | sed -n 3p |
    grep -qF "extra-absent: NO-COH with an 8 KB L1, a block only the default sweep runs (block extra): not run at size tiny (the block is not in toyb-tiny.sweep)" ||
    fail "the explain not run here: $(cat "$tmp/report")"
# the explain with a reference moves nothing (NO-L1 has no L1 to size), so it explains nothing
grep -qx "3 misses, 3 of them unexplained" "$tmp/report" || fail "miss count: $(cat "$tmp/report")"
[ -n "$(cyc quick rc "")" ] || fail "the quick block was run at another size: $(cat "$tmp/r/results.csv")"
[ "$(awk -F, 'NR > 1' "$tmp/r/results.csv" | wc -l)" -eq 7 ] || fail "run count: $(cat "$tmp/r/results.csv")"

# the best L1 size: the fewest cycles of rc over 4K 16K 64K
best=$(for s in 4K 16K 64K; do echo "$(cyc tiny rc "l1.size=$s") $s"; done | sort -n | head -1 | cut -d' ' -f2)
[ -n "$best" ] || fail "no axis runs: $(cat "$tmp/r/results.csv")"
grep -A6 "^== Each design at its best setting (size tiny) ==" "$tmp/report" | grep -qE "^kmn +$best \(16K\) *$" ||
    fail "best $best (paper 16K): $(cat "$tmp/report")"
nol1=$(cyc tiny nol1 ""); rcb=$(cyc tiny rc "l1.size=$best")
grep -A3 "^== Fig. 1: NO-COH over NO-L1" "$tmp/report" | grep -qE "^kmn +[0-9.]+ +$(ratio "$nol1" "$rcb") *$" ||
    fail "rc-best's speedup $(ratio "$nol1" "$rcb"): $(cat "$tmp/report")"
# explain with a reference: before nol1 / rc at 16K, after nol1 at 4K / rc at 16K (from the reference)
before=$(ratio "$nol1" "$(cyc tiny rc l1.size=16K)"); after=$(ratio "$(cyc tiny nol1 l1.size=4K)" "$(cyc tiny rc l1.size=16K)")
grep -qF "    abl-ref: NO-L1 with an L1 size set, against NO-COH at 16 KB (block abl, l1.size=4K against block axis, l1.size=16K; apps kmn): $before → $after; paper 9.00" \
    "$tmp/report" || fail "explain with a reference ($before → $after): $(cat "$tmp/report")"
[ "$before" = "$after" ] || fail "NO-L1's L1 size moved its speedup ($before → $after)"
grep -F "    abl-ref: " "$tmp/report" | grep -q "; paper 9.00 (effect [-0-9.]*) \[under a tenth of the way to the paper: explains nothing\]$" ||
    fail "an explain that moves nothing counted: $(cat "$tmp/report")"

# another size takes the default file: its extra block is named, the tiny file's blocks are not run there
run repro toyb --lint --size small >"$tmp/o" 2>"$tmp/e" || fail "lint at small: $(cat "$tmp/e")"
grep -qF "repro toyb: 1 claims, each can hold and can fail; 5 runs at size small (toyb.sweep)" "$tmp/o" ||
    fail "lint at small: $(cat "$tmp/o")"

ini=$tmp/root/repro/toyb/report.ini
cp "$ini" "$tmp/ini"
check() {
    local old=$1 new=$2 want=$3
    local n; n=$(grep -n -m1 -xF -- "$old" "$tmp/ini" | cut -d: -f1)
    [ -n "$n" ] || fail "no line '$old'"
    awk -v n="$n" -v new="$new" 'NR == n { print new; next } { print }' "$tmp/ini" >"$ini"
    run repro toyb --size tiny --out "$tmp/bad" >"$tmp/o" 2>"$tmp/e"; local rc=$?
    [ $rc -eq 2 ] || fail "'$new': exit $rc, expected 2: $(cat "$tmp/e")"
    grep -qF "report.ini:$n: " "$tmp/e" || fail "'$new': no report.ini:$n: in $(cat "$tmp/e")"
    grep -qF -- "$want" "$tmp/e" || fail "'$new': expected '$want' in $(cat "$tmp/e")"
    [ ! -e "$tmp/bad" ] || fail "'$new': ran something"
    cp "$tmp/ini" "$ini"
}
check "sweep.tiny = toyb-tiny.sweep" "sweep.tiny = nosuch.sweep" "sweep.tiny = nosuch.sweep: cannot read"
check "sweep.tiny = toyb-tiny.sweep" "sweep.huge = toyb-tiny.sweep" "sweep.huge: 'huge' is not a size"
check "best = l1.size" "best = l1.ways" "[variant rc-best]: block 'axis' does not sweep 'l1.ways'"
check "[variant rc-best]" "[variant rc-best]\nsetting = l1.size=4K" \
    "[variant rc-best] needs block and design, and a setting or best = KEY (not both"
echo "ok: best L1 $best (paper 16K), explain $before → $after; 4 bad declarations refused"
