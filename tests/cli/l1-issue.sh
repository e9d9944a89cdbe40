#!/usr/bin/env bash
# l1.issue and l1.merge_full: the memory-stage ablations of repro/sc.
# l1.issue: out-of-order issue to the L1. In order (the default) a request
# the L1 cannot take for want of a resource holds up every later one; out of
# order, a later ready request to another line goes ahead (on mesi: one
# served in place, a hit, while the MSHRs are short). Checked here:
#  - a bad value is refused (exit 2); the default is in-order, and setting it
#    explicitly changes nothing (same cycles, no issue_bypasses statistic);
#  - with two few MSHRs (l1.mshrs=4) mvt's hits pass stalled misses: issue_bypasses
#    is counted, the run is faster, and its CPU check still passes;
#  - nothing an ordering model forbids appears: the DRF random tester with
#    two MSHRs and the observers on, and the core litmus subset under rmo, tso
#    and sc with two MSHRs;
#  - l1.merge_full = stall (mesi: a load past the merge limit holds up the L1's
#    input until the fill, spec 001 Fig. 7) changes streamcluster's timing at
#    a merge limit of 2, passes its check and the random tester, and a bad
#    value is refused.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
stat() { # FILE KEY-SUFFIX: the sum of the statistics whose name ends in it
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); ks=[v for k,v in d['stats'].items() if k.endswith(sys.argv[2])]; print(sum(ks) if ks else 'none')" "$1" "$2"
}
cycles() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cycles'])" "$1"; }

"$bin" config show --set l1.issue=sideways >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "l1.issue=sideways accepted"
"$bin" config show | grep -q '^issue = in-order$' || fail "default is not in-order"

run() { # NAME SETTINGS...
    local name=$1; shift
    "$bin" run --workload mvt --size tiny --protocol mesi --set l1.mshrs=4 "$@" \
        --stats "$tmp/$name.json" --quiet >"$tmp/$name.out" 2>&1 || fail "$name: $(tail -3 "$tmp/$name.out")"
    grep -q "check *passed" "$tmp/$name.out" || fail "$name: check did not pass"
}
run default
run inorder --set l1.issue=in-order
run ooo --set l1.issue=out-of-order
[ "$(cycles "$tmp/default.json")" = "$(cycles "$tmp/inorder.json")" ] || fail "explicit in-order differs"
[ "$(stat "$tmp/default.json" issue_bypasses)" = none ] || fail "in-order run has issue_bypasses"
b=$(stat "$tmp/ooo.json" issue_bypasses)
[ "$b" != none ] && [ "$b" -gt 0 ] || fail "out-of-order: issue_bypasses $b"
c0=$(cycles "$tmp/default.json"); c1=$(cycles "$tmp/ooo.json")
[ "$c1" -lt "$c0" ] || fail "out-of-order not faster: $c1 cycles vs $c0 in order"
echo "mvt tiny, 4 MSHRs: $c0 cycles in order, $c1 out of order ($b bypasses)"

out=$("$bin" stress --protocol mesi --episodes 2000 --small-caches --check --set l1.mshrs=2 \
    --set l2.mshrs=2 --set l1.issue=out-of-order 2>&1) || fail "stress: $(echo "$out" | tail -20)"
echo "$out" | grep -q "^stress mesi *passed: 2000 episodes" || fail "stress: no pass line"

for m in rmo tso sc; do
    "$bin" litmus --protocol mesi --set order.model=$m --set l1.mshrs=2 --set l1.issue=out-of-order \
        --core --iterations 200 "$root/litmus/ptx" >"$tmp/l.out" 2>&1 ||
        fail "litmus $m: $(grep -E 'FAIL|^==' "$tmp/l.out" | head)"
    grep -E "^== mesi.*: [1-9][0-9]* passed, 0 failed" "$tmp/l.out" || fail "litmus $m summary: $(grep '^==' "$tmp/l.out")"
done
# l1.merge_full
"$bin" config show --set l1.merge_full=sometimes >"$tmp/o" 2>&1
[ $? -eq 2 ] || fail "l1.merge_full=sometimes accepted"
for mf in park stall; do
    "$bin" run --workload streamcluster --size tiny --protocol mesi --set l1.merge_max=2 \
        --set l1.merge_full=$mf --stats "$tmp/mf-$mf.json" --quiet >"$tmp/mf.out" 2>&1 ||
        fail "merge_full=$mf: $(tail -3 "$tmp/mf.out")"
    grep -q "check *passed" "$tmp/mf.out" || fail "merge_full=$mf: check did not pass"
done
[ "$(cycles "$tmp/mf-park.json")" != "$(cycles "$tmp/mf-stall.json")" ] ||
    fail "merge_full=stall did not change streamcluster's timing"
out=$("$bin" stress --protocol mesi --episodes 2000 --small-caches --check --set l1.merge_max=1 \
    --set l1.merge_full=stall 2>&1) || fail "stress, merge_full=stall: $(echo "$out" | tail -20)"
echo "$out" | grep -q "^stress mesi *passed: 2000 episodes" || fail "stress (merge_full): no pass line"
echo "l1-issue: passed"
