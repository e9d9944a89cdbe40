#!/usr/bin/env bash
# Litmus tests under Relativistic Cache Coherence, 1000 randomised iterations
# each (start skews, pre-warmed L1 copies, jitter, bank conflicts):
#  - rccsc under order.model = sc gives only outcomes SC allows (the oracle's
#    sc model), on every runnable test of the in-tree suite's core subset and
#    on the project's own (MP, IRIW, SB, LB, WRC, 2+2W, R, S ...);
#  - rccwo under rmo gives only outcomes PTX allows, on the same tests; its
#    read and write views do show the weak outcomes of MP and SB without
#    fences, and never MP's with fences.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
suite=$root/litmus/ptx
own=("$root"/tests/litmus/MP-*.litmus "$root"/tests/litmus/IRIW-*.litmus "$root"/tests/litmus/tso/*.litmus)

"$bin" litmus --protocol rccsc --set order.model=sc --core --iterations 1000 "$suite" \
    >"$tmp/sc.out" 2>&1 || fail "rccsc, core subset: $(grep -E 'FAIL|^==' "$tmp/sc.out" | head)"
grep -q "^== rccsc (model sc): [1-9][0-9]* passed, 0 failed" "$tmp/sc.out" || fail "rccsc core summary"
grep '^==' "$tmp/sc.out"
"$bin" litmus --protocol rccwo --core --iterations 1000 "$suite" \
    >"$tmp/wo.out" 2>&1 || fail "rccwo, core subset: $(grep -E 'FAIL|^==' "$tmp/wo.out" | head)"
grep -q "^== rccwo (model ptx): [1-9][0-9]* passed, 0 failed" "$tmp/wo.out" || fail "rccwo core summary"
grep '^==' "$tmp/wo.out"

"$bin" litmus --protocol rccsc --set order.model=sc --iterations 1000 "${own[@]}" >"$tmp/sc2.out" 2>&1 ||
    fail "rccsc, own tests: $(grep -E 'FAIL|^==' "$tmp/sc2.out" | head)"
grep -q "^== rccsc (model sc): [1-9][0-9]* passed, 0 failed, 0 skipped" "$tmp/sc2.out" ||
    fail "rccsc own: $(grep '^==' "$tmp/sc2.out")"
grep '^==' "$tmp/sc2.out"
"$bin" litmus --protocol rccwo --iterations 1000 "${own[@]}" >"$tmp/wo2.out" 2>&1 ||
    fail "rccwo, own tests: $(grep -E 'FAIL|^==' "$tmp/wo2.out" | head)"
grep '^==' "$tmp/wo2.out"
grep -q "^== rccwo (model ptx): [1-9][0-9]* passed, 0 failed" "$tmp/wo2.out" || fail "rccwo own summary"
hits() { awk -v t="$1" 'index($0, t) && /litmus \(/{f=1} f&&/hits:/{print $2; exit}' "$tmp/wo2.out"; }
[ "$(hits '/MP-weak.litmus')" -gt 0 ] || fail "rccwo never showed MP's weak outcome without fences"
[ "$(hits '/tso/SB.litmus')" -gt 0 ] || fail "rccwo never showed SB's weak outcome"
[ "$(hits '/MP-weak-fenced.litmus')" -eq 0 ] || fail "rccwo showed MP's weak outcome with fences"

# `all` under sc runs rccsc
"$bin" litmus --protocol all --set order.model=sc --iterations 50 "$root/tests/litmus/tso/SB.litmus" \
    >"$tmp/all.out" 2>&1 || fail "all under sc: $(grep -E 'FAIL|^==' "$tmp/all.out")"
grep -q '^== rccsc (model sc): 1 passed' "$tmp/all.out" || fail "rccsc not run by all under sc"
echo "litmus-rcc: passed"
