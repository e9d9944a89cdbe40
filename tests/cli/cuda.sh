#!/bin/bash
# cuda.sh - unmodified CUDA programs through the libcudart stand-in (docs/cuda.md):
# the five example programs of examples/cuda/, managed (cudaMallocManaged) and
# managed_var (__managed__ variables;
# built with nvcc -cudart shared, committed in examples/cuda/bin/) check their
# own results under nol1, rc, mesi and tcw; printf's device printf lines
# reach stdout exactly, and a small FIFO drops calls, counted; the
# environment configures a run as `gpucoh cuda` does; GPUCOH_STATS holds
# every kernel; the vecadd workload built as an ordinary program takes
# the cycles `gpucoh run` measures; an unsupported call and a corrupt fat binary
# each fail clearly; a fault dump and a run-time fault message of -lineinfo
# PTX name the .cu line.
# usage: cuda.sh GPUCOH REPO
set -u
bin=$1 root=$2
ex=$root/examples/cuda/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$tmp/out"; exit 1; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

for prog in saxpy_const fence_reduce histogram stencil matmul managed managed_var; do
    for p in nol1 rc mesi tcw; do
        "$bin" cuda --protocol "$p" -- "$ex/$prog" >"$tmp/out" 2>&1
        rc=$?
        [ $rc -eq 0 ] || fail "$prog under $p: exit $rc"
        grep -q "^$prog: .* ok" "$tmp/out" || fail "$prog under $p: no 'ok' line"
        grep -q "^gpucoh: kernel .* on $p: [1-9][0-9]* cycles" "$tmp/out" ||
            fail "$prog under $p: no per-kernel line"
    done
done

# device printf: the lines on stdout, exactly, in the order the calls ran, with
# the program's own lines around them; a FIFO too small drops calls, counted
cat >"$tmp/printf.want" <<'TXT'
block 0: sum 1905, mean 29.766, hex 0x771
block 1: sum 1856, mean 29.000, hex 0x740
block 2: sum 1787, mean 27.922, hex 0x6fb
lane  0 heads north|a| sum[0] =   1905, 1.905000e+00
lane  8 heads east |b| sum[1] =   1856, 1.856000e+00
lane 16 heads south|c| sum[2] =   1787, 1.787000e+00
lane 24 heads west |d| sum[0] =   1905, 1.905000e+00
printf: 3 block sums, FIFO 1048576 bytes, ok
TXT
for p in nol1 rc mesi tcw; do
    "$bin" cuda --protocol "$p" -- "$ex/printf" >"$tmp/printf.out" 2>"$tmp/out"
    rc=$?
    [ $rc -eq 0 ] || fail "printf under $p: exit $rc"
    diff "$tmp/printf.want" "$tmp/printf.out" >"$tmp/out" ||
        fail "printf under $p: stdout differs"
done
"$bin" cuda --protocol rc -- "$ex/printf" 64 >"$tmp/printf.out" 2>"$tmp/out" ||
    fail "printf with a 64-byte FIFO: exit $?"
[ "$(cat "$tmp/printf.out")" = "$(printf '%s\n' 'block 0: sum 1905, mean 29.766, hex 0x771' \
    'printf: 3 block sums, FIFO 64 bytes, ok')" ] || fail "printf with a 64-byte FIFO: stdout"
grep -q "kernel _Z10block_sumsPKiPii: 2 printf calls past the 64-byte printf FIFO" "$tmp/out" ||
    fail "printf with a 64-byte FIFO: no count of the dropped calls"

# the environment alone, as GPGPU-Sim users run: protocol, settings and statistics
# (under tests/asan-cli.sh $bin is a shim: the stand-in is beside the real binary,
# and a sanitized stand-in needs the ASan runtime it links preloaded, as gpucoh
# cuda does)
lib=$(dirname "${GPUCOH_REAL_BIN:-$bin}")/lib
preload=$(ldd "$lib/libcudart.so.13" | awk '/libasan/ {print $3}')
LD_PRELOAD=$preload LD_LIBRARY_PATH="$lib" GPUCOH_PROTOCOL=mesi GPUCOH_SET="l1.ways=8;sim.seed=3" \
    GPUCOH_STATS="$tmp/stencil.json" "$ex/stencil" >"$tmp/out" 2>&1 || fail "stencil by environment"
[ "$(json "$tmp/stencil.json" "d['protocol'], d['config']['l1.ways'], len(d['cuda_kernels'])")" = \
    "mesi 8 2" ] || fail "stencil.json: protocol, l1.ways or kernel count wrong"
[ "$(json "$tmp/stencil.json" "sum(k['cycles'] for k in d['cuda_kernels']) == d['cycles']")" = True ] ||
    fail "stencil.json: the kernels' cycles do not add up to the run's"

# the vecadd workload as an ordinary program: the cycles of gpucoh run
for p in rc mesi; do
    "$bin" run --workload vecadd --size tiny --protocol $p --quiet --stats "$tmp/run.json" \
        >"$tmp/out" 2>&1 || fail "run vecadd under $p"
    "$bin" cuda --protocol $p --stats "$tmp/cuda.json" -- "$ex/vecadd_workload" >"$tmp/out" 2>&1 ||
        fail "vecadd_workload under $p"
    a=$(json "$tmp/run.json" "d['cycles'], d['thread_insts']")
    b=$(json "$tmp/cuda.json" "d['cycles'], d['thread_insts']")
    [ "$a" = "$b" ] || fail "vecadd under $p: gpucoh run gives (cycles, insts) $a, the stand-in $b"
done

# an unsupported call: cudaErrorNotSupported and a line naming it (the program exits 1)
"$bin" cuda -- "$ex/unsupported" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "unsupported: exit $rc, expected 1"
grep -q "cudaGraphCreate is not supported" "$tmp/out" || fail "unsupported: no message"
grep -q "cudaGraphCreate: cudaErrorNotSupported" "$tmp/out" || fail "unsupported: wrong error"

# a corrupt fat binary: every container claims 4 GB of entries
cp "$ex/saxpy_const" "$tmp/corrupt"
python3 - "$tmp/corrupt" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
at = b.find(b'\x50\xed\x55\xba')
assert at >= 0
while at >= 0:
    struct.pack_into('<Q', b, at + 8, 0xffffffff)
    at = b.find(b'\x50\xed\x55\xba', at + 4)
open(sys.argv[1], 'wb').write(b)
PY
"$bin" cuda -- "$tmp/corrupt" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "corrupt fat binary: exit $rc, expected 2"
grep -q "corrupt fat binary: fat binary: header claims" "$tmp/out" || fail "corrupt: no message"

# -lineinfo PTX: a stuck warp in the fault dump is named by its .cu line too
mkdir "$tmp/li"
sed 's|^\tsetp.eq.s32|\t.loc\t1 7 3\n\tsetp.eq.s32|' "$root/examples/errors/spin.ptx" >"$tmp/li/spin.ptx"
printf '\t.file\t1 "/src/spin.cu"\n\t.section\t.debug_str\n\t{\n.b8 0\n\t}\n' >>"$tmp/li/spin.ptx"
cp "$root/examples/errors/spin.spec" "$tmp/li/"
timeout 120 "$bin" exec "$tmp/li/spin.spec" --set sim.spin_cycles=20000 >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 3 ] || fail "lineinfo spin: exit $rc, expected 3"
grep -q "warp 0 (CTA 0 warp 0): ready at .*spin\.ptx:[0-9]* (/src/spin\.cu:7)" "$tmp/out" ||
    fail "lineinfo spin: the dump does not name spin.cu:7"

# -lineinfo PTX: a run-time fault of the kernel (trap) names the .cu line after
# the PTX line, in timing and functional mode
printf '.version 9.0\n.target sm_75\n.address_size 64\n.visible .entry boom(.param .u64 p)\n{\n' \
    >"$tmp/li/boom.ptx"
printf '\t.loc\t1 12 5\n\ttrap;\n\tret;\n}\n\t.file\t1 "/src/boom.cu"\n' >>"$tmp/li/boom.ptx"
printf 'ptx boom.ptx\nbuffer b u32 1\nlaunch boom grid 1 block 32 args b\n' >"$tmp/li/boom.spec"
for mode in --quiet --functional; do
    "$bin" exec "$tmp/li/boom.spec" $mode >"$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 2 ] || fail "lineinfo trap $mode: exit $rc, expected 2"
    grep -q "warp 0: .*boom\.ptx:7: trap (at /src/boom\.cu:12)" "$tmp/out" ||
        fail "lineinfo trap $mode: the message does not name boom.cu:12"
done

# usage and configuration errors stop before the program runs
"$bin" cuda --set l1.ways=0 -- "$ex/saxpy_const" >"$tmp/out" 2>&1
[ $? -eq 2 ] || fail "bad --set: expected exit 2"
grep -q "saxpy_const: .* ok" "$tmp/out" && fail "bad --set: the program ran"
"$bin" cuda --protocol rc >"$tmp/out" 2>&1
[ $? -eq 2 ] || fail "no program: expected exit 2"
grep -q "no program given" "$tmp/out" || fail "no program: no message"
"$bin" cuda --help >"$tmp/out" 2>&1 || fail "cuda --help"
grep -q "nvcc -arch=sm_75 -cudart shared" "$tmp/out" || fail "cuda --help: no build line"
echo "cuda: ok"
