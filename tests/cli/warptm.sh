#!/usr/bin/env bash
# warptm.sh - protocol warptm (WarpTM; docs/transactions.md) on the GETM set
# at tiny size on configs/getm-fermi.ini: ATM and HT-H in transactions under
# WarpTM, WarpTM-EL (ideal, warptm.eager) and EAPG (ideal, warptm.eapg), each
# run's final state checked by the workload; the ideal variants abort early
# (their statistics say so); a bad table size is an input error naming the key;
# with the smallest hold tables every run makes progress (the serial token).
# usage: warptm.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$tmp/out"; exit 1; }
cfg=(--config "$root/configs/getm-fermi.ini" --size tiny --protocol warptm --quiet)
for run in "atm tx -" "ht tx -" "atm tx warptm.eager=true" "atm tx warptm.eapg=true"; do
    set -- $run
    sets=()
    [ "$3" = - ] || sets=(--set "$3")
    "$bin" run --workload "$1" --variant "$2" "${cfg[@]}" "${sets[@]}" \
        --stats "$tmp/s.json" >"$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "$run: exit $rc"
    grep -qE "check +passed" "$tmp/out" || fail "$run: no passing check"
    grep -q '"gpu.sm\[0\].tx.validation_msgs":[[:space:]]*[1-9]' "$tmp/s.json" || fail "$run: no validations"
    case $3 in
    warptm.eager=true) key=eager_aborts ;;
    warptm.eapg=true) key=eapg_aborts ;;
    *) key= ;;
    esac
    [ -z "$key" ] || grep -q "\"gpu.sm\[[0-9]*\].tx.$key\":[[:space:]]*[1-9]" "$tmp/s.json" ||
        fail "$run: no $key"
done
"$bin" run --workload atm --variant tx "${cfg[@]}" --set warptm.hold_entries=12 >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "hold_entries=12: exit $rc, expected 2"
grep -q "warptm.hold_entries (12) and warptm.tcd_entries (512) must be powers of two" "$tmp/out" ||
    fail "no message naming warptm.hold_entries"
# Forward progress (docs/transactions.md): with small hold tables these runs
# livelocked before the serialising fallback (a single warp at 4 entries, HT-M
# at 8 and EAPG at 8, WarpTM-EL at 4: exit 3); now each finishes with its
# final state checked and its serial grants counted.
grants() { # the serial grants of the run whose statistics are in $1, over every SM
    grep -o '"gpu.sm\[[0-9]*\].tx.serial_grants":[[:space:]]*[0-9]*' "$1" |
        awk -F: '{ s += $2 } END { print s + 0 }'
}
cat >"$tmp/fill.spec" <<EOF
ptx $(cd "$root" && pwd)/tests/ptx/tx.ptx
buffer out s32 1024
launch tx_fill_lines grid 1 block 32 args out
check out = i / 32 + i % 32
EOF
for sets in "warptm.hold_entries=4" "warptm.hold_entries=4 warptm.eager=true"; do
    args=()
    for s in $sets; do args+=(--set "$s"); done
    "$bin" exec "$tmp/fill.spec" --protocol warptm "${args[@]}" --stats "$tmp/s.json" \
        >"$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "one warp filling 32 lines, $sets: exit $rc"
    grep -q "check out ok (1024 elements)" "$tmp/out" || fail "one warp, $sets: wrong lines"
    # every lane writes a whole line (4 granules) and a bank holds 3: only
    # alone does a lane commit, and the one grant commits all 32
    grep -qE '"gpu.sm\[0\].tx.lane_commits":[[:space:]]*32,' "$tmp/s.json" ||
        fail "one warp, $sets: not 32 lane commits"
    n=$(grants "$tmp/s.json")
    [ "$n" -eq 1 ] || fail "one warp, $sets: $n serial grants, expected 1"
done
for run in "m-tx warptm.hold_entries=8" "m-tx warptm.hold_entries=8 warptm.eapg=true" \
           "tx warptm.hold_entries=4 warptm.eager=true"; do
    set -- $run
    variant=$1
    shift
    args=()
    for s in "$@"; do args+=(--set "$s"); done
    "$bin" run --workload ht --variant "$variant" "${cfg[@]}" "${args[@]}" \
        --stats "$tmp/s.json" >"$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "ht $run: exit $rc"
    grep -qE "check +passed" "$tmp/out" || fail "ht $run: no passing check"
    grep -qE "^  transactions +2048 committed" "$tmp/out" || fail "ht $run: not 2048 commits"
    [ "$(grants "$tmp/s.json")" -ge 1 ] || fail "ht $run: the fallback never ran"
done
"$bin" run --workload atm --variant tx "${cfg[@]}" --set getm.progress_aborts=0 >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "progress_aborts=0: exit $rc, expected 2"
grep -q "getm.progress_aborts: 0 is out of range" "$tmp/out" ||
    fail "no message naming getm.progress_aborts"
echo ok
