#!/bin/bash
# litmus-tc-strong.sh - device-scope strong loads under Temporal Coherence
# (tc.strong_loads, docs/protocols/tcw.md). Two message-passing spin loops
# (tests/litmus/Spin-MP-*.litmus: the consumer polls a flag with
# ld.acquire.gpu, or with ld.relaxed.gpu and a fence) run under tcs, tcw and
# tcw in the paper's form, with strong loads served by the leased L1 copy
# (l1, the default) and performed at the L2 (l2). Both forms must give only
# outcomes PTX allows and finish every iteration; the difference must show:
# with l1 the polls hit the copy (L1 load hits, no load at the L2), with l2
# every poll is an L2 access (no L1 hit) and sees the flag sooner, so the
# spinning warps execute fewer instructions.
# usage: bash litmus-tc-strong.sh <gpucoh-binary> <repo-root>
set -u
bin=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
tests=("$root"/tests/litmus/Spin-MP-acquire.litmus "$root"/tests/litmus/Spin-MP-relaxed-fence.litmus)
iters=200
[ "${GPUCOH_ASAN:-0}" = 1 ] && iters=40
paper=(--set tc.sc_fence_invalidates=false --set tc.fence_gwct=warp --set tc.load_gwct=false)

# sum of one statistic over every SM's L1 in a --stats file (docs/stats.md)
l1_sum() {
    python3 - "$1" "$2" <<'PY'
import json, re, sys
stats = json.load(open(sys.argv[1]))["stats"]
pat = re.compile(r"gpu\.sm\[\d+\]\.l1\." + sys.argv[2] + "$")
print(int(sum(v for k, v in stats.items() if pat.match(k))))
PY
}

declare -A hits at_l2 insts
for cfg in tcs tcw tcw-paper; do
    p=${cfg%-paper}
    sets=()
    [ "$cfg" = tcw-paper ] && sets=("${paper[@]}")
    for f in l1 l2; do
        out=$tmp/$cfg-$f
        "$bin" litmus --protocol "$p" "${sets[@]}" --set tc.strong_loads=$f --iterations $iters \
            --stats "$out.json" "${tests[@]}" >"$out.out" 2>&1 ||
            fail "$cfg, strong_loads=$f: exit $?: $(grep -E 'FAIL|^==' "$out.out")"
        grep -q "^== $p (model ptx): 2 passed, 0 failed, 0 skipped" "$out.out" ||
            fail "$cfg, strong_loads=$f: $(grep '^==' "$out.out")"
        grep -q 'did not finish' "$out.out" &&
            fail "$cfg, strong_loads=$f: a spin did not finish: $(cat "$out.out")"
        hits[$f]=$(l1_sum "$out.json" load_hits)
        at_l2[$f]=$(l1_sum "$out.json" loads_at_l2)
        insts[$f]=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["warp_insts"])' \
            "$out.json")
    done
    [ "${hits[l1]}" -gt 0 ] && [ "${at_l2[l1]}" -eq 0 ] ||
        fail "$cfg, l1: polls should hit the leased copy: ${hits[l1]} hits, ${at_l2[l1]} at the L2"
    [ "${hits[l2]}" -eq 0 ] && [ "${at_l2[l2]}" -ge $((2 * iters)) ] ||
        fail "$cfg, l2: polls should go to the L2: ${hits[l2]} hits, ${at_l2[l2]} at the L2"
    [ "${insts[l2]}" -lt "${insts[l1]}" ] ||
        fail "$cfg: l2's polls should see the flag sooner: ${insts[l2]} warp insts, l1 ${insts[l1]}"
    echo "$cfg: l1 ${hits[l1]} L1 hits, ${insts[l1]} warp insts;" \
        "l2 ${at_l2[l2]} loads at the L2, ${insts[l2]} warp insts"
done
echo "litmus-tc-strong: passed"
