#!/usr/bin/env bash
# gpucoh sweep --slurm against a real Slurm (issue 38): a single-node
# cluster on localhost (Debian's slurm-wlm and munge, `make long-deps`),
# started here from a scratch configuration (its own ports, state, spool and
# munge socket) and stopped on exit; a 12-run sweep submitted as a job
# array, waited for, collected, and its results.csv equal to a local
# sweep's (but for wall_seconds). Skipped (exit 0 with a message) where the
# daemons are not installed; a daemon that will not start is a failure.
set -u
bin=$1; root=$2
bin=$(readlink -f "$bin")
fail() { echo "FAIL: $*"; exit 1; }
for t in slurmctld slurmd munged sbatch squeue scontrol; do
    command -v "$t" >/dev/null || PATH=$PATH:/usr/sbin command -v "$t" >/dev/null \
        || { echo "SKIP: $t not installed (make long-deps installs slurm-wlm and munge)"; exit 0; }
done
export PATH=$PATH:/usr/sbin
tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done; done
    rm -rf "$tmp"
}
trap cleanup EXIT

# munge: a key of our own, a socket of our own
mkdir -m 700 "$tmp/munge"
dd if=/dev/urandom bs=1 count=1024 of="$tmp/munge/key" 2>/dev/null
chmod 400 "$tmp/munge/key"
munged --force --key-file="$tmp/munge/key" --socket="$tmp/munge/sock" --pid-file="$tmp/munge/pid" \
    --log-file="$tmp/munge/log" --seed-file="$tmp/munge/seed" || fail "munged did not start: $(cat "$tmp/munge/log" 2>/dev/null)"
pids+=("$(cat "$tmp/munge/pid")")

# slurm: one node, this machine, every CPU a slot
user=$(id -un)
cpus=$(nproc)
mkdir -p "$tmp/state" "$tmp/spool"
port=$(( 20000 + RANDOM % 20000 ))
cat >"$tmp/slurm.conf" <<CONF
ClusterName=gpucoh-test
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$(( port + 1 ))
SlurmUser=$user
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
NodeName=localhost CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -f "$tmp/slurm.conf" || fail "slurmctld did not start: $(tail -5 "$tmp/slurmctld.log")"
for _ in $(seq 50); do [ -s "$tmp/slurmctld.pid" ] && break; sleep 0.2; done
pids+=("$(cat "$tmp/slurmctld.pid")")
slurmd -f "$tmp/slurm.conf" || fail "slurmd did not start: $(tail -5 "$tmp/slurmd.log")"
for _ in $(seq 50); do [ -s "$tmp/slurmd.pid" ] && break; sleep 0.2; done
pids+=("$(cat "$tmp/slurmd.pid")")
for _ in $(seq 100); do
    sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)' && break
    sleep 0.3
done
sinfo -h -o %t | grep -qE '^(idle|mix|alloc)' || fail "node not up: $(sinfo 2>&1); $(tail -5 "$tmp/slurmd.log")"

# 12 runs: 3 workloads x 2 protocols x 2 L1 sizes
printf 'workloads mp saxpy vecadd\nprotocols nol1 rc\nsizes tiny\nset l1.size 16K 32K\n' >"$tmp/t.sweep"
"$bin" sweep "$tmp/t.sweep" -j 2 --out "$tmp/local" >"$tmp/log" 2>&1 || fail "local sweep exited $?: $(cat "$tmp/log")"
[ "$(tail -n +2 "$tmp/local/results.csv" | wc -l)" -eq 12 ] || fail "local sweep: $(cat "$tmp/local/results.csv")"
cd "$tmp"
"$bin" sweep t.sweep --out cl --slurm --partition test --time 10:00 --mem 100M >"$tmp/log" 2>&1 \
    || fail "--slurm exited $?: $(cat "$tmp/log")"
job=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$tmp/log")
[ -n "$job" ] || fail "no job id: $(cat "$tmp/log")"
for _ in $(seq 600); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
    sleep 1
done
[ -z "$(squeue -h -j "$job")" ] || fail "job $job still queued after 10 minutes: $(squeue)"
"$bin" sweep t.sweep --out cl --collect >"$tmp/log" 2>&1 || fail "--collect exited $?: $(cat "$tmp/log"; cat cl/slurm/*.out | tail -20)"
grep -q "sweep: 12 runs: 12 finished (0 failed), 0 missing" "$tmp/log" || fail "collect: $(cat "$tmp/log")"
[ "$(ls cl/slurm/*.out | wc -l)" -eq 12 ] || fail "task logs: $(ls cl/slurm)"
strip() { awk -F, -v OFS=, '{ NF--; print }' "$1"; }
[ "$(strip cl/results.csv)" = "$(strip local/results.csv)" ] \
    || fail "Slurm sweep's CSV differs from the local one: $(diff <(strip cl/results.csv) <(strip local/results.csv))"
scontrol shutdown >/dev/null 2>&1
echo "ok: job $job, 12 runs"
