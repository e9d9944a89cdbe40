#!/usr/bin/env bash
# sm.alu_latency and sm.lat_pipeline (docs/validation.md, "The pipeline around
# each instruction"): tests/exec/alu_latency.cu's one-warp chains of 2048
# dependent instructions, each kernel's cycles less k_empty's over 2048 being
# the distance from one instruction to the next. Checked here:
#  - by class (the default): every ALU instruction its class's sm.lat_*;
#  - sm.lat_pipeline adds its cycles to every ALU instruction, not to shfl
#    (the branch class, which it does not cover by class);
#  - by opcode: GPGPU-Sim's SM2_GTX480 table (add 4, min/max 13, mul 4,
#    mad/fma 5, div 145 / 39 / 330 on integers / f32 / f64, SFU 8, shfl 32,
#    anything else 1) plus the pipeline, 6 as GPGPU-Sim's Fermi; a list given
#    with --set takes its place;
#  - a list that is not the right count of numbers, and an unknown mode, are
#    refused (exit 2) naming the option.
# usage: alu-latency.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
spec=$root/tests/exec/alu_latency.spec

# distances NAME SETTINGS...: "kernel=distance ..." in the spec's order
distances() {
    local name=$1; shift
    "$bin" exec "$spec" --protocol rc --quiet --stats "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>&1 ||
        fail "$name: exit $? $(tail -3 "$tmp/$name.out")"
    python3 - "$tmp/$name.json" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))["kernel_cycles"]
empty = k[0]["cycles"]
print(" ".join(f"{r['kernel'][2:]}={round((r['cycles'] - empty) / 2048)}" for r in k[1:]))
PY
}
expect() { # NAME GOT WANT
    [ "$2" = "$3" ] || fail "$1: got  $2
                  want $3"
    echo "$1: $2"
}

expect classes "$(distances classes)" \
    "xor=4 iadd=4 imul=5 idiv=39 fadd=4 fmax=4 ffma=4 fdiv=39 rsqrt=39 dadd=8 shfl=4"
expect classes+6 "$(distances classes6 --set sm.lat_pipeline=6)" \
    "xor=10 iadd=10 imul=11 idiv=45 fadd=10 fmax=10 ffma=10 fdiv=45 rsqrt=45 dadd=14 shfl=4"
expect opcodes+6 "$(distances opcodes6 --set sm.alu_latency=opcodes --set sm.lat_pipeline=6)" \
    "xor=7 iadd=10 imul=10 idiv=151 fadd=10 fmax=19 ffma=11 fdiv=45 rsqrt=14 dadd=14 shfl=38"
expect opcodes "$(distances opcodes --set sm.alu_latency=opcodes \
    --set sm.opcode_latency_fp=4,13,4,9,39 --set sm.opcode_latency_sfu=20)" \
    "xor=1 iadd=4 imul=4 idiv=145 fadd=4 fmax=13 ffma=9 fdiv=39 rsqrt=20 dadd=8 shfl=32"

for bad in sm.opcode_latency_int=4,13,4,5,145 sm.opcode_latency_dp=8,19,8,8,330,1 \
    sm.opcode_latency_fp=4,13,x,5,39 sm.opcode_latency_fp=4,13,0,5,39; do
    "$bin" exec "$spec" --protocol rc --quiet --set "$bad" >"$tmp/out" 2>&1
    [ $? -eq 2 ] || fail "$bad: not refused with exit 2: $(tail -2 "$tmp/out")"
    grep -q "${bad%%=*}: '.*' is not [56] cycle counts" "$tmp/out" || fail "$bad: $(cat "$tmp/out")"
done
"$bin" exec "$spec" --protocol rc --quiet --set sm.alu_latency=sass >"$tmp/out" 2>&1
[ $? -eq 2 ] || fail "sm.alu_latency=sass accepted"
grep -q "classes" "$tmp/out" || fail "sm.alu_latency=sass: the choices are not named: $(cat "$tmp/out")"
echo "alu-latency: ok"
