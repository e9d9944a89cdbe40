#!/usr/bin/env bash
# gpucoh sweep with workload variants (docs/sweep.md): `ht:m` runs ht's
# variant m as its own app, a configuration's `variant=tx` joins tx to each
# workload's variant (ht:m under it runs m-tx, ht runs tx), each row's
# cycles are those of `gpucoh run` with that --variant, and the ids of runs
# without a variant do not change; a variant a workload lacks, a variant on
# a set or a game, and variant as a set axis are file:line errors (exit 2).
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat >"$tmp/v.sweep" <<SPEC
config $root/configs/getm-fermi.ini
workloads ht:m atm
protocols fglock=getm getm=getm:variant=tx
sizes tiny
SPEC
"$bin" sweep "$tmp/v.sweep" -j 2 --out "$tmp/out" >"$tmp/log" 2>&1 || fail "sweep exited $?: $(cat "$tmp/log")"
csv=$tmp/out/results.csv
[ "$(tail -n +2 "$csv" | wc -l)" -eq 4 ] || fail "expected 4 rows: $(cat "$csv")"
for run in "ht:m fglock ht m" "ht:m getm ht m-tx" "atm fglock atm -" "atm getm atm tx"; do
    set -- $run
    v=(); [ "$4" = - ] || v=(--variant "$4")
    cyc=$("$bin" run --workload "$3" "${v[@]}" --size tiny --config "$root/configs/getm-fermi.ini" \
          --quiet | awk '/^  cycles/ {print $2}')
    grep -q "^[^,]*,$1,getm,tiny,$2,getm,,0,ok,$cyc," "$csv" || fail "$1 $2: cycles $cyc not in: $(cat "$csv")"
done
grep -q '^ht\.m-tiny-getm-' "$csv" || fail "ht:m's id: $(cat "$csv")"
# a run without a variant keeps the id it had before variants existed
printf 'workloads mp\nprotocols rc\nsizes tiny\n' >"$tmp/p.sweep"
"$bin" sweep "$tmp/p.sweep" --list | grep -q '^mp-tiny-rc-f37c54f3a132 ' \
    || fail "mp's id changed: $("$bin" sweep "$tmp/p.sweep" --list)"

expect_error() { # expect_error PATTERN SPEC-TEXT
    printf '%b' "$2" >"$tmp/bad.sweep"
    "$bin" sweep "$tmp/bad.sweep" --out "$tmp/bad" >"$tmp/out.txt" 2>"$tmp/err"; local rc=$?
    [ $rc -eq 2 ] || fail "exit $rc, expected 2 for: $2"
    grep -q -- "$1" "$tmp/err" || fail "expected '$1' in: $(cat "$tmp/err")"
    [ ! -e "$tmp/bad" ] || fail "a bad spec made an output folder"
}
expect_error "bad.sweep:1: workload ht has no variant 'q' (tx, m, m-tx, l, l-tx)" 'workloads ht:q\nprotocols rc\n'
expect_error "bad.sweep:3: configuration x runs vecadd with variant 'tx', which workload vecadd does not have (it has none; line 1 names it)" \
    'workloads ht:m vecadd\n\nprotocols rc x=rc:variant=tx\n'
expect_error "bad.sweep:2: configuration g runs ht:m with variant 'm-m'" 'workloads ht:m\nprotocols g=getm:variant=m\n'
expect_error "bad.sweep:1: unknown workload 'basic' (gpucoh list workloads; a set has no variants)" 'workloads basic:tx\nprotocols rc\n'
expect_error "bad.sweep:3: variant is not an option" 'workloads ht\nprotocols rc\nset variant tx\n'
expect_error "bad.sweep:2: 'g=getm:variant=tx,variant=m': variant given twice" 'workloads ht\nprotocols g=getm:variant=tx,variant=m\n'
expect_error "bad.sweep:2: 'cod2:x': a game has no variants" 'model frames\nworkloads cod2:x\nprotocols dup\n'
echo ok
