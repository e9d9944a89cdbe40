#!/usr/bin/env bash
# Scoped litmus tests placed on several GPUs and GPU modules (litmus/multi-gpu)
# give only outcomes the PTX model allows, 1000 iterations each, under every
# multi-GPM protocol on a 3 GPU x 2 GPM machine; the verdicts come from the
# oracle (.gpu-scoped MP and SB across GPUs allowed, .sys-scoped forbidden,
# .gpu-scoped MP across the GPMs of one GPU forbidden). sw-h, whose GPU homes
# serve .gpu loads and are not invalidated, shows the allowed .gpu-scoped
# weak outcomes of MP and SB across GPUs. The scoped atomic counters (Atom-*)
# lose no update where the scope covers both threads: .cta ones in one CTA
# (performed in the L1, also mixed with a .gpu one), .gpu ones over two GPMs
# of a GPU, .sys ones over two GPUs; .gpu ones over two GPUs may, and do
# under hmg and sw-h with mg.gpu_atomics = gpu-home (each GPU's GPU home
# performs them). On a single GPU the tests that place threads on other GPUs
# are skipped with a reason.
set -u
bin=$1
src=${2:-.}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
machine=(--set topology.gpus=3 --set topology.gpms=2 --set gpu.sms=2 --set l2.banks=2
         --set topology.page_bytes=4K)
for p in nhcc hmg ideal-mg sw-nh sw-h nocache-mg; do
    "$bin" litmus --protocol $p "${machine[@]}" --iterations 1000 "$src/litmus/multi-gpu" \
        >"$tmp/$p.out" 2>&1 || fail "litmus $p: $(grep -B3 FAIL "$tmp/$p.out" | head -20)"
    grep -q "== $p (model ptx): 11 passed, 0 failed, 0 skipped" "$tmp/$p.out" ||
        fail "litmus $p: $(tail -3 "$tmp/$p.out")"
done
grep -A8 "MP-gpu-2gpus.litmus" "$tmp/hmg.out" | grep -q "ptx oracle = 1 (C allowed)" ||
    fail "MP-gpu-2gpus must be allowed by the oracle"
for t in MP-gpu-2gpus SB-gpu-2gpus; do
    grep -A8 "$t.litmus" "$tmp/sw-h.out" | grep -Eq "hits: [1-9][0-9]* of 1000" ||
        fail "sw-h: the weak outcome of $t was not observed"
done
grep -A8 "MP-sys-2gpus.litmus" "$tmp/hmg.out" | grep -q "ptx oracle = 0 (C forbidden)" ||
    fail "MP-sys-2gpus must be forbidden by the oracle"
grep -A8 "Atom-gpu-2gpus.litmus" "$tmp/hmg.out" | grep -q "ptx oracle = 1 (C allowed)" ||
    fail "Atom-gpu-2gpus must be allowed by the oracle"
for t in Atom-cta-1cta Atom-cta-gpu-1cta Atom-gpu-2gpms Atom-sys-2gpus; do
    grep -A8 "$t.litmus" "$tmp/hmg.out" | grep -q "ptx oracle = 0 (C forbidden)" ||
        fail "$t must be forbidden by the oracle"
done
# .gpu atomics at the GPU homes: lost across GPUs, never within a GPU or at .sys
for p in hmg sw-h; do
    "$bin" litmus --protocol $p "${machine[@]}" --set mg.gpu_atomics=gpu-home --iterations 1000 \
        "$src"/litmus/multi-gpu/Atom-*.litmus >"$tmp/ga-$p.out" 2>&1 ||
        fail "litmus $p, gpu-home atomics: $(grep -B3 FAIL "$tmp/ga-$p.out" | head -20)"
    grep -q "== $p (model ptx): 5 passed, 0 failed, 0 skipped" "$tmp/ga-$p.out" ||
        fail "litmus $p, gpu-home atomics: $(tail -3 "$tmp/ga-$p.out")"
    grep -A8 "Atom-gpu-2gpus.litmus" "$tmp/ga-$p.out" | grep -Eq "hits: [1-9][0-9]* of 1000" ||
        fail "$p, gpu-home atomics: no update of Atom-gpu-2gpus was lost"
done
"$bin" litmus --protocol rc --iterations 10 "$src/litmus/multi-gpu/MP-sys-2gpus.litmus" \
    >"$tmp/one.out" 2>&1 || fail "one GPU: $(cat "$tmp/one.out")"
grep -q "SKIP.*several GPUs" "$tmp/one.out" || fail "one GPU: no skip reason: $(cat "$tmp/one.out")"
"$bin" litmus --protocol nhcc --set topology.gpus=2 --iterations 10 \
    "$src/litmus/multi-gpu/WRC-sys-3gpus.litmus" >"$tmp/two.out" 2>&1 || fail "$(cat "$tmp/two.out")"
grep -q "SKIP.*GPU the machine lacks" "$tmp/two.out" || fail "two GPUs: $(cat "$tmp/two.out")"
# the same protocols on one GPU of one GPM, asked for explicitly (their L1's
# release and acquire rounds alone): the core subset of the PTX suite, no
# forbidden outcome
for p in nhcc hmg ideal-mg sw-nh sw-h nocache-mg; do
    "$bin" litmus --protocol $p --set topology.gpus=1 --set topology.gpms=1 --core \
        "$src/litmus/ptx" >"$tmp/core-$p.out" 2>&1 ||
        fail "core subset on $p: $(grep -E 'FAIL|^==' "$tmp/core-$p.out" | head -5)"
done
echo "litmus-mg: passed"
