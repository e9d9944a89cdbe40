#!/usr/bin/env bash
# replicas = BLOCK... in report.ini's [reproduction]: blocks that repeat the
# main block with another input (here the made-up reproduction of
# tests/data/repro-explain with a block `again` running both designs with a
# 4 KB L1). The report's spread section gives each of the paper's numbers in
# the main block, then its mean, min and max over the main block and the
# replicas (checked against results.csv's cycles), and each claim's count of
# replicas where it holds. A replica that is not a block, or that lacks one
# of the main block's configurations, is report.ini:LINE, exit 2. A replica
# on another input seed that runs some of the main block's apps takes the
# others' runs from the main block, and the report names them (so does an
# [explain] on a replica's block); one that
# this size's sweep file does not run gives no spread.
set -u
bin=$1; root=$2
. "$root/tests/data/repro-toy.sh"

sweep=$tmp/root/repro/toy/toy.sweep
printf '\nsweep again\nworkloads kmn\nprotocols nol1 rc\nset l1.size 4K\nsizes tiny\n' >>"$sweep"
ini_replace "sweep = toy.sweep" "sweep = toy.sweep
replicas = again"
run repro toy --size tiny --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" || fail "repro toy: $(cat "$tmp/log")"
main=$(awk -v a="$(cyc nol1 "")" -v b="$(cyc rc "")" 'BEGIN { printf "%.2f", a / b }')
again=$(awk -v a="$(cyc nol1 "l1.size=4K")" -v b="$(cyc rc "l1.size=4K")" 'BEGIN { printf "%.2f", a / b }')
[ "$main" != "$again" ] || fail "the replica changes nothing ($main)"
want=$(awk -v m="$main" -v a="$again" 'BEGIN { lo = m < a ? m : a; hi = m < a ? a : m;
    printf "%.2f [%.2f, %.2f]", (m + a) / 2, lo, hi }')
sed -n '/^== Spread over 2 replicas of block main (size tiny) ==$/,/^files: /p' "$tmp/report" >"$tmp/spread"
[ -s "$tmp/spread" ] || fail "no spread section: $(cat "$tmp/report")"
grep -qxF "Fig1 all rc over nol1 (speedup_hm): $main; mean $want over 2; paper 9.00" "$tmp/spread" ||
    fail "the spread of Fig1 (main $main, again $again): $(cat "$tmp/spread")"
holds=$(awk -v m="$main" -v a="$again" 'BEGIN { n = (m > 1.3) + (a > 1.3); print n }')
verdict=$(awk -v m="$main" 'BEGIN { print (m > 1.3 ? "holds" : "does not hold") }')
grep -qxF "claim rc-gains [$verdict]: holds in $holds of 2 replicas (0 cannot check)" "$tmp/spread" ||
    fail "the claim's count ($main, $again): $(cat "$tmp/spread")"

# without replicas there is no spread section
cp "$tmp/ini" "$ini"
run repro toy --size tiny --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" || fail "repro toy: $(cat "$tmp/log")"
grep -q "^== Spread" "$tmp/report" && fail "a spread section without replicas"

# a replica on another input (seed 2) that runs one of the main block's two
# apps: the other app's numbers there are the main block's runs, and the
# report says which apps a replica takes from the main block
sed -i '0,/^workloads kmn$/s//workloads kmn streamcluster/' "$sweep"
printf '\nsweep seeded\nseed 2\nworkloads streamcluster\nprotocols nol1 rc\nsizes tiny\n' >>"$sweep"
ini_replace "sweep = toy.sweep" "sweep = toy.sweep
replicas = seeded"
printf '\n[explain gains-input]\nclaim = rc-gains\nablation = seeded\ntext = on the input of seed 2\n' >>"$ini"
run repro toy --size tiny --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" || fail "repro toy (seeded): $(cat "$tmp/log")"
sc() { "$bin" run --workload streamcluster --size tiny --protocol "$1" --input-seed "$2" --quiet | awk '/^  cycles/ {print $2}'; }
kmn=$(awk -F, '$2 == "kmn" && $7 == "" { c[$5] = $10 } END { print c["nol1"] / c["rc"] }' "$tmp/r/results.csv")
s1=$(awk -v a="$(sc nol1 1)" -v b="$(sc rc 1)" 'BEGIN { print a / b }')
s2=$(awk -v a="$(sc nol1 2)" -v b="$(sc rc 2)" 'BEGIN { print a / b }')
[ "$s1" != "$s2" ] || fail "seed 2 changes nothing ($s1)"
want=$(awk -v k="$kmn" -v a="$s1" -v b="$s2" 'BEGIN { m = 2 / (1 / k + 1 / a); r = 2 / (1 / k + 1 / b);
    lo = m < r ? m : r; hi = m < r ? r : m; printf "%.2f; mean %.2f [%.2f, %.2f] over 2", m, (m + r) / 2, lo, hi }')
sed -n '/^== Spread over 2 replicas of block main (size tiny) ==$/,/^files: /p' "$tmp/report" >"$tmp/spread"
grep -qxF "Fig1 all rc over nol1 (speedup_hm): $want; paper 9.00" "$tmp/spread" ||
    fail "the spread of Fig1 with kmn from main (kmn $kmn, streamcluster $s1 and $s2): $(cat "$tmp/spread")"
grep -qxF "kmn: not run in seeded; the main block's runs stand for them there" "$tmp/spread" ||
    fail "kmn taken from main not said: $(cat "$tmp/spread")"
# an [explain] on the replica's block computes the claim as the replica does: kmn from main
in2=$(awk -v k="$kmn" -v b="$s2" 'BEGIN { printf "%.2f", 2 / (1 / k + 1 / b) }')
grep -q "^    gains-input: on the input of seed 2 (block seeded; apps streamcluster, the rest the main block.s): \[.*\]: speedup(all, rc, nol1) $in2\$" "$tmp/report" ||
    fail "the explain on the replica (want speedup(all, rc, nol1) $in2): $(grep -A1 'gains-input' "$tmp/report")"
# a replica that another size's sweep file does not name is not run at that size: no spread there
# (sweep.quick = the main block alone, at tiny as written), not main's runs standing in for it
printf 'sweep main\nworkloads kmn streamcluster\nprotocols nol1 rc\nsizes tiny\n' >"$tmp/root/repro/toy/quick.sweep"
ini_replace "sweep = toy.sweep" "sweep = toy.sweep
sweep.quick = quick.sweep
replicas = seeded"
run repro toy --size quick --out "$tmp/q" >"$tmp/report" 2>"$tmp/log" || fail "repro toy (quick): $(cat "$tmp/log")"
grep -q "^== Spread" "$tmp/report" && fail "a spread over replicas not run at this size: $(cat "$tmp/report")"
cp "$tmp/ini" "$ini"

check() {
    ini_replace "sweep = toy.sweep" "sweep = toy.sweep
replicas = $1"
    run repro toy --lint >"$tmp/o" 2>"$tmp/e"; local rc=$?
    [ $rc -eq 2 ] || fail "replicas = $1: exit $rc, expected 2: $(cat "$tmp/e")"
    grep -qF -- "report.ini:8: " "$tmp/e" || fail "replicas = $1: not at line 8: $(cat "$tmp/e")"
    grep -qF -- "$2" "$tmp/e" || fail "replicas = $1: expected '$2' in $(cat "$tmp/e")"
}
check "nowhere" "'nowhere' is not a sweep block"
check "l1-small" "block 'l1-small' does not run the main block's configuration 'nol1'"
echo "ok: Fig1 $main (main) and $again (again): mean $want; 2 bad replicas refused"
