#!/usr/bin/env bash
# libcudart.so.12: a program built against CUDA 12's runtime API
# (tests/cuda12/props.c, linked with the stand-in's .12 library, since there is
# no nvcc 12 here) calls cudaGetDeviceProperties_v2 and reads CUDA 12's struct
# layout: the simulated machine's SM count, L2 size and clock come back at
# CUDA 12's offsets, and nothing past the struct's named fields is written.
set -u
bin=$1
src=${2:-.}
# beside the gpucoh binary (under tests/asan-cli.sh, $bin is a shim; GPUCOH_REAL_BIN the binary)
prog=$(dirname "${GPUCOH_REAL_BIN:-$bin}")/cuda12-props
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$prog" ] || fail "$prog is not built"
"$bin" cuda --protocol rc --set gpu.sms=6 --set gpu.core_mhz=1200 -- "$prog" >"$tmp/out" 2>&1 ||
    fail "props: $(cat "$tmp/out")"
line=$(grep '^name' "$tmp/out")
for want in "warpSize 32" "clockRate 1200000" "major 7 minor 5" "multiProcessorCount 6" \
            "maxThreadsPerMultiProcessor 2048" "regsPerMultiprocessor 65536"; do
    grep -q "$want" <<<"$line" || fail "expected '$want' in: $line"
done
grep -q "name 'gpucoh rc (simulated, 6 SMs)'" <<<"$line" || fail "name: $line"
l2=$("$bin" config show --set gpu.sms=6 | awk '/^\[/ { s = ($0 == "[l2]") } s && /^size =/ { size = $3 }
    s && /^banks =/ { banks = $3 } END { print size * banks }')
grep -q "l2CacheSize $l2 " <<<"$line" || fail "l2CacheSize: expected $l2 in: $line"
echo "cuda12: ok"
