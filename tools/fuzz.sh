#!/usr/bin/env bash
# fuzz.sh - run every libFuzzer harness (fuzz/*.c) for a while: `make fuzz`.
#
# usage: tools/fuzz.sh BUILD_DIR SECONDS [TARGET...]
#
# Each target starts from a seed corpus of the repository's own inputs and
# from what earlier runs found (BUILD_DIR/corpus/TARGET, kept between runs),
# runs for SECONDS with ASan and UBSan, and fails on a crash, a sanitizer
# report, a leak, an input that runs longer than FUZZ_TIMEOUT seconds (a
# hang) or an exit code other than 0, 1 or 2 (the harness aborts on exit 3).
# Findings are written to BUILD_DIR/findings/TARGET/; copy each into
# tests/fuzz/TARGET/ once fixed, where the ordinary build replays it. Prints
# per target: executions, executions per second, coverage (libFuzzer's "cov"
# edges and "ft" features) and corpus size.
set -u
build=$1 seconds=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
timeout_s=${FUZZ_TIMEOUT:-10}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ptx litmus spec ini sweep trace repro)

# The seed corpus of a target: the repository's inputs of its kind.
seeds_of() {
    case $1 in
    ptx) ls "$root"/workloads/*/*.ptx "$root"/examples/*.ptx "$root"/examples/errors/*.ptx \
             "$root"/tests/ptx/*.ptx "$root"/bench/kernels/*.ptx ;;
    litmus) ls "$root"/tests/litmus/*.litmus "$root"/examples/errors/*.litmus
            find "$root/litmus/ptx" -name '*.litmus' ;;
    spec) ls "$root"/examples/*.spec "$root"/examples/errors/*.spec ;;
    ini) ls "$root"/configs/*.ini ;;
    sweep) ls "$root"/repro/*/*.sweep "$root"/tests/long/*.sweep ;;
    trace) ls "$root"/tests/gfx/*.trace ;;
    repro) ls "$root"/repro/*/report.ini ;;
    esac 2>/dev/null
}

status=0
for t in "${targets[@]}"; do
    bin=$build/fuzz-$t
    [ -x "$bin" ] || { echo "fuzz: $bin is not built"; exit 2; }
    corpus=$build/corpus/$t findings=$build/findings/$t
    mkdir -p "$corpus" "$findings"
    for s in $(seeds_of "$t") "$root"/tests/fuzz/"$t"/*; do
        [ -f "$s" ] && cp "$s" "$corpus/seed-$(basename "$(dirname "$s")")-$(basename "$s")"
    done
    log=$build/fuzz-$t.log
    echo "fuzz $t: ${seconds} s, seeds $(seeds_of "$t" | wc -l), corpus $(ls "$corpus" | wc -l)"
    GPUCOH_ROOT=$root nice -n 19 "$bin" "$corpus" -max_total_time="$seconds" \
        -timeout="$timeout_s" -rss_limit_mb=2048 -max_len=65536 -close_fd_mask=3 \
        -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1
    rc=$?
    done_line=$(grep -E '^#[0-9]+ +DONE' "$log" | tail -1)
    [ -n "$done_line" ] || done_line=$(grep -E '^#[0-9]+' "$log" | tail -1)
    execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$')
    rate=$(grep -oE 'exec/s: [0-9]+' <<<"$done_line" | grep -oE '[0-9]+$')
    cov=$(grep -oE 'cov: [0-9]+' <<<"$done_line" | grep -oE '[0-9]+$')
    ft=$(grep -oE 'ft: [0-9]+' <<<"$done_line" | grep -oE '[0-9]+$')
    corp=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' <<<"$done_line" | sed 's/corp: //')
    found=$(ls "$findings" | wc -l)
    printf "fuzz %-7s %s: %s executions, %s exec/s, cov %s edges, ft %s, corpus %s, %s findings\n" \
        "$t" "$([ $rc -eq 0 ] && [ "$found" -eq 0 ] && echo ok || echo FAILED)" "${execs:-?}" \
        "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$found"
    if [ $rc -ne 0 ] || [ "$found" -ne 0 ]; then
        status=1
        grep -E 'ERROR|SUMMARY|timeout|deadly|leak' "$log" | head -5
        echo "  log: $log; inputs: $findings/"
    fi
done
exit $status
