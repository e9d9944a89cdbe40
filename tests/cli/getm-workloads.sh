#!/bin/bash
# getm-workloads.sh - the GETM set (workloads atm, ht, cl-tm, bh-tm, cc-tm,
# ap) at tiny size on configs/getm-fermi.ini: each in transactions (--variant
# tx, m-tx, l-tx, to-tx) and as its fine-grained-lock twin, every final state
# checked by the workload (ATM: every balance and the total; HT: every chain;
# CL: coordinate sums and update counts; BH: the whole tree; CC: flow
# conservation, skew symmetry and heights; AP: every count), and the
# transactional runs print their transactions line (aborts by cause); a
# transactional variant under a protocol without transactional memory stops
# with exit 2.
# usage: getm-workloads.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$tmp/out"; exit 1; }
cfg=(--config "$root/configs/getm-fermi.ini" --size tiny --quiet)
for run in "atm" "atm tx" "ht" "ht tx" "ht m-tx" "ht l-tx" "cl-tm" "cl-tm tx" "cl-tm to" \
           "cl-tm to-tx" "bh-tm" "bh-tm tx" "cc-tm" "cc-tm tx" "ap" "ap tx"; do
    set -- $run
    "$bin" run --workload "$1" ${2:+--variant "$2"} "${cfg[@]}" >"$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 0 ] || fail "$run: exit $rc"
    grep -qE "check +passed" "$tmp/out" || fail "$run: no passing check"
    # a transactional run prints its commits, aborts and their causes per 1K commits
    case "${2:-}" in *tx) grep -qE "^  transactions +[1-9][0-9]* committed, [0-9]+ aborted \([0-9]+ per 1K commits\):" \
                              "$tmp/out" || fail "$run: no transactions line" ;; esac
done
"$bin" run --workload atm --variant tx --size tiny --protocol rc --quiet >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "atm tx under rc: exit $rc, expected 2"
echo ok
