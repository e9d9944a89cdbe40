#!/usr/bin/env bash
# tools/verify-stress-table.sh BIN DOC [PROTOCOL...] - for every protocol that
# `gpucoh verify` runs (or those named), compare the table cells the stress
# tester reaches with those the explorer reaches, and replace the table and the
# gap list between DOC's <!-- verify-stress --> markers with the result
# (named protocols: printed only, DOC untouched; `make verify-stress` runs it on docs/verify.md; docs/verify.md, "Against the
# stress tester").
#
# Stress: `gpucoh stress --episodes 20000 --seed 1 --small-caches --check` (the
# multi-GPM protocols on configs/hmg-4x4.ini cut to 2 GPUs x 2 GPMs, so that a
# GPU home differs from the system home). Verify: the union of the small runs
# listed below for the protocol (each seconds to about a minute on the shared
# 2-core machine), chosen to reach what stress reaches: conflicting lines,
# two operations in flight, a merge limit of 0. A cell counts as reached when
# its count is above 0 (a stall counts). Columns: cells the tables define,
# cells stress reaches, of those the cells the union reaches, cells only the
# union reaches; then, per protocol, the cells stress reaches that the union
# does not (the gaps, whose reasons docs/verify.md gives).
set -euo pipefail
bin=$1
doc=$2
shift 2
mgcfg="--config $(dirname "$0")/../configs/hmg-4x4.ini --set topology.gpus=2 --set topology.gpms=2"
C2="--lines 2 --conflict"
FULL="--inflight 2 --merge-max 0 --values 1 --no-atomics"
# protocol | verify runs, separated by ';' (each a list of verify options)
runs() {
    case $1 in
    nol1 | rc)
        echo "--ops 2; --inflight 2; $C2 both; $C2 l1; $C2 l1 $FULL" ;;
    gpuvi | gpuvini | ideal)
        echo "--ops 2; --inflight 2; $C2 both; $C2 l1; $C2 l1 $FULL;
              --inflight 2 --ops 3 --values 1 --no-atomics; --l1s 3 --ops 1;
              --l1s 1 $C2 l1 --inflight 2 --ops 3 --values 1 --no-atomics;
              --lines 3 --conflict l2 --conflict-ways 2 --ops-each 3,1 --values 1 --no-atomics" ;;
    mesi)
        echo "--ops 2; --inflight 2; $C2 both --ops 1; $C2 l1 $FULL; --l1s 3 --ops 1;
              $C2 both --ops 2 --values 1 --no-atomics;
              --inflight 2 --ops 3 --values 1 --no-atomics --symmetry on;
              $C2 l1 --ops 3 --values 1 --no-atomics --kinds l,ls;
              $C2 l1 --ops-each 3,2 --values 1 --no-atomics --kinds ls,ls" ;;
    tcs | tcw)
        # tcw: two warps per core, a load to a VM line from a warp other than its
        # writer (L1.VM.LoadOther; docs/verify.md, "Two warps per core")
        local warps=""
        [ "$1" != tcw ] || warps="; --inflight 2 --ops 3 --ops-each 3,1 --values 1 --no-atomics --warps 2"
        echo "--ops 2; --inflight 2 --merge-max 0 --ops 2 --values 1 --no-atomics --lease 1;
              $C2 both --ops 1; $C2 l1 --ops 2 --no-atomics --values 1 --lease 1;
              $C2 both --ops 2 --no-atomics --values 1 --lease 1; --l1s 3 --ops 1;
              --l1s 1 --inflight 2 --ops 2 --values 1;
              --l1s 1 $C2 l1 --inflight 2 --ops 3 --values 1 --no-atomics$warps" ;;
    rccsc | rccwo)
        # one L1 with conflicting lines: a load behind a fill, atomics, a copy expired
        # (E) or being renewed (IV) or written (VI) meeting the other line's fill
        echo "--ops 2; --inflight 2 --merge-max 0 --ticks 0 --no-atomics;
              $C2 both --ops 1; $C2 l1 --ops 2 --no-atomics --values 1 --ticks 1;
              --l1s 1 $C2 l1 --ops 3 --inflight 2 --ticks 2 --values 1 --merge-max 1;
              --l1s 1 $C2 l1 --ops 4 --inflight 2 --ticks 3 --values 1 --no-atomics --merge-max 1 --lease 1" ;;
    stc-es | stc-ab | stc-mb)
        # one L1: atomics and loads behind outstanding requests; the lines in two
        # bands (stc.seb=7, the bit between them); the EMU's SEB moves (stc-ab's
        # safe rule: three lines, two of them in one band; docs/verify.md)
        local emu=""
        [ "$1" != stc-mb ] || emu="; --l1s 1 --lines 2 --inflight 2 --ops 4 --values 1 --no-atomics"
        [ "$1" != stc-ab ] || emu="; --l1s 1 --lines 3 --inflight 2 --ops 5 --values 1 --no-atomics
              --set stc.seb_min=7 --set stc.seb=8"
        echo "--ops 2; --inflight 2 --merge-max 0 --ops 2 --values 1 --no-atomics;
              $C2 both --ops 1; $C2 l1 --ops 2 --no-atomics --values 1;
              --l1s 1 --inflight 2 --ops 2 --values 1 --merge-max 1;
              --l1s 1 --lines 2 --set stc.seb=7 --set stc.seb_min=7 --inflight 4 --ops 4 --values 1
              --no-atomics --merge-max 1$emu" ;;
    spandex-g)
        # the last: an atomic and a second load behind an outstanding miss
        echo "--ops 2; --inflight 2 --merge-max 0 --ops 2 --values 1 --no-atomics;
              $C2 both --ops 1; $C2 l1 --no-atomics; --inflight 2 --merge-max 1 --ops 2 --values 1" ;;
    spandex-d)
        # the last two: a forward taking the words of a line in W before the
        # writer's core asks for them (out of order, past the request waiting
        # for the way); a stale write-back meeting a MESI device's revocation
        echo "--ops 2; --inflight 2 --merge-max 0 --ops 2 --values 1 --no-atomics;
              $C2 both --ops 1; $C2 l1 --no-atomics;
              --words 2 --inflight 2 --ops 2 --values 1 --no-atomics;
              --l1s 1 --words 2 --inflight 2 --ops 3 --values 1;
              --l1s 1 $C2 l1 --inflight 2 --ops 3 --values 1 --set l1.issue=out-of-order;
              --devices denovo,mesi --words 2 --ops 2 --values 1;
              --devices denovo,denovo,mesi --words 2 --ops 1 --values 1;
              --devices denovo,mesi $C2 both --ops 2 --values 1;
              $C2 l1 --ops 3 --values 1 --no-atomics;
              --l1s 1 --lines 3 --conflict l1 --conflict-ways 2 --inflight 2 --ops 4 --values 1
              --no-atomics --sync --set l1.issue=out-of-order;
              $C2 l1 --inflight 2 --ops-each 3,1 --values 1 --no-atomics --set l1.issue=out-of-order;
              --devices denovo,denovo,mesi $C2 l1 --ops-each 2,1,1 --values 1 --no-atomics" ;;
    nhcc | hmg | ideal-mg | sw-nh | sw-h | nocache-mg)
        echo "--ops 2; $C2 both --ops 2 --values 1 --no-atomics;
              --inflight 2 --merge-max 0 --values 1 --no-atomics; --ops 3 --values 1 --no-atomics;
              --gpus 2 --scopes gpu,sys --ops 2 --values 1;
              --gpus 2 --scopes gpu,sys $C2 both --ops 2 --values 1 --no-atomics;
              --inflight 2 --values 1 --no-atomics; --inflight 2 --ops 3 --ops-each 3,0 --values 1 --merge-max 0;
              --inflight 2 --ops 3 --ops-each 3,1 --values 1 --no-atomics --merge-max 0;
              --l1s 4 --gpm-sms 2 --ops-each 2,2,0,0 --values 1;
              --l1s 4 --gpus 2 --ops-each 1,1,0,1 --values 1 --no-atomics;
              --scopes sys --ops 1 --values 1 --no-atomics;
              $C2 l2 --line-pages --ops 2 --values 1 --no-atomics" ;;
    getm | warptm)
        echo "--ops 1; --plain --ops 2 --values 1; $C2 both --ops 1;
              --plain-only --inflight 2 --ops 2 --values 1;
              --plain-only $C2 l1 --inflight 2 --merge-max 0 --values 1 --no-atomics" ;;
    *) return 1 ;;
    esac
}
protos=${*:-"nol1 rc gpuvi gpuvini ideal mesi tcs tcw rccsc rccwo stc-es stc-ab stc-mb spandex-g
    spandex-d nhcc hmg ideal-mg sw-nh sw-h nocache-mg getm warptm"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
reached() { awk '$2 > 0 {print $1}' "$@" | sed 's/^coverage\.//' | sort -u; }
commit=$(git -C "$(dirname "$doc")" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$(dirname "$doc")" status --porcelain -- :/src 2>/dev/null | head -1)
{
    echo "Generated by \`make verify-stress\` (tools/verify-stress-table.sh) on $(date -u +%Y-%m-%d),"
    echo "commit $commit${dirty:+ (with uncommitted changes in src/)}, size tiny; the runs are listed in the script."
    echo
    echo "| protocol | cells | stress reaches | of those verify reaches | only verify reaches | verify runs (s) |"
    echo "|---|---|---|---|---|---|"
} >"$tmp/table"
: >"$tmp/gaps"
# one PROTOCOL: its row into $tmp/PROTOCOL.row, its gaps into $tmp/PROTOCOL.gap
one() {
    local p=$1 list extra="" i=0 t0 secs r rs
    list=$(runs "$p") || { echo "verify-stress-table: no runs for $p" >&2; return 2; }
    case $p in nhcc | hmg | ideal-mg | sw-nh | sw-h | nocache-mg) extra=$mgcfg ;; esac
    # shellcheck disable=SC2086
    "$bin" stress --protocol "$p" --episodes 20000 --seed 1 --small-caches --check $extra \
        --coverage "$tmp/$p.stress" >/dev/null 2>&1
    t0=$(date +%s.%N)
    IFS=';' read -r -a rs <<<"$(echo "$list" | tr '\n' ' ')"
    for r in "${rs[@]}"; do
        # shellcheck disable=SC2086
        "$bin" verify --protocol "$p" $r --coverage "$tmp/$p.v$i" >"$tmp/$p.v$i.out" 2>&1 ||
            { cat "$tmp/$p.v$i.out" >&2; echo "verify $p $r failed" >&2; return 1; }
        i=$((i + 1))
    done
    secs=$(echo "$(date +%s.%N) - $t0" | bc)
    reached "$tmp/$p.stress" >"$tmp/$p.s"
    reached "$tmp/$p".v[0-9]* >"$tmp/$p.v"
    printf '| %s | %s | %s | %s | %s | %s (%.0f) |\n' "$p" "$(grep -c '^coverage\.' "$tmp/$p.v0")" \
        "$(wc -l <"$tmp/$p.s")" "$(comm -12 "$tmp/$p.v" "$tmp/$p.s" | wc -l)" \
        "$(comm -23 "$tmp/$p.v" "$tmp/$p.s" | wc -l)" "$i" "$secs" >"$tmp/$p.row"
    gaps=$(comm -13 "$tmp/$p.v" "$tmp/$p.s" | sed "s/^$p\.//" | tr '\n' ' ' | sed 's/ $//')
    : >"$tmp/$p.gap"
    [ -z "$gaps" ] || echo "- $p ($(comm -13 "$tmp/$p.v" "$tmp/$p.s" | wc -l)): \`${gaps// /\`, \`}\`" >"$tmp/$p.gap"
    echo "$p done" >&2
}
# JOBS protocols at a time (default 2)
for p in $protos; do
    while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-2}" ]; do wait -n || exit 1; done
    one "$p" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || exit 1; done
for p in $protos; do
    [ -f "$tmp/$p.row" ] || { echo "verify-stress-table: $p failed" >&2; exit 1; }
    cat "$tmp/$p.row" >>"$tmp/table"
    cat "$tmp/$p.gap" >>"$tmp/gaps"
done
{
    cat "$tmp/table"
    echo
    echo "Cells stress reaches that no verify run above reaches:"
    echo
    if [ -s "$tmp/gaps" ]; then cat "$tmp/gaps"; else echo "- none"; fi
} >"$tmp/out"
named=${*:-}
[ -n "$named" ] && { cat "$tmp/out"; exit 0; } # named protocols: print only
python3 "$(dirname "$0")/splice_block.py" "$doc" verify-stress "$tmp/out"
cat "$tmp/out"
