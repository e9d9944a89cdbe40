#!/usr/bin/env bash
# sm.warp_size: at 32 (warps) every statistic of four tiny runs (two machines,
# four protocols) equals what the SM gave before the parameter existed
# (tests/data/warp32/, one "name value" line per statistic; stc-gcn's runs
# with its earlier settings, now sm.warp_size=32, sm.warps=64 and
# l2.write_ack=performed). At 64 (wavefronts, stc-gcn's default) the same
# workloads give correct output with fewer warp instructions, and a bad width
# is refused. The engine's count of host events (engine.events: how the
# simulator schedules its work, not a simulated number) is not compared, as
# bench/same-stats.sh does not. A change that alters timing on purpose
# regenerates the files:
#   gpucoh run --config C --protocol P --workload W --size tiny --stats F.json
#   (then "name value" per entry of the JSON's "stats", sorted by name).
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
old32=(--set sm.warp_size=32 --set sm.warps=64 --set l2.write_ack=performed)
n=0
for ref in "$root"/tests/data/warp32/*.txt; do
    name=$(basename "$ref" .txt)
    case $name in
    tc-fermi-*) cfg=tc-fermi; rest=${name#tc-fermi-}; extra=() ;;
    stc-gcn-*) cfg=stc-gcn; rest=${name#stc-gcn-}; extra=("${old32[@]}") ;;
    esac
    case $rest in
    stc-*) proto=${rest%-*}; proto=stc-${proto#stc-}; wl=${rest#$proto-} ;;
    *) proto=${rest%%-*}; wl=${rest#*-} ;;
    esac
    "$bin" run --config "$root/configs/$cfg.ini" --protocol "$proto" --workload "$wl" --size tiny \
        --quiet "${extra[@]}" --stats "$tmp/s.json" >"$tmp/out" 2>&1 || fail "$name: $(tail -3 "$tmp/out")"
    # statistics added since the reference was taken are not compared
    python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))["stats"]
for line in open(sys.argv[2]):
    k = line.split()[0]
    print(k, d.get(k, "(missing)"))' "$tmp/s.json" "$ref" >"$tmp/got"
    diff -q "$ref" "$tmp/got" >/dev/null ||
        fail "$name at warp size 32 differs from before: $(diff "$ref" "$tmp/got" | head -6)"
    n=$((n + 1))
done
[ $n -eq 4 ] || fail "expected 4 reference runs, found $n"

# 64: correct output, one issue for both halves of a wavefront
for wl in cache-reuse hpgmg; do
    for ws in 32 64; do
        "$bin" run --config "$root/configs/stc-gcn.ini" --protocol stc-mb --workload $wl --size tiny \
            --quiet --set sm.warp_size=$ws --set sm.warps=$((2048 / ws)) >"$tmp/o$ws" 2>&1 ||
            fail "$wl at $ws: $(tail -3 "$tmp/o$ws")"
        grep -q "check           passed" "$tmp/o$ws" || fail "$wl at $ws: output wrong"
    done
    t32=$(awk '/instructions/{print $2}' "$tmp/o32"); t64=$(awk '/instructions/{print $2}' "$tmp/o64")
    w32=$(awk '/instructions/{print $4}' "$tmp/o32"); w64=$(awk '/instructions/{print $4}' "$tmp/o64")
    [ "$t32" = "$t64" ] || fail "$wl: thread instructions $t32 at 32, $t64 at 64"
    [ $((2 * w64)) -le $((w32 + w32 / 10)) ] || fail "$wl: $w64 warp instructions at 64, $w32 at 32"
done
# both halves of a wavefront issue a memory instruction while one slot of
# sm.max_inflight is free: the second half takes the pool's spare slot (a
# segfault once, when the pool had none)
"$bin" run --config "$root/configs/stc-gcn.ini" --protocol stc-mb --workload cache-reuse --size tiny \
    --quiet --set sm.max_inflight=2 >"$tmp/o" 2>&1 || fail "max_inflight 2 at 64: $(tail -3 "$tmp/o")"
grep -q "check           passed" "$tmp/o" || fail "max_inflight 2 at 64: output wrong"
"$bin" config show --config "$root/configs/stc-gcn.ini" --set sm.warps=40 >"$tmp/o" 2>&1
[ $? -eq 2 ] && grep -q "must be at most 32 with sm.warp_size = 64" "$tmp/o" || fail "40 wavefront slots accepted"
echo "warp-width: $n reference runs identical, 64-thread wavefronts correct"
