#!/usr/bin/env bash
# gpucoh sweep --slurm (docs/sweep.md): the job-array script for a 4-run sweep
# has the array 0-3, the #SBATCH lines asked for and a task command of
# `gpucoh sweep SPEC --out DIR --run-index $SLURM_ARRAY_TASK_ID` with
# absolute paths; running task 1's command by hand writes exactly run 1's
# JSON (row 2 of the local sweep's CSV), and again skips it; --collect
# then says 3 are missing (exit 1), and after every task equals the local
# sweep's results.csv (but for wall_seconds); without --dry-run the script
# goes to sbatch (a stand-in here), and without sbatch the error names the
# script. A real single-node Slurm: tests/long/slurm-local.sh.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

printf 'workloads mp saxpy\nprotocols nol1 rc\nsizes tiny\n' >"$tmp/t.sweep"
"$bin" sweep "$tmp/t.sweep" -j 2 --out "$tmp/local" >"$tmp/log" 2>&1 || fail "local sweep exited $?: $(cat "$tmp/log")"

cd "$tmp"
"$bin" sweep t.sweep --out cl --slurm --dry-run --partition short --time 0:10:00 --mem 1G >"$tmp/log" 2>&1 \
    || fail "--slurm --dry-run exited $?: $(cat "$tmp/log")"
script=$tmp/cl/slurm/sweep.sbatch
grep -q "4 runs as a job array (0-3): $script" "$tmp/log" || fail "message: $(cat "$tmp/log")"
[ -f "$script" ] || fail "no script"
head -1 "$script" | grep -qx '#!/bin/bash' || fail "shebang: $(head -1 "$script")"
for l in '--array=0-3' '--partition=short' '--time=0:10:00' '--mem=1G' "--output=$tmp/cl/slurm/%A_%a.out" '--job-name=gpucoh-t'; do
    grep -qx -- "#SBATCH $l" "$script" || fail "no '#SBATCH $l' in: $(cat "$script")"
done
grep -qx "cd '$tmp' || exit 2" "$script" || fail "cd line: $(cat "$script")"
# the binary the tasks run is this gpucoh's own file (under make test-asan
# $bin is a shim; GPUCOH_REAL_BIN is the ELF behind it)
real=$(readlink -f "${GPUCOH_REAL_BIN:-$bin}")
grep -qx "exec '$real' sweep '$tmp/t.sweep' --out '$tmp/cl' --run-index \"\$SLURM_ARRAY_TASK_ID\"" "$script" \
    || fail "task command: $(grep exec "$script")"
[ -d "$tmp/cl/runs" ] && [ -n "$(ls "$tmp/cl/runs")" ] && fail "--dry-run ran something"

# one task by hand: exactly its run
SLURM_ARRAY_TASK_ID=1 bash "$script" >"$tmp/log" 2>&1 || fail "task 1 exited $?: $(cat "$tmp/log")"
id1=$(sed -n 3p "$tmp/local/results.csv" | cut -d, -f1)
[ "$(ls "$tmp/cl/runs" | grep -c '\.json$')" -eq 1 ] || fail "task 1 wrote: $(ls "$tmp/cl/runs")"
[ -f "$tmp/cl/runs/$id1.json" ] || fail "task 1 did not write run 1 ($id1): $(ls "$tmp/cl/runs")"
[ -f "$tmp/cl/runs/$id1.ident" ] || fail "task 1 wrote no identity"
[ -f "$tmp/cl/results.csv" ] && fail "a task wrote results.csv"
SLURM_ARRAY_TASK_ID=1 bash "$script" >"$tmp/log" 2>&1 || fail "task 1 again exited $?"
grep -q "0 run now, 1 finished before" "$tmp/log" || fail "task 1 redone: $(cat "$tmp/log")"

"$bin" sweep t.sweep --out cl --collect >"$tmp/log" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "--collect with runs missing exited $rc: $(cat "$tmp/log")"
grep -q "sweep: 4 runs: 1 finished (0 failed), 3 missing; cl/results.csv" "$tmp/log" || fail "collect: $(cat "$tmp/log")"
[ "$(grep -c ',ok,[1-9]' cl/results.csv)" -eq 1 ] || fail "partial CSV: $(cat cl/results.csv)"

for i in 0 2 3; do
    SLURM_ARRAY_TASK_ID=$i bash "$script" >"$tmp/log" 2>&1 || fail "task $i exited $?: $(cat "$tmp/log")"
done
"$bin" sweep t.sweep --out cl --collect >"$tmp/log" 2>&1 || fail "--collect exited $?: $(cat "$tmp/log")"
grep -q "sweep: 4 runs: 4 finished (0 failed), 0 missing" "$tmp/log" || fail "collect: $(cat "$tmp/log")"
strip() { awk -F, -v OFS=, '{ $(NF - 1) = ""; print }' "$1"; } # wall seconds
[ "$(strip cl/results.csv)" = "$(strip local/results.csv)" ] \
    || fail "collected CSV differs from the local sweep's: $(diff <(strip cl/results.csv) <(strip local/results.csv))"

# submitted: sbatch gets the script (a stand-in that records its arguments)
mkdir bin
printf '#!/bin/sh\necho "$@" >"%s/sbatch.args"\necho "Submitted batch job 42"\n' "$tmp" >bin/sbatch
chmod +x bin/sbatch
PATH=$tmp/bin:$PATH "$bin" sweep t.sweep --out sub --slurm >"$tmp/log" 2>&1 || fail "--slurm exited $?: $(cat "$tmp/log")"
grep -q "Submitted batch job 42" "$tmp/log" || fail "sbatch output: $(cat "$tmp/log")"
[ "$(cat sbatch.args)" = "$tmp/sub/slurm/sweep.sbatch" ] || fail "sbatch args: $(cat sbatch.args)"
# a PATH without sbatch, but with what a shim gpucoh (make test-asan) needs
mkdir nosbatch
ln -s "$(command -v bash)" nosbatch/bash
ln -s "$(command -v env)" nosbatch/env
PATH=$tmp/nosbatch "$bin" sweep t.sweep --out sub2 --slurm >"$tmp/log" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--slurm without sbatch exited $rc"
grep -q "cannot run sbatch: .*sub2/slurm/sweep.sbatch" "$tmp/log" || fail "no-sbatch message: $(cat "$tmp/log")"

# usage errors
"$bin" sweep t.sweep --out cl --run-index 4 >"$tmp/log" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "run-index 4: t.sweep has 4 runs (0-3)" "$tmp/log" || fail "--run-index 4: $rc $(cat "$tmp/log")"
"$bin" sweep t.sweep --partition x >"$tmp/log" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "--partition without --slurm exited $rc"
echo ok
