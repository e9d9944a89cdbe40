#!/usr/bin/env bash
# Kernels that cannot end stop with exit 3 and a dump of the warps (their PCs,
# states and outstanding operations or last loads), under the default
# configuration: the spin watchdog (sim.spin_cycles; rounds in functional
# mode) and the instruction budget (sim.max_insts, auto: 2^24 per warp of the
# launch) in both modes, the cycle limit (sim.max_cycles, auto: 2^29 per wave).
# 0 means no limit when asked.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# a stuck command is stopped after 60 s (ten times that under ASan, whose code runs
# several times slower: tests/asan-cli.sh)
limit=60
[ "${GPUCOH_ASAN:-0}" = 1 ] && limit=600
errs=$root/examples/errors
n=0

expect_fault() { # expect_fault PATTERN CMD...: exit 3 within $limit s, PATTERN on stderr
    local pat=$1; shift
    timeout $limit "$bin" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    [ $rc -eq 3 ] || fail "'$*' exited $rc, expected 3: $(grep -v '^ ' "$tmp/err" | tail -2)"
    grep -qF -- "$pat" "$tmp/err" || fail "'$*': expected '$pat' in: $(head -3 "$tmp/err")"
    n=$((n + 1))
}

# histo_shared without its loop increment: every thread reloads one byte forever
expect_fault "no progress: in kernel histo_shared" exec "$errs/runaway.spec"
# one GPU: no hint about scope across GPUs (cli/mg-scope-mp tests it on four)
grep -q "program's scope" "$tmp/err" && fail "one GPU: the fault names scope across GPUs"
grep -qE "warp [0-9]+ \(CTA [01] warp [0-3]\): [a-z-]+ at $errs/histogram-noinc.ptx:[0-9]+" \
    "$tmp/err" || fail "the dump does not show the warps' PCs: $(head -40 "$tmp/err")"
# ... and what each reads: its last load's first lane (thread t loads byte t)
grep -qE "warp 1 \(CTA 1 warp 1\): .*; last load 0x100000a0 = 160$" "$tmp/err" ||
    fail "the dump does not show the warps' last loads: $(grep 'CTA 1 warp 1' "$tmp/err")"
# a spin loop that never loads: no memory operation is ever outstanding
expect_fault "no progress: in kernel spin" exec "$errs/spin.spec"
grep -q "ready at $errs/spin.ptx:2[45], outstanding ld 0" "$tmp/err" ||
    fail "spin: no warp line in the dump: $(grep warp "$tmp/err" | head -3)"
# functional mode: the spin watchdog counts rounds (one instruction per warp)
expect_fault "no progress: in kernel spin, for 2000001 rounds" exec "$errs/spin.spec" --functional
grep -q "CTA (0,0,0) warp 0: running, before $errs/spin.ptx:2[45]; last load 0x[0-9a-f]* = 0" \
    "$tmp/err" || fail "functional spin: no warp line: $(head -3 "$tmp/err")"
expect_fault "no progress: in kernel histo_shared, for 2000001 rounds" \
    exec "$errs/runaway.spec" --functional
grep -qE "CTA \(1,0,0\) warp 3: running, before $errs/histogram-noinc.ptx:[0-9]+; last load" \
    "$tmp/err" || fail "functional histo_shared: no warp line: $(head -3 "$tmp/err")"
expect_fault "no progress: in kernel spin, for 1001 rounds" \
    exec "$errs/spin.spec" --functional --set sim.spin_cycles=1000
expect_fault "runaway: kernel spin ran past its budget of 16777216 warp instructions" \
    exec "$errs/spin.spec" --functional --set sim.spin_cycles=0
# the same mistake in a litmus test: under the default spin budget a run
# whose thread loops on a register is an outcome, "did not finish", which the
# model allows here (P0 may read flag = 0 and then loop forever); with the
# budget off (--spin-budget 0) the machine's watchdogs stop it, in functional
# and timing mode
"$bin" litmus --functional --iterations 5 --skew 0 "$errs/spin-never-reloads.litmus" \
    >"$tmp/out" 2>&1 || fail "budgeted register spin: exit $?: $(cat "$tmp/out")"
grep -q "5 : did not finish" "$tmp/out" || fail "budgeted register spin: $(cat "$tmp/out")"
expect_fault "no progress: in kernel litmus_kernel, for 2000001 rounds" \
    litmus --functional --iterations 5 --skew 0 --spin-budget 0 "$errs/spin-never-reloads.litmus"
grep -q "CTA (0,0,0) warp 0: running, before .*spin-never-reloads.litmus (translated):[0-9]*; last load" \
    "$tmp/err" || fail "functional litmus: no warp line: $(head -3 "$tmp/err")"
expect_fault "runaway: kernel litmus_kernel ran past its budget" \
    litmus --functional --iterations 5 --skew 0 --spin-budget 0 \
    "$errs/spin-never-reloads.litmus" --set sim.spin_cycles=0
expect_fault "no progress: in kernel litmus_kernel, for 2020000 core cycles" \
    litmus --iterations 5 --skew 0 --spin-budget 0 "$errs/spin-never-reloads.litmus"
# logical-time protocols (RCC): the watchdog counts only once every L1's clock
# has passed the leases it held at the last progress (lease 2048 x guard 10000
# cycles, then 2 M); a short lease gets there sooner
leases="after every L1's clock had passed the leases it held at the last progress"
expect_fault "for 22500000 core cycles no warp stored" exec "$errs/spin.spec" --protocol rccwo
grep -qF "the last 2020000 of them $leases" "$tmp/err" || fail "rccwo spin: $(head -1 "$tmp/err")"
grep -q "warp 0 (CTA 0 warp 0): ready at $errs/spin.ptx:2[45], .*; last load 0x[0-9a-f]* = 0$" \
    "$tmp/err" || fail "rccwo spin: no flag address in the dump: $(grep 'warp 0' "$tmp/err")"
expect_fault "$leases" exec "$errs/spin.spec" --protocol rccsc --set order.model=sc \
    --set rcc.lease=fixed:16
expect_fault "$leases" litmus --iterations 5 --skew 0 --spin-budget 0 \
    "$errs/spin-never-reloads.litmus" --protocol rccwo
# ... while correct RCC runs whose warps reread one value for far longer than
# sim.spin_cycles (their copies' leases) finish: counting from the last
# progress instead stops both after 40000 cycles
for w in mp semaphore; do
    "$bin" run --workload $w --size tiny --protocol rccwo --set sim.spin_cycles=20000 \
        >/dev/null 2>"$tmp/err" || fail "rccwo $w stopped: $(head -1 "$tmp/err")"
done
# the limits, set explicitly
expect_fault "ran past sim.max_cycles (50000 core cycles; 0 = no limit)" \
    exec "$errs/spin.spec" --set sim.max_cycles=50000
expect_fault "past sim.max_insts (20000; 0 = no limit)" \
    exec "$errs/spin.spec" --set sim.spin_cycles=0 --set sim.max_insts=20000
expect_fault "runaway: kernel spin ran past its budget of 5000 warp instructions" \
    exec "$errs/spin.spec" --functional --set sim.max_insts=5000
# with the watchdog off and no cycle limit, the instruction limit still ends it
expect_fault "past sim.max_insts (100000" exec "$errs/spin.spec" --set sim.spin_cycles=0 \
    --set sim.max_cycles=0 --set sim.max_insts=100000
# ordinary runs finish under the defaults and with every limit off
"$bin" run --workload mp --size tiny --protocol rc >/dev/null || fail "the defaults stopped mp"
"$bin" run --workload spinlock --size tiny --protocol tcw --set sim.max_cycles=0 \
    --set sim.max_insts=0 --set sim.spin_cycles=0 >/dev/null || fail "limits off stopped spinlock"
"$bin" config show | grep -q "^max_cycles = auto" || fail "sim.max_cycles is not auto by default"
echo "runaway: $n runaway kernels stopped with a dump, 4 ordinary runs finished"
