#!/usr/bin/env bash
# fuzz.sh - run every libFuzzer harness (fuzz/*.c) for a while: `make fuzz`.
#
# usage: tools/fuzz.sh BUILD_DIR SECONDS [TARGET...]
#        FUZZ_CPU_BUDGET=3600 tools/fuzz.sh BUILD_DIR SECONDS [TARGET...]
#        tools/fuzz.sh --ledger BUILD_DIR|LEDGER_FILE
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
#
# Every run appends a line to the ledger, FUZZ_LEDGER (default
# BUILD_DIR/fuzz-ledger.tsv; `make fuzz-long` keeps it in fuzz/ledger.tsv, in
# the repository, so that an hour made of blocks on several machines is
# counted whole): the CPU seconds the
# harness used (user + system, read from /proc, so a run on a loaded machine
# counts what it got, not the wall time it waited), wall seconds, executions,
# coverage and findings. With FUZZ_CPU_BUDGET=N a target runs until the
# ledger's CPU seconds for it reach N (interrupted then, as libFuzzer's own
# SIGINT handling allows: final statistics printed, exit 72), SECONDS capping
# this block's wall time: rerunning resumes where the ledger stands, from the
# corpus grown so far (`make fuzz-long`). Creating BUILD_DIR/fuzz.stop ends
# a block early, the running harness's CPU time recorded. `--ledger` prints
# each target's totals.
set -u

ledger_totals() {
    awk -F'\t' 'NR > 1 { cpu[$3] += $4; wall[$3] += $5; ex[$3] += $6; fd[$3] += $11; n[$3]++;
                          cov[$3] = $8; ft[$3] = $9; corp[$3] = $10 }
        END { printf "%-7s %5s %9s %9s %12s %8s %6s %6s %7s %8s\n", "target", "runs", "cpu_s",
                     "wall_s", "executions", "exec/cpu", "cov", "ft", "corpus", "findings"
              for (t in cpu) printf "%-7s %5d %9.0f %9.0f %12d %8.0f %6s %6s %7s %8d\n", t, n[t],
                     cpu[t], wall[t], ex[t], (cpu[t] > 0 ? ex[t] / cpu[t] : 0), cov[t], ft[t],
                     corp[t], fd[t] }' "$1"
}
if [ "${1:-}" = --ledger ]; then
    file=${2:-}
    [ -d "$file" ] && file=$file/fuzz-ledger.tsv
    [ -f "$file" ] || { echo "fuzz: no ledger at ${2:-?}"; exit 2; }
    ledger_totals "$file"
    exit 0
fi
build=$1 seconds=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
timeout_s=${FUZZ_TIMEOUT:-10}
targets=("$@")
budget=${FUZZ_CPU_BUDGET:-}
ledger=${FUZZ_LEDGER:-$build/fuzz-ledger.tsv}
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -f "$ledger" ] || printf 'date\tcommit\ttarget\tcpu_s\twall_s\texecutions\texec_per_s\tcov\tft\tcorpus\tfindings\texit\n' >"$ledger"

# CPU seconds (user + system) a running process has used so far.
cpu_seconds() {
    awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat" 2>/dev/null
}
# CPU seconds the ledger already holds for a target.
ledger_cpu() {
    awk -F'\t' -v t="$1" 'NR > 1 && $3 == t { s += $4 } END { printf "%.0f", s }' "$ledger"
}
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
    cpu_left=
    if [ -n "$budget" ]; then
        cpu_left=$((budget - $(ledger_cpu "$t")))
        if [ "$cpu_left" -le 0 ]; then
            echo "fuzz $t: the ledger already holds $(ledger_cpu "$t") CPU seconds of $budget"
            continue
        fi
    fi
    echo "fuzz $t: ${seconds} s${cpu_left:+ of wall, up to $cpu_left CPU s}, seeds $(seeds_of "$t" | wc -l)," \
         "corpus $(ls "$corpus" | wc -l)"
    start=$(date +%s)
    stamp=$build/fuzz-$t.start # the block's findings are the files newer than it
    touch "$stamp"
    GPUCOH_ROOT=$root nice -n "${FUZZ_NICE:-19}" "$bin" "$corpus" -max_total_time="$seconds" \
        -timeout="$timeout_s" -rss_limit_mb=2048 -max_len=65536 -close_fd_mask=3 \
        -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1 &
    pid=$!
    cpu=0
    while kill -0 "$pid" 2>/dev/null; do
        sleep 5
        c=$(cpu_seconds "$pid") && [ -n "$c" ] && cpu=$c
        if { [ -n "$cpu_left" ] && awk -v c="$cpu" -v l="$cpu_left" 'BEGIN { exit !(c >= l) }'; } ||
           [ -e "$build/fuzz.stop" ]; then
            kill -INT "$pid" 2>/dev/null
        fi
    done
    wait "$pid"
    rc=$?
    # libFuzzer exits 72 on the SIGINT that ends a budgeted run: a normal end.
    [ -n "$cpu_left" ] && [ $rc -eq 72 ] && rc=0
    wall=$(($(date +%s) - start))
    stopping=; [ -e "$build/fuzz.stop" ] && stopping=1 && [ $rc -eq 72 ] && rc=0
    done_line=$(grep -E '^#[0-9]+ +DONE' "$log" | tail -1)
    [ -n "$done_line" ] || done_line=$(grep -E '^#[0-9]+' "$log" | tail -1)
    execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$')
    rate=$(grep -oE 'exec/s: [0-9]+' <<<"$done_line" | grep -oE '[0-9]+$')
    cov=$(grep -oE 'cov: [0-9]+' <<<"$done_line" | grep -oE '[0-9]+$')
    ft=$(grep -oE 'ft: [0-9]+' <<<"$done_line" | grep -oE '[0-9]+$')
    corp=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' <<<"$done_line" | sed 's/corp: //')
    # libFuzzer's per-input timeout counts wall time, so a harness starved of
    # CPU (nice 19 on a loaded machine, or stopped) reports inputs that are
    # not slow. A timeout, or a slow unit (libFuzzer's report of an input that
    # took over 10 s), counts as a finding only if the input, run alone, times
    # out again; one that does not moves to findings/TARGET/unconfirmed/.
    for f in "$findings"/timeout-* "$findings"/slow-unit-*; do
        [ -f "$f" ] || continue
        if GPUCOH_ROOT=$root timeout $((timeout_s * 3)) "$bin" -timeout="$timeout_s" "$f" \
               >"$log.replay" 2>&1; then
            mkdir -p "$findings/unconfirmed"
            mv "$f" "$findings/unconfirmed/"
            echo "fuzz $t: $(basename "$f") ran alone in time: not counted ($findings/unconfirmed/)"
            [ $rc -ne 0 ] && grep -q 'libFuzzer: timeout' "$log" && rc=0
        fi
    done
    # An earlier block's finding, kept there until it is fixed and moved into
    # tests/fuzz/TARGET/, is not this block's.
    found=$(find "$findings" -maxdepth 1 -type f -newer "$stamp" | wc -l)
    printf '%s\t%s\t%s\t%.0f\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n' "$(date -u +%FT%TZ)" "$commit" "$t" \
        "$cpu" "$wall" "${execs:-0}" "${rate:-0}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$found" "$rc" >>"$ledger"
    printf "fuzz %-7s %s: %s executions, %s exec/s, cov %s edges, ft %s, corpus %s, %s findings\n" \
        "$t" "$([ $rc -eq 0 ] && [ "$found" -eq 0 ] && echo ok || echo FAILED)" "${execs:-?}" \
        "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$found"
    if [ $rc -ne 0 ] || [ "$found" -ne 0 ]; then
        status=1
        grep -E 'ERROR|SUMMARY|timeout|deadly|leak' "$log" | head -5
        echo "  log: $log; inputs: $findings/"
    fi
    [ -n "$stopping" ] && { echo "fuzz: $build/fuzz.stop exists: block ended (remove it to go on)"; break; }
done
exit $status
