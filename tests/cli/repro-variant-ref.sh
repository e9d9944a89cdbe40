#!/usr/bin/env bash
# A [variant] that is one setting of a block (rc-8k: block l1-sizes's rc at
# l1.size=8K), explained by an ablation against that block at that setting
# (reference = l1-sizes l1.size=8K): before the change the variant is the
# reference's run, after it the ablation block's run of its design (the toy
# of tests/data/repro-explain with two blocks added). Each number is checked
# against results.csv's cycles; without the reference the variant is not
# run in the ablation and the number is unknown.
set -u
bin=$1; root=$2
. "$root/tests/data/repro-toy.sh"

cat >>"$tmp/root/repro/toy/toy.sweep" <<'SWEEP'

# rc at two L1 sizes (a concurrency block's analogue)
sweep l1-sizes
workloads kmn
protocols rc
set l1.size 4K 8K
sizes tiny

# the ablation: rc at 8 KB with 2 MSHRs
sweep few-mshrs
workloads kmn
protocols rc=rc:l1.mshrs=2
set l1.size 8K
sizes tiny
SWEEP
cat >>"$ini" <<'INI'

[variant rc-8k]
block = l1-sizes
design = rc
setting = l1.size=8K

[explain mshrs-8k]
row = Fig1,all,kmn,speedup,nol1,rc-8k
ablation = few-mshrs
reference = l1-sizes l1.size=8K
text = with 2 MSHRs
INI
echo "Fig1,all,kmn,speedup,nol1,rc-8k,9.0,made up: NO-COH at 8 KB" >>"$tmp/root/repro/toy/paper.csv"

run repro toy --size tiny --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" || fail "repro toy: $(cat "$tmp/log")"
nol1=$(cyc nol1 ""); rc8=$(cyc rc l1.size=8K); rc8m=$(cyc rc l1.mshrs=2\;l1.size=8K)
for v in "$nol1" "$rc8" "$rc8m"; do
    [ -n "$v" ] || fail "a run is missing from results.csv: $(cat "$tmp/r/results.csv")"
done
read -r before after < <(awk -v a="$nol1" -v b="$rc8" -v c="$rc8m" 'BEGIN { printf "%.2f %.2f\n", a / b, a / c }')
[ "$before" != "$after" ] || fail "2 MSHRs change nothing ($before): the test shows nothing"
grep -qF "    mshrs-8k: with 2 MSHRs (block few-mshrs against block l1-sizes, l1.size=8K; apps kmn): $before → $after; paper 9.00" \
    "$tmp/report" || fail "the variant's explain ($before → $after): $(grep -A2 '^Fig1 all kmn rc-8k' "$tmp/report")"

# without the reference the variant is not run in the ablation: unknown, so
# the miss stays unexplained
grep -v "^reference = l1-sizes" "$ini" >"$tmp/ini2" && cp "$tmp/ini2" "$ini"
run repro toy --size tiny --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" || fail "repro toy (no reference): $(cat "$tmp/log")"
grep -A1 "^Fig1 all kmn rc-8k" "$tmp/report" | grep -qx "    unexplained" ||
    fail "a miss explained by an ablation that lacks a run: $(grep -A2 '^Fig1 all kmn rc-8k' "$tmp/report")"
grep -A2 "^Fig1 all kmn rc-8k" "$tmp/report" | grep -qF "mshrs-8k: with 2 MSHRs (block few-mshrs): $(printf '%.2f' "$(awk -v a="$nol1" -v b="$rc8" 'BEGIN { print a / b }')") → -" \
    || fail "without a reference: $(grep -A2 '^Fig1 all kmn rc-8k' "$tmp/report")"
echo "ok: the variant rc-8k $before → $after against its block's setting; unknown without the reference"
