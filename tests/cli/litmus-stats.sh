#!/bin/bash
# litmus-stats.sh - `gpucoh litmus --stats FILE` writes a whole, valid JSON file
# whose kernel_cycles[] name the litmus kernel. Regression: the machine kept a
# pointer to the kernel's name inside the PTX module, which the litmus runner
# frees after each test, so every name was freed memory and the file was
# sometimes not JSON at all.
# usage: bash litmus-stats.sh <gpucoh-binary> <repo-root>
set -u
bin=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for p in rc gpuvi; do
    "$bin" litmus --protocol $p --iterations 3 --stats "$tmp/s.json" \
        "$root/litmus/ptx/Manual/MP-gpu.litmus" "$root/litmus/ptx/Manual/SB-weak.litmus" \
        >"$tmp/o" 2>&1 || fail "$p: exit $?: $(tail -3 "$tmp/o")"
    python3 - "$tmp/s.json" <<'PY' || fail "$p: bad statistics file"
import json, sys
with open(sys.argv[1], "rb") as f:
    d = json.loads(f.read().decode("utf-8"))
k = d["kernel_cycles"]
assert len(k) == 6, f"{len(k)} kernels, want 6 (3 iterations of 2 tests)"
names = {e["kernel"] for e in k}
assert names == {"litmus_kernel"}, f"kernel names {names!r}, want {{'litmus_kernel'}}"
assert all(e["cycles"] > 0 for e in k), "a kernel without cycles"
PY
done
echo "litmus-stats: 1 passed, 0 failed"
