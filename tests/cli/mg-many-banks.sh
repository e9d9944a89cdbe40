#!/usr/bin/env bash
# Multi-GPM protocols on GPMs with more L2 banks than an L1's request port
# holds messages (noc.vc_flits = 8): an L1's release or acquire round sends a
# marker to every bank of its GPM, in batches as the port has room (rc_l1.c,
# send_markers). Before, such a round never started (a deadlock, exit 3), and
# then such machines were refused (exit 2). Here they run to the end with
# right values: the multi-GPU litmus tests with 16 banks per GPM under every
# multi-GPM protocol (no forbidden outcome; sw-nh and sw-h run acquire rounds
# too), reduce on hmg-4x4 with 16 banks per GPM passing its exact CPU check
# with every bank of every GPM answering each SM's kernel-end release, and
# reduce on the Volta and Ampere presets (64 and 80 L2 slices) made two GPUs.
set -u
bin=$1
src=${2:-.}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
machine=(--set topology.gpus=3 --set topology.gpms=2 --set gpu.sms=2 --set l2.banks=16
         --set topology.page_bytes=4K)
for p in nhcc hmg ideal-mg sw-nh sw-h nocache-mg; do
    "$bin" litmus --protocol $p "${machine[@]}" --iterations 200 "$src/litmus/multi-gpu" \
        >"$tmp/$p.out" 2>&1 || fail "litmus $p, 16 banks: $(grep -E 'FAIL|error|dead' "$tmp/$p.out" | head -5)"
    grep -q "== $p (model ptx): 11 passed, 0 failed, 0 skipped" "$tmp/$p.out" ||
        fail "litmus $p, 16 banks: $(tail -3 "$tmp/$p.out")"
done
# 4 GPUs x 4 GPMs of 32 SMs and 16 banks (3 MB of L2 per GPM, as the preset)
for p in hmg nhcc ideal-mg sw-nh sw-h; do
    "$bin" run --workload reduce --size tiny --config "$src/configs/hmg-4x4.ini" --protocol $p \
        --set l2.banks=16 --set l2.size=192K --check --quiet --stats "$tmp/reduce-$p.json" \
        >"$tmp/out" 2>&1 || fail "reduce under $p, 16 banks: $(tail -5 "$tmp/out")"
done
python3 - "$tmp"/reduce-*.json <<'PY' || exit 1
import json, re, sys
for path in sys.argv[1:]:
    stats = json.load(open(path))["stats"]
    rel = {k: v for k, v in stats.items() if re.fullmatch(r"gpu\d\.gpm\d\.l2\[\d+\]\.l1_releases", k)}
    # every SM's L1 releases at its kernel end, through every bank of its GPM
    if len(rel) != 16 * 16 or set(rel.values()) != {32}:
        sys.exit("FAIL: %s: 16 GPMs x 16 banks answering 32 L1 releases each expected, got %d "
                 "banks with %s" % (path, len(rel), sorted(set(rel.values()))))
PY
for preset in volta-v100 ampere-a100; do
    for p in nhcc sw-h; do
        "$bin" run --workload reduce --size tiny --config "$src/configs/$preset.ini" \
            --set topology.gpus=2 --protocol $p --check --quiet >"$tmp/out" 2>&1 ||
            fail "reduce on $preset x 2 GPUs under $p: $(tail -5 "$tmp/out")"
    done
done
echo "mg-many-banks: passed"
