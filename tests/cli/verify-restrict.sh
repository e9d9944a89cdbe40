#!/usr/bin/env bash
# gpucoh verify with the cores restricted (docs/verify.md, "Against the stress
# tester"): --ops-each gives every L1's core its own operation bound and
# --kinds the operation kinds it issues, so that one core can run the longer
# sequence a cell needs while the others stay short. Each reaches a cell the
# stress tester reaches and no unrestricted run of about a minute did (MESI's
# SM.Busy: a request to a line whose UPGRADE is out, which needs a second
# sharer); a counterexample found under them records both and replays; bad
# lists exit 2. About 2 CPU seconds.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field, reaches, bad

# core 0: load, store (UPGRADE from S), a load behind it; core 1 one load (the sharer)
reaches "bounded one by one (--ops-each 3,1)" "mesi.L1.SM.Busy" \
    --protocol mesi --inflight 2 --values 1 --no-atomics --ops-each 3,1
reaches "kinds per L1 restricted (--kinds ls,l)" "mesi.L1.SM.Busy" \
    --protocol mesi --inflight 2 --values 1 --no-atomics --ops 3 --kinds ls,l

# a restricted run's state space is a part of the unrestricted one's
small=$(field "$("$bin" verify --protocol mesi --ops-each 2,1 --kinds ls,l 2>&1)" states)
full=$(field "$("$bin" verify --protocol mesi --ops 2 2>&1)" states)
[ -n "$small" ] && [ -n "$full" ] && [ "$small" -lt "$full" ] ||
    fail "restricted run of '$small' states, unrestricted '$full'"
n=$((n + 1))

# a counterexample under both records them and replays
caught rc-noinv "$tmp/r.cex" "data value" "data value: l1\[0\]'s load of line 0 returned" \
    --ops-each 3,1 --kinds lf,s
grep -q "^ops_each 3,1$" "$tmp/r.cex" && grep -q "^kinds lf,s$" "$tmp/r.cex" ||
    { cat "$tmp/r.cex"; fail "the counterexample does not record --ops-each and --kinds"; }
n=$((n + 1))

bad "1 bounds for 2 L1s" --protocol rc --ops-each 3
bad "3 bounds for 2 L1s" --protocol rc --ops-each 3,1,1
bad "each 0 to 255" --protocol rc --ops-each 3,256
bad "each 0 to 255" --protocol rc --ops-each 3,x
bad "each 0 to 255" --protocol rc --ops-each 256,1
bad "not interchangeable" --protocol rc --ops-each 3,1 --symmetry on
bad "1 groups for 2 L1s" --protocol rc --kinds ls
bad "the letters l, s, a, f" --protocol rc --kinds lx,l
bad "the letters l, s, a, f" --protocol rc --kinds ll,l
bad "no operation kind" --protocol rc --kinds l,
bad "not interchangeable" --protocol rc --kinds l,s --symmetry on
bad "not with --scopes" --protocol rc --kinds l,s --sync
bad "runs transactions" --protocol getm --kinds l,s
bad "only atomics, which --no-atomics" --protocol rc --kinds l,a --no-atomics
n=$((n + 1))

echo "verify-restrict: $n passed, 0 failed"
