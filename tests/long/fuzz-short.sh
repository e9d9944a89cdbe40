#!/usr/bin/env bash
# A short run of every libFuzzer harness (fuzz/*.c): 60 s each by default
# (FUZZ_SECONDS), no crash, hang, leak or sanitizer report allowed. Builds
# REPO/build-fuzz with clang (make fuzz-build installs it).
# usage: fuzz-short.sh GPUCOH REPO
set -u
root=$2
seconds=${FUZZ_SECONDS:-60}
command -v clang >/dev/null || { echo "FAIL: the fuzz harnesses need clang (make fuzz-deps)"; exit 1; }
build=$root/build-fuzz
CC=clang cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUCOH_FUZZ=ON \
    -DGPUCOH_WERROR=ON >/dev/null || exit 1
targets=()
for h in "$root"/fuzz/*.c; do
    t=$(basename "$h" .c)
    [ "$t" = replay ] || targets+=("$t")
done
cmake --build "$build" -j 2 --target "${targets[@]/#/fuzz-}" >/dev/null || exit 1
"$root/tools/fuzz.sh" "$build" "$seconds" "${targets[@]}"
