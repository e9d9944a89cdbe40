#!/usr/bin/env bash
# Long target: 1 M DRF stress episodes per multi-GPM protocol on 2 GPUs x 2
# GPMs with small caches, a tiny directory and 4 KB pages, the invariant
# observers on (tests/cli/stress-mg.sh runs 20 K of the same in the default
# tests). Roughly 4 minutes per protocol on one core.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
machine=(--set topology.gpus=2 --set topology.gpms=2 --set gpu.sms=2 --set l2.banks=2
         --set topology.page_bytes=4K --set mg.dir_entries=16 --set mg.dir_ways=2)
for p in nhcc hmg ideal-mg sw-nh sw-h nocache-mg; do
    "$bin" stress --protocol $p --episodes 1000000 --small-caches --check "${machine[@]}" \
        >"$tmp/$p.out" 2>&1 || fail "stress $p: $(tail -5 "$tmp/$p.out")"
    grep -q "stress $p .*passed: 1000000 episodes" "$tmp/$p.out" || fail "stress $p: $(cat "$tmp/$p.out")"
    cat "$tmp/$p.out"
done
