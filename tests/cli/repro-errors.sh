#!/usr/bin/env bash
# A malformed reproduction declaration is refused before anything runs, with
# `report.ini:LINE: what is wrong` and exit 2: an unknown metric, design, set,
# statistic, section or key; a bad claim expression; an unknown function; a
# line too long. Each case is repro/tc/report.ini with one line changed, in a
# copy of the repository's repro/ folder (GPUCOH_ROOT points at the copy).
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$tmp/root/repro/bad"
cp "$root/repro/tc/tc.sweep" "$root/repro/tc/paper.csv" "$tmp/root/repro/bad/"
ini=$tmp/root/repro/bad/report.ini
line_of() { grep -n -m1 -F -- "$1" "$root/repro/tc/report.ini" | cut -d: -f1; }

# case: the line to replace (first match), its replacement, the message expected
check() {
    local old=$1 new=$2 want=$3
    local n; n=$(line_of "$old")
    [ -n "$n" ] || fail "no line '$old' in repro/tc/report.ini"
    awk -v n="$n" -v new="$new" 'NR == n { print new; next } { print }' \
        "$root/repro/tc/report.ini" >"$ini"
    GPUCOH_ROOT=$tmp/root "$bin" repro bad --size tiny --out "$tmp/out" >"$tmp/o" 2>"$tmp/e"
    local rc=$?
    [ $rc -eq 2 ] || fail "'$new': exit $rc, expected 2: $(cat "$tmp/e")"
    grep -qF "report.ini:$n: " "$tmp/e" || fail "'$new': no report.ini:$n: in: $(cat "$tmp/e")"
    grep -qF -- "$want" "$tmp/e" || fail "'$new': expected '$want' in: $(cat "$tmp/e")"
    [ ! -e "$tmp/out" ] || fail "'$new': ran something"
}

check "metric = speedup" "metric = speedups" "metric = speedups: unknown metric"
check "metric = speedup" "metric = value:l3_hit_rate" "unknown statistic 'l3_hit_rate'"
check "designs = nol1 mesi gpuvi gpuvini ideal tcw" "designs = nol1 mesi gpuvi moesi tcw" \
    "design 'moesi': unknown design"
check "set = inter" "set = inner" "set 'inner': unknown set"
check "baseline = tcs" "baseline = tcs-fast" "baseline 'tcs-fast': unknown design"
check "kind = bars" "kind = pie" "kind = pie: expected bars, stacked, lines or table"
check "expr = 1 < speedup(all, tcw-fixed, tcs) < speedup(all, tcw, tcs)" \
    "expr = 1 < speedup(all, tcw-fixed, tcs) < " "expected a number, '(' or a call"
check "expr = 1 < speedup(all, tcw-fixed, tcs) < speedup(all, tcw, tcs)" \
    "expr = speedup(all, tcw-fixed, tcs) >> 1" "expected a number, '(' or a call at '> 1'"
check "expr = 1 < speedup(all, tcw-fixed, tcs) < speedup(all, tcw, tcs)" \
    "expr = speedup(all, tcw-fixed, tcs) > speedup(all, moesi, tcs)" "design 'moesi': unknown design"
check "expr = 1 < speedup(all, tcw-fixed, tcs) < speedup(all, tcw, tcs)" \
    "expr = speedup(outer, tcw) > 1" "'outer': unknown set or app"
check "expr = 1 < speedup(all, tcw-fixed, tcs) < speedup(all, tcw, tcs)" \
    "expr = slowdown(all, tcw, tcs) > 1" "unknown function 'slowdown'"
check "expr = peak(fig11b, ndl) < peak(fig11b, hsp)" "expr = peak(fig7a, ndl) < 1" \
    "expected peak(FIGURE, APP) of a lines figure"
check "[set intra]" "[group intra]" "[group intra]: unknown section"
check "hook = tc-lease" "hook = tc-leases" "hook 'tc-leases': no such hook"
check "x = tc.lease" "x = tc.lease_max" "block 'lease' does not sweep 'tc.lease_max'"
check "about = inter-workgroup: bh cc cl dlb stn vpr" "colour = red" \
    "[set inter]: unknown key 'colour'"
check "note = paper: no numbers; MESI significantly worse than the write-through protocols" \
    "note = $(printf 'x%.0s' $(seq 1 230))" "line longer than"
# the paper's numbers are checked too
cp "$root/repro/tc/report.ini" "$ini"
sed -i 's/^Fig10a,all,,speedup_hm,tcs,tcw,1.28/Fig10a,all,,speedup_hm,tcs,tcw-slow,1.28/' \
    "$tmp/root/repro/bad/paper.csv"
GPUCOH_ROOT=$tmp/root "$bin" repro bad --size tiny --out "$tmp/out" >/dev/null 2>"$tmp/e"
[ $? -eq 2 ] || fail "paper.csv: expected exit 2"
grep -qE "paper.csv:[0-9]+: design 'tcw-slow': unknown design" "$tmp/e" || fail "paper.csv: $(cat "$tmp/e")"
echo ok
