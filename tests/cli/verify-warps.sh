#!/usr/bin/env bash
# gpucoh verify --warps 2 (docs/verify.md, "Two warps per core"): each core's
# operation comes from warp 0 or warp 1 of its SM, so TC-Weak's L1 meets a load
# to a VM line from a warp other than the line's writer (L1.VM.LoadOther, which
# the stress tester reaches and one warp per core cannot), judged by a
# reference whose program-order rules are each warp's; --warps 1 is the
# default's state space; a counterexample records the warps and replays; bad
# values and protocols whose L1 ignores the warp exit 2. About 3 CPU seconds.
set -u
bin=$1
. "$(dirname "$0")/../verify-caught.sh" # fail, tmp (removed on exit), n, caught, field, reaches, bad

# one L1: a load fills the line (V), warp 0's store makes it VM, warp 1 loads it
run=(--protocol tcw --l1s 1 --inflight 2 --ops 3 --values 1 --no-atomics)
reaches "2 warps per L1" "tcw.L1.VM.LoadOther tcw.L1.VM.Load" "${run[@]}" --warps 2
# ... which one warp cannot reach
"$bin" verify "${run[@]}" --coverage "$tmp/cov1" >/dev/null 2>&1 || fail "one warp: not verified"
awk '$1 == "coverage.tcw.L1.VM.LoadOther" && $2 == 0 {ok = 1} END {exit !ok}' "$tmp/cov1" ||
    { grep -F "VM.LoadOther" "$tmp/cov1"; fail "one warp reached VM.LoadOther"; }
n=$((n + 1))
# TC-Strong's L1 ignores the writer, not the warp's GWCT slot: explored too
reaches "2 warps per L1" "tcs.L1.VM.Load" --protocol tcs --l1s 1 --inflight 2 --ops 3 \
    --values 1 --no-atomics --warps 2

# --warps 1 is the default: the same state space
one=$(field "$("$bin" verify "${run[@]}" --warps 1 2>&1)" states)
def=$(field "$("$bin" verify "${run[@]}" 2>&1)" states)
two=$(field "$("$bin" verify "${run[@]}" --warps 2 2>&1)" states)
[ -n "$one" ] && [ "$one" = "$def" ] && [ -n "$two" ] && [ "$two" -gt "$one" ] ||
    fail "--warps 1 '$one' states, default '$def', --warps 2 '$two'"
n=$((n + 1))

# a counterexample under two warps records them, names each operation's warp, and replays
caught tcw-nogwct "$tmp/w.cex" "data value" "data value: " --warps 2
grep -q "^warps 2$" "$tmp/w.cex" && grep -qE "^op [0-9]+ [a-z.]+ [0-9]+ [0-9]+ warp [01]$" "$tmp/w.cex" ||
    { cat "$tmp/w.cex"; fail "the counterexample does not record the warps"; }
n=$((n + 1))

bad "'0' is not a whole number from 1 to 2" --protocol tcw --warps 0
bad "'3' is not a whole number from 1 to 2" --protocol tcw --warps 3
bad "'junk' is not a whole number from 1 to 2" --protocol tcw --warps junk
bad "protocol 'rc' is explored with one warp per core" --protocol rc --warps 2
bad "protocol 'getm' is explored with one warp per core" --protocol getm --warps 2
bad "sm.warps = 1 gives the SM fewer warp slots" --protocol tcw --warps 2 --set sm.warps=1

echo "verify-warps: $n passed, 0 failed"
