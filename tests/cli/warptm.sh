#!/usr/bin/env bash
# warptm.sh - protocol warptm (WarpTM; docs/transactions.md) on the GETM set
# at tiny size on configs/getm-fermi.ini: ATM and HT-H in transactions under
# WarpTM, WarpTM-EL (ideal, warptm.eager) and EAPG (ideal, warptm.eapg), each
# run's final state checked by the workload; the ideal variants abort early
# (their statistics say so); a bad table size is an input error naming the key.
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
echo ok
