#!/usr/bin/env bash
# CPU-GPU litmus tests (litmus/cpu-gpu: MP both ways, SB, IRIW, LB with
# threads on CPU cores, "P1@cpu N") give only outcomes the PTX model allows,
# 1000 iterations each, under the paper's four static designs on
# configs/spandex.ini cut to a 2 x 2 mesh of 4 SMs, 4 CPU cores and 4 LLC
# banks (SDD, SDG: DeNovo CPU L1s; SMD, SMG: MESI CPU L1s; the full machine
# in tests/long/spandex.sh);
# the racy MP shows its allowed weak outcome. A CPU thread shares only .sys
# with a GPU thread, so the synchronised tests use .sys. Where the machine
# has no CPU cores (or in functional mode) the tests are skipped with a
# reason.
set -u
bin=$1
src=${2:-.}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
small=(--set gpu.sms=4 --set cpu.cores=4 --set l2.banks=4 --set noc.mesh_cols=2
       --set noc.mesh_rows=2)
n=0
for design in spandex-d:denovo spandex-g:denovo spandex-d:mesi spandex-g:mesi; do
    p=${design%:*} dev=${design#*:}
    "$bin" litmus --config "$src/configs/spandex.ini" --protocol $p --set cpu.device=$dev \
        "${small[@]}" --iterations 1000 "$src/litmus/cpu-gpu" >"$tmp/$p.out" 2>&1 ||
        fail "litmus $design: $(grep -B8 FAIL "$tmp/$p.out" | head -30)"
    grep -q "== $p (model ptx): 8 passed, 0 failed, 0 skipped" "$tmp/$p.out" ||
        fail "litmus $design: $(tail -3 "$tmp/$p.out")"
    grep -A12 "MP-cpu-gpu-weak.litmus" "$tmp/$p.out" | grep -Eq "hits: [1-9][0-9]* of 1000" ||
        fail "$design: the allowed weak outcome of MP-cpu-gpu-weak was never observed"
    for t in MP-cpu-to-gpu MP-gpu-to-cpu SB-cpu-gpu-sc-fence IRIW-cpu-gpu-sc-fence; do
        grep -A14 "$t.litmus" "$tmp/$p.out" | grep -q "ptx oracle = 0 (C forbidden)" ||
            fail "$design: $t must be forbidden by the oracle"
    done
    n=$((n + 1))
done
"$bin" litmus --protocol rc --iterations 10 "$src/litmus/cpu-gpu/MP-cpu-to-gpu.litmus" \
    >"$tmp/none.out" 2>&1 || fail "no CPU: $(cat "$tmp/none.out")"
grep -q "SKIP.*CPU core, and the machine has none" "$tmp/none.out" ||
    fail "no CPU: no skip reason: $(cat "$tmp/none.out")"
"$bin" litmus --functional --iterations 10 "$src/litmus/cpu-gpu/MP-cpu-to-gpu.litmus" \
    >"$tmp/fn.out" 2>&1 || fail "functional: $(cat "$tmp/fn.out")"
grep -q "SKIP.*CPU core" "$tmp/fn.out" || fail "functional: no skip reason: $(cat "$tmp/fn.out")"
echo "litmus-cpu: $((n + 2)) passed, 0 failed"
