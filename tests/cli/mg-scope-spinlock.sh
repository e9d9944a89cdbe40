#!/usr/bin/env bash
# A kernel's scope decides what its synchronisation covers, and on a machine
# of several GPUs a kernel's CTAs span them (docs/multi-gpu.md). spinlock's
# lock is .gpu-scoped (atom.cas and membar.gl): under sw-h, which keeps only
# the coherence the scoped model asks for, a CTA on the other GPU reads the
# counter inside the lock from its own GPU home, stale, and increments are
# lost: the check fails, as PTX allows. Its `sys` variant (atom.sys,
# membar.sys) passes there, and both pass under hmg, nhcc and sw-nh, whose
# homes keep .gpu and .sys accesses at one place per line. One GPU of two GPMs
# is one .gpu scope: the .gpu-scoped lock is enough there under sw-h.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run() { # GPUS PROTOCOL [VARIANT] -> exit status, output in $tmp/out
    local gpus=$1 p=$2
    shift 2
    "$bin" run --workload spinlock --size tiny --set topology.gpus="$gpus" --set topology.gpms=2 \
        --protocol "$p" "$@" >"$tmp/out" 2>&1
}
run 2 sw-h && fail "sw-h, 2 GPUs: the .gpu-scoped lock passed its check (no stale read across GPUs)"
grep -q "check *FAILED: counter: expected 128 acquisitions" "$tmp/out" ||
    fail "sw-h, 2 GPUs: not the lost-increment failure: $(grep -E 'check|error' "$tmp/out")"
run 2 sw-h --variant sys || fail "sw-h, 2 GPUs, sys: $(grep -E 'check|error' "$tmp/out")"
run 1 sw-h || fail "sw-h, 1 GPU of 2 GPMs: $(grep -E 'check|error' "$tmp/out")"
for p in hmg nhcc sw-nh; do
    run 2 $p || fail "$p, 2 GPUs: $(grep -E 'check|error' "$tmp/out")"
    run 2 $p --variant sys || fail "$p, 2 GPUs, sys: $(grep -E 'check|error' "$tmp/out")"
done
echo "mg-scope-spinlock: ok"
