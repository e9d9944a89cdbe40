#!/usr/bin/env bash
# One's own kernels as workloads (docs/sweep.md): a launch spec named on a
# sweep's workloads line, found beside the sweep file, runs as
# `gpucoh exec` under each protocol, once whatever the sizes; its row (set
# and size `spec`) has the cycles `gpucoh exec` reports alone; editing the
# spec reruns it (workload changed); a broken spec is `sweep:line` and exit
# 2 before anything runs. compare --workloads takes it too, with the same
# cycles; and a reproduction's folder runs one named in its sweep file.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$tmp/study"
cp "$root/examples/twostage.ptx" "$tmp/study/"
sed 's/^ptx twostage.ptx/ptx twostage.ptx/' "$root/examples/twostage.spec" >"$tmp/study/mine.spec"
printf 'workloads mine.spec mp\nprotocols nol1 rc\nsizes tiny quick\n' >"$tmp/study/my.sweep"
sed -i 's/sizes tiny quick/sizes tiny/' "$tmp/study/my.sweep"
printf 'sweep extra\nworkloads mine.spec\nprotocols rc\nsizes quick\n' >>"$tmp/study/my.sweep"
cd "$tmp"
"$bin" sweep study/my.sweep -j 2 --out out >log 2>&1 || fail "sweep exited $?: $(cat log)"
grep -q "4 runs, 0 finished before, 4 to run" log || fail "runs (the quick block's spec run is the tiny one's): $(cat log)"
csv=out/results.csv
for p in nol1 rc; do
    row=$(grep "^mine-spec-$p-[0-9a-f]*,mine.spec,spec,spec,$p,$p,,0,ok," "$csv") || fail "row mine.spec $p: $(cat "$csv")"
    cyc=$("$bin" exec study/mine.spec --protocol $p --quiet | awk '/^  cycles/ {print $2}')
    [ -n "$cyc" ] && [ "$(echo "$row" | cut -d, -f10)" = "$cyc" ] || fail "$p cycles: row $row, gpucoh exec $cyc"
done
grep -q "^mp-tiny-rc-[0-9a-f]*,mp,basic,tiny,rc,rc,,0,ok," "$csv" || fail "mp row: $(cat "$csv")"

# the spec is part of the run's identity
echo "# edited" >>study/mine.spec
"$bin" sweep study/my.sweep -j 2 --out out >log 2>&1 || fail "rerun exited $?: $(cat log)"
grep -q "sweep: 2 rerun, their stored results stale: workload changed (2)" log || fail "edited spec: $(cat log)"
cp study/twostage.ptx study/twostage.ptx.orig
echo "// edited" >>study/twostage.ptx
"$bin" sweep study/my.sweep -j 2 --out out >log 2>&1 || fail "rerun exited $?: $(cat log)"
grep -q "workload changed (2)" log || fail "edited PTX: $(cat log)"
mv study/twostage.ptx.orig study/twostage.ptx

# a broken spec: the sweep's line, the spec's line, exit 2, nothing run
printf 'ptx twostage.ptx\nlaunch nosuchkernel grid 1 block 32 args\n' >study/bad.spec
printf 'workloads bad.spec\nprotocols rc\n' >study/bad.sweep
"$bin" sweep study/bad.sweep --out bad >log 2>&1; rc=$?
[ $rc -eq 2 ] || fail "broken spec exited $rc: $(cat log)"
grep -q "study/bad.sweep:1: workload bad.spec: .*bad.spec:2: " log || fail "broken spec message: $(cat log)"
printf 'workloads mine.spec\nprotocols rc\nseed 2\n' >study/seed.sweep
"$bin" sweep study/seed.sweep --out seed >log 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "seed.sweep:3: seed: the launch spec mine.spec names its own inputs (line 1)" log \
    || fail "seed on a launch spec: $rc $(cat log)"
printf 'workloads none.spec\nprotocols rc\n' >study/none.sweep
"$bin" sweep study/none.sweep --out none >log 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "none.sweep:1: launch spec 'none.spec' not found" log || fail "missing spec: $rc $(cat log)"

# compare: the same cycles
"$bin" compare --workloads study/mine.spec,mp --protocols nol1,rc --csv c.csv >log 2>&1 || fail "compare exited $?: $(cat log)"
for p in nol1 rc; do
    want=$(grep "^mine-spec-$p-" "$csv" | cut -d, -f10)
    grep -q "^study/mine.spec,spec,$p,ok,$want," c.csv || fail "compare $p (cycles $want): $(cat c.csv)"
done

# a reproduction's folder with its own kernels
mkdir -p root/repro/mine
ln -s "$root/tools" root/tools
ln -s "$root/configs" root/configs
cp study/mine.spec study/twostage.ptx root/repro/mine/
printf 'sweep main\nworkloads mine.spec\nprotocols nol1 rc\nsizes tiny\n' >root/repro/mine/mine.sweep
cat >root/repro/mine/report.ini <<'INI'
[reproduction]
title = one's own kernels
paper = MINE
sweep = mine.sweep

[designs]
nol1 = NO-L1
rc = NO-COH

[figure fig1]
title = Fig. 1: NO-COH over NO-L1 on my kernels
kind = bars
metric = speedup
set = all
baseline = nol1
designs = rc
INI
printf 'figure,set,app,metric,baseline,design,value,note\n' >root/repro/mine/paper.csv
GPUCOH_ROOT=$tmp/root "$bin" repro mine --size tiny --out r >log 2>&1 || fail "repro exited $?: $(cat log)"
for p in nol1 rc; do
    want=$(grep "^mine-spec-$p-" "$csv" | cut -d, -f10)
    grep -q "^mine-spec-$p-[0-9a-f]*,mine.spec,spec,spec,$p,$p,,0,ok,$want," r/results.csv \
        || fail "repro row $p (cycles $want): $(cat r/results.csv)"
done
echo ok
