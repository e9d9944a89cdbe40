#!/usr/bin/env bash
# tools/verify-table.sh BIN DOC - run `gpucoh verify` on every explorable protocol
# at 2 L1s x 1 line x 2 values (2 operations per L1, atomics on) and replace the
# table between DOC's <!-- verify-table --> markers with its results (protocol,
# states, transitions, depth, seconds, MiB, states/s, table cells reached),
# stamped with the date and commit. `make verify` runs it on docs/verify.md.
set -euo pipefail
bin=$1
doc=$2
# (stc-nv is left out: its EMU cycles the epochs at every wake-up, and at these
# bounds it passed 400 000 states without finishing; docs/verify.md)
# NAME:DEVICES runs NAME with --devices DEVICES (Spandex's device mixes)
protos="nol1 rc gpuvi gpuvini ideal mesi tcs tcw rccsc rccwo stc-es stc-ab stc-mb spandex-g
    spandex-g:gpu,denovo spandex-g:gpu,mesi spandex-d spandex-d:denovo,mesi nhcc hmg ideal-mg
    sw-nh sw-h nocache-mg getm warptm"
table=$(mktemp)
trap 'rm -f "$table"' EXIT
commit=$(git -C "$(dirname "$doc")" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$(dirname "$doc")" status --porcelain -- :/src 2>/dev/null | head -1)
{
    echo "Measured $(date -u +%Y-%m-%d) on commit $commit${dirty:+ (with uncommitted changes in src/)}, size tiny"
    echo "(2 L1s x 1 line x 2 values, 2 operations per L1, one in flight, atomics on; tcs and tcw with"
    echo "leases of up to 2 ticks; rccsc and rccwo with logical leases of 1 to 2 and up to 3 guard"
    echo "ticks a path; stc-* with two bands and the EMU waking once a tick; spandex-* with the"
    echo "default request types, --devices naming each L1's device; the multi-GPM protocols on"
    echo "1 GPU x 2 GPMs, one L1 each, with the fixed scopes of --scopes unset; getm and warptm with 2"
    echo "attempts per core, at most 2 transactional accesses an attempt); seconds on a"
    echo "shared 2-core machine, so states/s moves with its load."
    echo
    echo "| protocol | result | states | transitions | depth | seconds | MiB | states/s | cells reached |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for e in $protos; do
        p=${e%%:*}
        args=(--protocol "$p")
        [ "$e" != "$p" ] && args+=(--devices "${e#*:}")
        line=$("$bin" verify "${args[@]}" | grep "^verify $p ")
        p=${e/:/ --devices }
        echo "$line" | awk -v p="$p" '{
            match($0, / (verified|VIOLATION|incomplete):/); res = substr($0, RSTART + 1, RLENGTH - 2)
            match($0, /[0-9]+ states/); st = substr($0, RSTART, RLENGTH - 7)
            match($0, /[0-9]+ transitions/); tr = substr($0, RSTART, RLENGTH - 12)
            match($0, /depth [0-9]+/); d = substr($0, RSTART + 6, RLENGTH - 6)
            match($0, /[0-9.]+ s,/); s = substr($0, RSTART, RLENGTH - 3)
            match($0, /[0-9.]+ MiB/); m = substr($0, RSTART, RLENGTH - 4)
            match($0, /cells reached [0-9]+ of [0-9]+/); c = substr($0, RSTART + 14)
            rate = s > 0 ? sprintf("%.0f", st / s) : "-"
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", p, res, st, tr, d, s, m, rate, c
        }'
    done
} > "$table"
python3 "$(dirname "$0")/splice_block.py" "$doc" verify-table "$table"
cat "$table"
