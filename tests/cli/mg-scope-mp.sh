#!/usr/bin/env bash
# mp's flag is .gpu-scoped (st.release.gpu, ld.acquire.gpu). On 4 GPUs of one
# GPM each, size tiny's four CTAs go one to a GPU (docs/multi-gpu.md, "CTAs"),
# so each producer-consumer pair is split over two GPUs. Under sw-h, which keeps
# only the coherence the scoped model asks for, the consumer polls its own GPU
# home's copy of the flag for ever: the spin watchdog stops the run (exit 3),
# and on a machine of several GPUs its message names the program's scope as a
# possible cause. The `sys` variant (st.release.sys, ld.acquire.sys) finishes
# and passes its check there, and both pass under the other multi-GPM
# protocols, whose .gpu accesses meet at one home per line. On 2 GPUs the tiny
# pairs stay inside a GPU (CTAs 0-1 on GPU 0), and the .gpu flag is enough.
set -u
bin=$1 root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run() { # GPUS PROTOCOL [ARGS...] -> exit status, output in $tmp/out
    local gpus=$1 p=$2
    shift 2
    "$bin" run --workload mp --size tiny --config "$root/configs/hmg-4x4.ini" --set topology.gpus="$gpus" \
        --set topology.gpms=1 --protocol "$p" "$@" >"$tmp/out" 2>&1
}
run 4 sw-h
rc=$?
[ $rc -eq 3 ] || fail "sw-h, 4 GPUs: .gpu-scoped mp exited $rc, not 3 (no progress): $(head -3 "$tmp/out")"
grep -q "no progress: in kernel mp_acqrel" "$tmp/out" || fail "sw-h, 4 GPUs: not the no-progress fault"
grep -q "or the program's scope: on a machine of several GPUs a flag set at .gpu scope" "$tmp/out" ||
    fail "sw-h, 4 GPUs: the fault does not name the program's scope"
run 4 sw-h --variant sys || fail "sw-h, 4 GPUs, sys: $(grep -E 'check|error|fault' "$tmp/out")"
run 2 sw-h || fail "sw-h, 2 GPUs (pairs inside a GPU): $(grep -E 'check|error|fault' "$tmp/out")"
for p in hmg nhcc sw-nh ideal-mg nocache-mg; do
    run 4 $p || fail "$p, 4 GPUs: $(grep -E 'check|error|fault' "$tmp/out")"
    run 4 $p --variant sys || fail "$p, 4 GPUs, sys: $(grep -E 'check|error|fault' "$tmp/out")"
done
echo "mg-scope-mp: ok"
