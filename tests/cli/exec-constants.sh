#!/usr/bin/env bash
# __constant__ and __device__ data in launch specs (docs/launch-spec.md,
# tests/exec/constants.cu):
#  - `symbol` lines set a kernel's __constant__ arrays (values, iota, zeros,
#    element offsets; a later line for the same variable holds for the launches
#    below it), a table the PTX initialises needs none; __device__ variables
#    hold their PTX initialisers, what a symbol line writes, or zeros (a
#    counter that atomics count up); every check passes in functional mode and
#    through the memory system;
#  - a launch whose kernel reads a __constant__ array that the PTX does not
#    initialise and no symbol line above sets is refused with the spec's line,
#    the kernel and the symbol named (exit 2, also under --dry-run), where it
#    used to run on zeros;
#  - malformed symbol lines and symbols that do not exist or do not fit are
#    file:line errors (exit 2).
# usage: exec-constants.sh GPUCOH REPO
set -u
bin=$1 root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; echo "--- output:"; cat "$tmp/out"; exit 1; }
spec=$root/tests/exec/constants.spec

for mode in --functional "--protocol rc" "--protocol mesi"; do
    # shellcheck disable=SC2086
    "$bin" exec "$spec" $mode --quiet >"$tmp/out" 2>&1 || fail "$mode: exit $?"
    [ "$(grep -c ': check [a-z]* ok (300 elements)' "$tmp/out")" = 5 ] || fail "$mode: not 5 checks ok"
    grep -q ": check n ok (1 element)" "$tmp/out" || fail "$mode: the __device__ counter"
    grep -q "constants.spec:13: symbol coef set (4 f32 elements from element 0)" "$tmp/out" ||
        fail "$mode: the symbol line is not reported"
done

cp "$root/tests/exec/constants.ptx" "$tmp/"
# $1: name, $2: spec text (after the ptx line), $3: exit status, $4: message (ERE)
expect() {
    printf 'ptx constants.ptx\nbuffer x f32 8\nbuffer y f32 8\nbuffer b s32 8\n%b' "$2" >"$tmp/$1.spec"
    for dry in "" --dry-run; do
        # shellcheck disable=SC2086
        "$bin" exec "$tmp/$1.spec" --functional $dry >"$tmp/out" 2>&1
        rc=$?
        [ $rc -eq "$3" ] || fail "$1${dry:+ $dry}: exit $rc, expected $3"
        [ -n "$dry" ] && [ "$3" = 0 ] && continue # a dry run checks, and runs no check
        grep -Eq "$4" "$tmp/out" || fail "$1${dry:+ $dry}: message"
    done
}
unset_msg="kernel cubic reads __constant__ 'coef' \(.*constants\.ptx:14\), which the PTX does not initialise and no 'symbol coef \.\.\.' line above sets"
expect unset 'launch cubic grid 1 block 8 args x y 8\n' 2 "^gpucoh: error: .*/unset\.spec:5: $unset_msg"
expect after 'launch cubic grid 1 block 8 args x y 8\nsymbol coef f32 4 const(1)\n' 2 "after\.spec:5: $unset_msg"
expect other 'symbol bias u32 8 zeros\nlaunch biased grid 1 block 8 args b 8\nlaunch cubic grid 1 block 8 args x y 8\n' \
    2 "other\.spec:7: $unset_msg"
expect part 'symbol coef+3 f32 1 const(2)\nlaunch cubic grid 1 block 8 args x y 8\ncheck y = 2 * x[i] * x[i] * x[i]\n' \
    0 "check y ok"
expect table 'launch lookup grid 1 block 8 args b 8\ncheck b = 10 * (i % 4 + 1)\n' 0 "check b ok"
expect nosuch 'symbol coeff f32 4 zeros\n' 2 "nosuch\.spec:5: no __constant__ \(\.const\) or __device__ \(\.global\) variable named 'coeff' in the PTX"
expect devpast 'symbol doffset s64 2 zeros\n' 2 "devpast\.spec:5: doffset elements 0\.\.1 \(s64\) end at byte 16, past the 8 bytes of 'doffset'"
expect devzero 'launch count grid 1 block 1 args b\ncheck b = values(0, 0, 0, 0, 0, 0, 0, 0)\n' 0 "check b ok"
expect past 'symbol coef+1 f32 4 zeros\n' 2 "past\.spec:5: coef elements 1\.\.4 \(f32\) end at byte 20, past the 16 bytes of 'coef' \(.*constants\.ptx:14\)"
expect nocount 'symbol coef f32\n' 2 "nocount\.spec:5: "
expect badtype 'symbol coef q32 4\n' 2 "badtype\.spec:5: expected an element type .* found q32"
expect noname 'symbol 4 f32 4\n' 2 "noname\.spec:5: expected the name of a __constant__ or __device__ variable"
expect nvalues 'symbol coef f32 4 values(1, 2)\n' 2 "nvalues\.spec:5: values\(\) gives 2 values for 4 elements"
expect range 'symbol bias u32 1 values(-5000000000)\n' 2 "range\.spec:5: values\(\): value 1 .* does not fit in u32"
printf 'ptx constants.ptx\nsymbol coef f32 4 file(c.bin)\nbuffer b s32 1\nprint b\n' >"$tmp/file.spec"
head -c 12 /dev/zero >"$tmp/c.bin"
"$bin" exec "$tmp/file.spec" --dry-run >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "file\.spec:2: .*c\.bin has 12 bytes but coef needs 16 (4 f32 elements)" "$tmp/out" ||
    fail "a short data file for a symbol"
echo "exec-constants: passed"
