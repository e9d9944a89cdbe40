#!/usr/bin/env bash
# gpucoh repro NAME --slurm / --collect (docs/sweep.md): a reproduction's sweep
# as a Slurm job array, written by the sweep's writer (sweep_slurm.c). On the
# made-up 3-run reproduction of tests/data/repro-explain: the script has the
# array 0-2, the #SBATCH lines asked for, the job name gpucoh-toy, a task
# command `gpucoh sweep SWEEP --out DIR --size tiny --skip-missing --run-index
# $SLURM_ARRAY_TASK_ID` with absolute paths, and names the collect command;
# --collect with runs missing says how many (exit 1) and writes no report; once
# every task has run by hand, --collect prints the report, and its report.txt,
# summary.csv and figures.csv are the local `repro toy`'s (but for the lines
# that say which runs ran now and name the folder) and results.csv too (but for wall_seconds);
# without --dry-run the script goes to sbatch (a stand-in), and the options that
# do not go together are refused (exit 2).
set -u
bin=$1; root=$2
. "$root/tests/data/repro-toy.sh"

run repro toy --size tiny --out "$tmp/local" >"$tmp/local.out" 2>"$tmp/log" ||
    fail "local repro exited $?: $(cat "$tmp/log")"

cd "$tmp"
run repro toy --size tiny --out cl --slurm --dry-run --partition short --time 0:10:00 --mem 1G \
    >"$tmp/log" 2>&1 || fail "--slurm --dry-run exited $?: $(cat "$tmp/log")"
script=$tmp/cl/slurm/sweep.sbatch
grep -qx "repro toy: 3 runs as a job array (0-2): $script" "$tmp/log" || fail "message: $(cat "$tmp/log")"
grep -qx "then: gpucoh repro toy --size tiny --out cl --collect" "$tmp/log" || fail "then: $(cat "$tmp/log")"
[ -f "$script" ] || fail "no script"
for l in '--array=0-2' '--partition=short' '--time=0:10:00' '--mem=1G' "--output=$tmp/cl/slurm/%A_%a.out" \
    '--job-name=gpucoh-toy'; do
    grep -qx -- "#SBATCH $l" "$script" || fail "no '#SBATCH $l' in: $(cat "$script")"
done
grep -q "^# .*Then: gpucoh repro toy --size tiny --out cl --collect\.$" "$script" ||
    fail "the script does not name the collect command: $(cat "$script")"
grep -qx "cd '$tmp' || exit 2" "$script" || fail "cd line: $(cat "$script")"
# the binary the tasks run is this gpucoh's own file (under make test-asan
# $bin is a shim; GPUCOH_REAL_BIN is the ELF behind it)
real=$(readlink -f "${GPUCOH_REAL_BIN:-$bin}")
grep -qx "exec '$real' sweep '$tmp/root/repro/toy/toy.sweep' --out '$tmp/cl' --size tiny --skip-missing --run-index \"\$SLURM_ARRAY_TASK_ID\"" \
    "$script" || fail "task command: $(grep exec "$script")"
[ -d "$tmp/cl/runs" ] && [ -n "$(ls "$tmp/cl/runs")" ] && fail "--dry-run ran something"

# one task by hand, then --collect: two runs missing, no report
SLURM_ARRAY_TASK_ID=1 bash "$script" >"$tmp/log" 2>&1 || fail "task 1 exited $?: $(cat "$tmp/log")"
[ "$(ls "$tmp/cl/runs" | grep -c '\.json$')" -eq 1 ] || fail "task 1 wrote: $(ls "$tmp/cl/runs")"
run repro toy --size tiny --out cl --collect >"$tmp/out" 2>"$tmp/log"; rc=$?
[ $rc -eq 1 ] || fail "--collect with runs missing exited $rc: $(cat "$tmp/log")"
grep -qx "repro toy: 3 runs: 1 finished (0 failed), 2 missing; cl/results.csv" "$tmp/log" ||
    fail "collect: $(cat "$tmp/log")"
[ -e cl/report.txt ] && fail "a report from part of the runs"
[ "$(grep -c ',ok,[1-9]' cl/results.csv)" -eq 1 ] || fail "partial CSV: $(cat cl/results.csv)"

# every task: the report is the local one's
for i in 0 2; do
    SLURM_ARRAY_TASK_ID=$i bash "$script" >"$tmp/log" 2>&1 || fail "task $i exited $?: $(cat "$tmp/log")"
done
run repro toy --size tiny --out cl --collect >"$tmp/out" 2>"$tmp/log" || fail "--collect exited $?: $(cat "$tmp/log")"
grep -qx "repro toy: 3 runs: 3 finished (0 failed), 0 missing; cl/results.csv" "$tmp/log" ||
    fail "collect: $(cat "$tmp/log")"
grep -qx "3 runs (0 run now, 3 from before, 0 failed) in cl" cl/report.txt || fail "report: $(head -3 cl/report.txt)"
cmp -s "$tmp/out" cl/report.txt || fail "the report printed is not report.txt"
# but for the lines naming which runs ran now and the output folder
notruns() { grep -v -e '^3 runs (' -e '^files: ' "$1"; }
[ "$(notruns cl/report.txt)" = "$(notruns "$tmp/local/report.txt")" ] ||
    fail "the collected report differs from the local one: $(diff <(notruns cl/report.txt) <(notruns "$tmp/local/report.txt"))"
for f in summary.csv figures.csv; do
    cmp -s "cl/$f" "$tmp/local/$f" || fail "$f differs from the local one's"
done
strip() { awk -F, -v OFS=, '{ $(NF - 1) = ""; print }' "$1"; } # wall seconds
[ "$(strip cl/results.csv)" = "$(strip "$tmp/local/results.csv")" ] ||
    fail "collected CSV differs from the local one: $(diff <(strip cl/results.csv) <(strip "$tmp/local/results.csv"))"

# submitted: sbatch gets the script (a stand-in that records its arguments)
mkdir bin
printf '#!/bin/sh\necho "$@" >"%s/sbatch.args"\necho "Submitted batch job 43"\n' "$tmp" >bin/sbatch
chmod +x bin/sbatch
PATH=$tmp/bin:$PATH run repro toy --size tiny --out sub --slurm >"$tmp/log" 2>&1 ||
    fail "--slurm exited $?: $(cat "$tmp/log")"
grep -q "Submitted batch job 43" "$tmp/log" || fail "sbatch output: $(cat "$tmp/log")"
[ "$(cat sbatch.args)" = "$tmp/sub/slurm/sweep.sbatch" ] || fail "sbatch args: $(cat sbatch.args)"

# refusals
expect2() {
    local what=$1; shift
    run repro "$@" >"$tmp/log" 2>&1; local rc=$?
    [ $rc -eq 2 ] || fail "$what: exit $rc, expected 2: $(cat "$tmp/log")"
    grep -q "gpucoh: error: .*repro" "$tmp/log" || grep -q "gpucoh repro" "$tmp/log" || fail "$what: no message: $(cat "$tmp/log")"
}
expect2 "all --slurm" all --size tiny --slurm --dry-run
expect2 "--partition without --slurm" toy --size tiny --partition x
expect2 "--slurm --collect" toy --size tiny --slurm --collect
expect2 "--collect --store" toy --size tiny --out cl --collect --store
expect2 "--collect of no folder" toy --size tiny --out nosuch --collect
grep -q "nosuch: no such folder" "$tmp/log" || fail "no folder: $(cat "$tmp/log")"
echo ok
