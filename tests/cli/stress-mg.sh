#!/usr/bin/env bash
# The multi-GPM protocols pass 20 K DRF stress episodes with the invariant
# observers on (the home always holds the newest value: every home answer is
# checked against the golden memory) on a 2 GPU x 2 GPM machine with small
# caches, a tiny directory (16 entries of 2 ways per GPM: evictions that
# invalidate) and 4 KB pages (homes spread over every GPM).
# STRESS_MG_EPISODES sets the count, STRESS_MG_RELEASES the release
# completions (mg.release) to run each protocol under, the default's alone
# unless set (tests/long/stress-mg-1m.sh: 1 M episodes, counted and levels).
set -u
bin=$1
n=${STRESS_MG_EPISODES:-20000}
releases=${STRESS_MG_RELEASES:-default} # default: mg.release left as it is
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
machine=(--set topology.gpus=2 --set topology.gpms=2 --set gpu.sms=2 --set l2.banks=2
         --set topology.page_bytes=4K --set mg.dir_entries=16 --set mg.dir_ways=2)
for r in $releases; do
    for p in nhcc hmg ideal-mg sw-nh sw-h nocache-mg; do
        rel=(); [ "$r" = default ] || rel=(--set mg.release=$r)
        "$bin" stress --protocol $p --episodes $n --small-caches --check "${machine[@]}" \
            "${rel[@]}" >"$tmp/$p.out" 2>&1 || fail "stress $p, $r: $(tail -5 "$tmp/$p.out")"
        grep -q "stress $p .*passed: $n episodes" "$tmp/$p.out" ||
            fail "stress $p, $r: $(cat "$tmp/$p.out")"
        if [ -n "${STRESS_MG_LOG:-}" ]; then # a line per run, for long runs
            echo "$r $(grep "passed" "$tmp/$p.out")" >>"$STRESS_MG_LOG"
        fi
    done
done
echo "stress-mg: passed"
