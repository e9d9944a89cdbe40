#!/usr/bin/env bash
# [explain NAME] in report.ini: a miss of a made-up reproduction
# (tests/data/repro-explain: one workload, NO-COH over NO-L1, the paper's 9.0
# out of reach) names an ablation block that runs NO-COH with a 4 KB L1.
# The report prints the number in the main block and again in the ablation
# block beside the paper's, the misses without an explain as unexplained, and
# `repro all` names the ablation and its effect in the headline table's
# evidence column. Each value printed is checked against results.csv's
# cycles. An explain naming an unknown claim, row, block or setting is
# report.ini:LINE, exit 2, under --lint too.
set -u
bin=$1; root=$2
. "$root/tests/data/repro-toy.sh"

run repro toy --size tiny --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" || fail "repro toy: $(cat "$tmp/log")"
# the cycles behind the numbers: nol1 and rc in main, rc in the ablation block
nol1=$(cyc nol1 ""); rc=$(cyc rc ""); rc4=$(cyc rc "l1.size=4K")
[ -n "$nol1" ] && [ -n "$rc" ] && [ -n "$rc4" ] || fail "results.csv: $(cat "$tmp/r/results.csv")"
main=$(awk -v a="$nol1" -v b="$rc" 'BEGIN { printf "%.2f", a / b }')
abl=$(awk -v a="$nol1" -v b="$rc4" 'BEGIN { printf "%.2f", a / b }')
[ "$main" != "$abl" ] || fail "the ablation moves nothing ($main)"
grep -q "^== Misses and the ablations that explain them (size tiny) ==$" "$tmp/report" ||
    fail "no misses section: $(cat "$tmp/report")"
grep -qF "Fig1 all rc over nol1: paper 9.00, gpucoh $main (speedup_hm, effect" "$tmp/report" ||
    fail "the explained miss: $(cat "$tmp/report")"
grep -qF "    small-l1: with a 4 KB L1 under NO-COH (block l1-small, l1.size=4K): $main → $abl; paper 9.00 (effect" \
    "$tmp/report" || fail "the ablation's effect ($main → $abl): $(cat "$tmp/report")"
# the app's row and the claim have no explain
grep -A1 -F "Fig1 all kmn rc over nol1: paper 9.00, gpucoh $main" "$tmp/report" | grep -qx "    unexplained" ||
    fail "the app's row is not unexplained: $(cat "$tmp/report")"
grep -A1 -F "claim rc-fast [does not hold]" "$tmp/report" | grep -qx "    unexplained" ||
    fail "the claim is not unexplained: $(cat "$tmp/report")"
grep -qx "3 misses, 2 of them unexplained" "$tmp/report" || fail "miss count: $(cat "$tmp/report")"

# the headline table's evidence column: the ablation and its effect; a miss-free row "—"
run repro all --size tiny --out "$tmp/all" >"$tmp/all.out" 2>"$tmp/log" || fail "repro all: $(cat "$tmp/log")"
grep -E "^TOY .* speedup_hm " "$tmp/all.out" | grep -qF "tiny  small-l1: $main → $abl" ||
    fail "headline evidence: $(cat "$tmp/all.out")"
grep -E "^TOY .* traffic_norm " "$tmp/all.out" | grep -qE "tiny  (—|unexplained)$" ||
    fail "headline without an explain: $(cat "$tmp/all.out")"

# names are checked at load time, by --lint too: report.ini:LINE, exit 2
check() {
    local old=$1 new=$2 want=$3
    local n; n=$(grep -n -m1 -F -- "$old" "$tmp/ini" | cut -d: -f1)
    ini_replace "$old" "$new"
    for mode in lint run; do
        if [ $mode = lint ]; then run repro toy --lint >"$tmp/o" 2>"$tmp/e"
        else run repro toy --size tiny --out "$tmp/bad" >"$tmp/o" 2>"$tmp/e"; fi
        local rc=$?
        [ $rc -eq 2 ] || fail "'$new' ($mode): exit $rc, expected 2: $(cat "$tmp/e")"
        grep -qF "report.ini:$n: " "$tmp/e" || fail "'$new' ($mode): no report.ini:$n: in $(cat "$tmp/e")"
        grep -qF -- "$want" "$tmp/e" || fail "'$new' ($mode): expected '$want' in $(cat "$tmp/e")"
    done
    [ ! -e "$tmp/bad" ] || fail "'$new': ran something"
}
check "row = Fig1,all,,speedup_hm,nol1,rc" "row = Fig2,all,,speedup_hm,nol1,rc" \
    "row 'Fig2,all,,speedup_hm,nol1,rc': no such row of paper.csv"
check "row = Fig1,all,,speedup_hm,nol1,rc" "claim = rc-slow" "claim 'rc-slow': no such [claim]"
check "ablation = l1-small l1.size=4K" "ablation = l1-big" \
    "'l1-big' is not a sweep block of toy.sweep other than the main block 'main'"
check "ablation = l1-small l1.size=4K" "ablation = main" "'main' is not a sweep block"
check "ablation = l1-small l1.size=4K" "ablation = l1-small l1.size=8K" \
    "block 'l1-small' has no setting l1.size=8K"
check "text = with a 4 KB L1 under NO-COH" "texts = a 4 KB L1" "[explain small-l1]: unknown key 'texts'"

# measure = METRIC instead of an ablation: the row's number from the main
# block's own runs in another unit (traffic in flits), checked against the
# runs' JSON; a measure of another quantity, an unknown one, or one beside an
# ablation is refused
# (MESI over NO-COH: MESI's control messages weigh more in flits than in bytes)
sed -i 's/^protocols nol1 rc$/protocols nol1 rc mesi/' "$tmp/root/repro/toy/toy.sweep"
echo "Fig1,all,,traffic_norm,rc,mesi,0.1,made up: a traffic no run reaches" >>"$tmp/root/repro/toy/paper.csv"
sed 's/^rc = NO-COH$/rc = NO-COH\nmesi = MESI/' "$tmp/ini" >"$ini"
cat >>"$ini" <<'INI'

[explain in-flits]
row = Fig1,all,,traffic_norm,rc,mesi
measure = traffic_flits_norm
text = counted in flits
INI
cp "$ini" "$tmp/ini"
run repro toy --size tiny --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" || fail "repro toy (measure): $(cat "$tmp/log")"
units=$(python3 - "$tmp/r" <<'PY'
import csv, json, sys
out = sys.argv[1]
runs = {r["config"]: r["id"] for r in csv.DictReader(open(out + "/results.csv")) if r["settings"] == ""}
def total(config, unit):
    t = json.load(open("%s/runs/%s.json" % (out, runs[config])))["traffic"]
    return sum(c[unit] for c in t.values())
print("%.2f %.2f" % tuple(total("mesi", u) / total("rc", u) for u in ("bytes", "flits")))
PY
) || fail "reading the runs"
set -- $units
[ "$1" != "$2" ] || fail "flits and bytes agree ($1): the test shows nothing"
grep -qF "    in-flits: counted in flits (the main block's runs as traffic_flits_norm): $1 → $2; paper 0.10" \
    "$tmp/report" || fail "the measure's line ($1 → $2): $(grep -A1 'traffic' "$tmp/report")"
grep -qx "4 misses, 2 of them unexplained" "$tmp/report" || fail "miss count (measure): $(cat "$tmp/report")"
check "measure = traffic_flits_norm" "measure = traffic_bogus" "measure = traffic_bogus: not a metric"
check "measure = traffic_flits_norm" "measure = slowdown_mean" \
    "measure slowdown_mean does not state row 'Fig1,all,,traffic_norm,rc,mesi' in another unit"
awk '{ print } $0 == "text = counted in flits" { print "ablation = l1-small l1.size=4K" }' "$tmp/ini" >"$ini"
run repro toy --lint >"$tmp/o" 2>"$tmp/e" && fail "a measure beside an ablation was accepted"
grep -qF "an ablation or a measure (one of the two)" "$tmp/e" || fail "measure + ablation: $(cat "$tmp/e")"
echo "ok: $main → $abl explained; two misses unexplained; 6 bad explains refused; bytes $1 → flits $2"
