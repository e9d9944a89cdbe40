#!/usr/bin/env bash
# repro-tiny.sh BIN ROOT NAME [OUT [SLICE]] - the tiny check of one reproduction
# (a default test, cli/repro-tiny-NAME, for every repro/NAME/results/tiny/):
# rerun `gpucoh repro NAME --size tiny` and compare it with the stored tiny
# results (repro-tiny-same.sh). A difference means the code the reproduction
# measures changed since its results were taken.
# With OUT the output folder is made afresh there and kept: cli/repro-all reuses
# its runs (ctest's fixture repro-tiny, CMakeLists.txt) instead of running them
# again. A reproduction too large for one test (over 100 s of CPU) is run in
# slices first, each a test (cli/repro-tiny-NAME-runs-K): SLICE K/N runs the
# sweep's distinct runs K-1, K-1+N, K-1+2N ... into OUT (as the tasks of
# `repro NAME --slurm` would) and checks nothing; SLICE `reuse` then renders
# and checks with those runs in OUT (the sweep skips a run whose results exist
# with an unchanged identity) and leaves OUT as it is.
set -u
bin=$1; root=$2; name=$3; out=${4:-}; slice=${5:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -n "$slice" ] && [ "$slice" != reuse ]; then
    k=${slice%/*}; n=${slice#*/}
    spec=$root/repro/$name/$(sed -n 's/^sweep *= *//p' "$root/repro/$name/report.ini")
    runs=$("$bin" sweep "$spec" --size tiny --skip-missing --list | awk '!seen[$1]++' | wc -l)
    [ "$runs" -gt 0 ] || { echo "FAIL: $spec has no runs"; exit 1; }
    done_here=0
    for ((i = k - 1; i < runs; i += n)); do
        # exit 1 is a run that failed its check: a result, compared by the check
        "$bin" sweep "$spec" --size tiny --skip-missing --out "$out" --run-index $i >/dev/null \
            2>"$tmp/log" || [ $? -eq 1 ] || { echo "FAIL: run $i: $(tail -5 "$tmp/log")"; exit 1; }
        done_here=$((done_here + 1))
    done
    echo "ok: repro $name at tiny, runs $k, $((k + n)) ... of $runs ($done_here) in $out"
    exit 0
fi
[ -n "$out" ] && [ "$slice" != reuse ] && rm -rf "$out"
out=${out:-$tmp/r}
"$bin" repro "$name" --size tiny -j 2 --out "$out" >/dev/null 2>"$tmp/log"; rc=$?
# exit 1 is a run that failed its check: a result too, compared like the others
[ $rc -le 1 ] || { echo "FAIL: repro $name exited $rc: $(tail -20 "$tmp/log")"; exit 1; }
bash "$root/tests/data/repro-tiny-same.sh" "$name" "$root/repro/$name/results/tiny" "$out" ||
    { echo "FAIL"; exit 1; }
echo "ok: repro $name at tiny gives the stored results"
