#!/bin/bash
# litmus-progress-all.sh - the retry-loop family (tests/litmus/progress) and
# the same-warp family (tests/litmus/warp) run to the end on every protocol
# that promises PTX (issue 41): the protocols are those `gpucoh list
# protocols` marks ptx under order.model = rmo, less the deliberately broken
# [test only] ones; the multi-GPM ones run on a 3 GPU x 2 GPM machine (as
# litmus-mg.sh). Every test runs with its verdict checked (exit 0, nothing
# forbidden, none unknown), every iteration's forward progress is reported,
# the retry loops finish every time, and the same-warp tests whose waiting
# lane the SIMT stack runs first never finish (a result, judged, not a
# failure) while the others always do.
# Five iterations per test and a spin budget of 256 backward jumps keep it
# short: under stc-nv, whose EMU visits every epoch before an atomic of
# another band performs, a lane spinning through the default 4,096 jumps
# took 43 s of CPU for the two families at 20 iterations (2026-12-02).
# usage: bash litmus-progress-all.sh <gpucoh-binary> <repo-root>
set -u
bin=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
dirs=("$root/tests/litmus/progress" "$root/tests/litmus/warp")
n=$(ls "${dirs[0]}"/*.litmus "${dirs[1]}"/*.litmus | wc -l)
# the same-warp tests no iteration of which finishes: the later column's
# lane, run first, waits for an earlier column's, directly or through
# another warp (tests/litmus/warp/*)
never=(XCHG-wait-warp ADD-until-warp WAIT-chain-warp)
mg=(--set topology.gpus=3 --set topology.gpms=2 --set gpu.sms=2 --set l2.banks=2
    --set topology.page_bytes=4K)
iters=5

"$bin" list protocols >"$tmp/list" || fail "list protocols"
mapfile -t protos < <(awk '$2 == "ptx" && !/\[test only\]/ {print $1}' "$tmp/list")
# nol1 rc gpuvi gpuvini ideal tcs tcw mesi stc-{nv,es,ab,mb} rccwo getm warptm
# spandex-{g,d} nhcc hmg ideal-mg sw-nh sw-h nocache-mg
[ "${#protos[@]}" -ge 23 ] || fail "expected at least 23 protocols promising PTX: ${protos[*]}"
for p in "${protos[@]}"; do
    machine=()
    grep -q "^$p .*\[multi-GPM\]" "$tmp/list" && machine=("${mg[@]}")
    out=$tmp/$p
    "$bin" litmus --protocol "$p" "${machine[@]}" --iterations $iters --spin-budget 256 \
        "${dirs[@]}" >"$out" 2>&1 || fail "$p: exit $?: $(grep -E 'FAIL|^==' "$out" | head)"
    grep -q "^== $p (model ptx): $n passed, 0 failed, 0 skipped, 0 unknown" "$out" ||
        fail "$p totals: $(grep '^==' "$out")"
    grep -q "FORBIDDEN" "$out" && fail "$p: forbidden outcome: $(grep -B8 FORBIDDEN "$out")"
    [ "$(grep -c "^  forward progress: " "$out")" -eq "$n" ] ||
        fail "$p: forward progress not reported for every test"
    for t in "${dirs[0]}"/*.litmus; do
        name=$(basename "$t" .litmus)
        grep -A6 "/$name.litmus (" "$out" |
            grep -q "forward progress: $iters of $iters iterations finished.*; termination guaranteed" ||
            fail "$p $name: $(grep -A6 "/$name.litmus (" "$out")"
    done
    for t in "${dirs[1]}"/*.litmus; do
        name=$(basename "$t" .litmus)
        want="$iters of $iters"
        [[ " ${never[*]} " == *" $name "* ]] && want="0 of $iters"
        grep -A6 "/$name.litmus (" "$out" | grep -q "forward progress: $want iterations finished" ||
            fail "$p $name: want $want finished: $(grep -A6 "/$name.litmus (" "$out")"
    done
    echo "$p: $n tests passed"
done
echo "ok"
