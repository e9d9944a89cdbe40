#!/usr/bin/env bash
# Causality (cumulativity) of PTX release/acquire across three SMs, under every
# protocol that promises PTX: write-to-read causality with release/acquire
# (the final load weak, relaxed or acquire), with fences on the middle thread,
# with the first two threads on one SM, and ISA2 with a weak store and a
# fence. PTX forbids each test's outcome. 2 000 iterations each (20 000, about
# five minutes of CPU, in the long target: tests/long/litmus-causality.sh sets
# GPUCOH_CAUSALITY_ITERATIONS=20000), pre-warmed
# L1s (a stale copy of x is what it takes), network/L2/DRAM jitter and the
# stress tester's small caches. Then the paper's TC-Weak (tc.load_gwct=false)
# must show the forbidden outcomes, so the test is known to catch the bug.
# About 30 s of CPU.
# usage: bash litmus-causality.sh <gpucoh-binary> <repo-root>
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

tests=()
for t in WRC-rel-acq WRC-rel-acq-relaxed WRC-rel-acq-acquire WRC-fences WRC-cta ISA2-weak-fence; do
    tests+=("$root/tests/litmus/$t.litmus")
done
small=(--set l1.size=1K --set l1.ways=2 --set l1.mshrs=8 --set l1.merge_max=2
       --set l2.size=2K --set l2.ways=2 --set l2.mshrs=8)
run=(litmus --iterations 20000 --jitter 32 "${small[@]}")
# every protocol runs 2 000 iterations, also under ASan (tests/asan-cli.sh): the same code
# paths at a tenth of the cost; the check that the paper's TC-Weak fails keeps its 20 000
sweep_run=(litmus --iterations "${GPUCOH_CAUSALITY_ITERATIONS:-2000}" --jitter 32 "${small[@]}")

# every registered protocol that promises PTX, test-only ones (rc-noinv) and
# those "all" leaves out (warptm: getm's rc outside transactions) aside
# (multi-GPM ones: tests/cli/litmus-mg.sh, WRC over three GPUs)
protos=$("$bin" list protocols | awk '$2 == "ptx" && !/\[test only\]/ && !/\[multi-GPM\]/ && !/\[not in all\]/ {print $1}')
[ -n "$protos" ] || fail "no PTX protocol listed"
# two protocols at a time (at 20 000 iterations, in the long target, minutes)
run_one() { "$bin" "${sweep_run[@]}" --protocol "$1" "${tests[@]}" >"$tmp/$1.out" 2>&1; echo $? >"$tmp/$1.rc"; }
for p in $protos; do
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
    run_one "$p" &
done
wait
n=0
for p in $protos; do
    [ "$(cat "$tmp/$p.rc")" = 0 ] || fail "$p: $(grep -E 'FAIL|^==' "$tmp/$p.out")"
    grep -q "^== $p (model ptx): ${#tests[@]} passed, 0 failed, 0 skipped" "$tmp/$p.out" ||
        fail "$p: $(grep '^==' "$tmp/$p.out")"
    n=$((n + 1))
done
echo "causality shapes passed under $n protocols:" $protos

# the paper's TC-Weak: a release waits only for its SM's own writes, so WRC's
# forbidden outcome shows (a stale copy of x outlives P1's release of y)
"$bin" "${run[@]}" --protocol tcw --set tc.load_gwct=false "$root/tests/litmus/WRC-rel-acq.litmus" \
    "$root/tests/litmus/WRC-cta.litmus" >"$tmp/paper.out" 2>&1
[ $? -eq 1 ] || fail "tcw with tc.load_gwct=false: expected the forbidden outcome"
grep -q "^== tcw (model ptx): 0 passed, 2 failed" "$tmp/paper.out" ||
    fail "tcw with tc.load_gwct=false: $(grep '^==' "$tmp/paper.out")"
echo "litmus-causality: $((n + 1)) passed, 0 failed"
