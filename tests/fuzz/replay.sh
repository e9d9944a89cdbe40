#!/usr/bin/env bash
# replay.sh - replays, through each fuzz harness built without libFuzzer (fuzz/replay.c),
# the inputs fuzzing found (tests/fuzz/TARGET/, each once a crash, leak or
# sanitizer report) and the repository's own inputs of that kind: every one
# must be handled (accepted or rejected with an error), none may abort.
set -u
bin=$1; root=$2
dir=$(dirname "$bin")
n=0
for h in "$root"/fuzz/*.c; do
    t=$(basename "$h" .c)
    [ "$t" = replay ] && continue
    case $t in
    ptx) seeds=("$root"/examples/*.ptx "$root"/examples/errors/*.ptx) ;;
    litmus) seeds=("$root"/tests/litmus/*.litmus "$root"/examples/errors/*.litmus) ;;
    spec) seeds=("$root"/examples/*.spec "$root"/examples/errors/*.spec) ;;
    ini) seeds=("$root"/configs/*.ini) ;;
    sweep) seeds=("$root"/repro/*/*.sweep) ;;
    trace) seeds=("$root"/tests/gfx/*.trace) ;;
    repro) seeds=("$root"/repro/*/report.ini) ;;
    *) seeds=() ;;
    esac
    found=()
    for f in "$root"/tests/fuzz/"$t"/*; do [ -f "$f" ] && found+=("$f"); done
    GPUCOH_ROOT=$root "$dir/fuzz-$t" "${found[@]}" "${seeds[@]}" >/dev/null 2>&1 ||
        { echo "FAIL: fuzz-$t on its findings and seeds: exit $?"; exit 1; }
    n=$((n + ${#found[@]} + ${#seeds[@]}))
done
echo "fuzz-replay: $n inputs handled"
