#!/usr/bin/env bash
# gpucoh sweep: 2 workloads x 2 protocols at tiny with -j 2 give one JSON and
# one results.csv row per run with the statistics of that run; a rerun redoes
# nothing; a failing run leaves its exit status and output in .err, keeps its
# row and is not redone unless asked; an interrupted sweep leaves no partial
# results; a malformed spec names file:line and exits 2. Workload variants
# (docs/sweep.md): `ht:m` runs ht's variant m as its own app, a configuration's
# `variant=tx` joins tx to each workload's variant (ht:m under it runs m-tx),
# each row's cycles are those of `gpucoh run` with that --variant, and the ids
# of runs without a variant do not change; a variant a workload lacks, a
# variant on a set or a game, and variant as a set axis are file:line errors.
# A memory block's `seed N` runs its workloads on the input of seed N (the
# cycles of `gpucoh run --input-seed N`, an id of its own); a run without a
# seed keeps its id. A configuration's settings are checked on its protocol and
# together (a pair valid only together runs).
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat >"$tmp/t.sweep" <<'SPEC'
# two workloads, two protocols
workloads mp saxpy
protocols nol1 rc
sizes tiny
SPEC
"$bin" sweep "$tmp/t.sweep" -j 2 --out "$tmp/out" >"$tmp/log" 2>&1 || fail "sweep exited $?: $(cat "$tmp/log")"
grep -q "4 runs, 0 finished before, 4 to run with -j 2" "$tmp/log" || fail "start line: $(cat "$tmp/log")"
[ "$(ls "$tmp/out/runs"/*.json | wc -l)" -eq 4 ] || fail "expected 4 JSON files: $(ls "$tmp/out/runs")"
[ "$(ls "$tmp/out/runs"/*.ident | wc -l)" -eq 4 ] || fail "expected 4 .ident files: $(ls "$tmp/out/runs")"
ls "$tmp/out/runs" | grep -qvE '\.(json|ident)$' && fail "stray files in runs/: $(ls "$tmp/out/runs")"
csv=$tmp/out/results.csv
head -1 "$csv" | grep -q '^id,workload,set,size,config,protocol,settings,exit,check,cycles,thread_insts,l1_hit_rate,bytes,bytes_LD,bytes_ST,bytes_ATO,bytes_REQ,bytes_INV,bytes_RCL,seed,wall_seconds,variant$' \
    || fail "header: $(head -1 "$csv")"
[ "$(tail -n +2 "$csv" | wc -l)" -eq 4 ] || fail "expected 4 rows: $(cat "$csv")"
for w in mp saxpy; do for p in nol1 rc; do
    grep -q "^$w-tiny-$p-[0-9a-f]*,$w,basic,tiny,$p,$p,,0,ok,[1-9]" "$csv" || fail "row $w $p: $(cat "$csv")"
done; done
# a row's numbers are its run's: cycles equal what gpucoh run reports alone
cyc=$("$bin" run --workload mp --size tiny --protocol rc --quiet | awk '/^  cycles/ {print $2}')
grep -q ",mp,basic,tiny,rc,rc,,0,ok,$cyc," "$csv" || fail "mp rc cycles $cyc not in: $(cat "$csv")"

# rerun: nothing is redone, files untouched
stamp=$(stat -c %Y.%s "$tmp/out/runs"/*.json | md5sum)
sleep 1
"$bin" sweep "$tmp/t.sweep" -j 2 --out "$tmp/out" >"$tmp/log" 2>&1 || fail "rerun exited $?"
grep -q "4 runs: 0 run now, 4 finished before, 0 failed" "$tmp/log" || fail "rerun: $(cat "$tmp/log")"
[ "$(stat -c %Y.%s "$tmp/out/runs"/*.json | md5sum)" = "$stamp" ] || fail "rerun touched JSON files"

# a run that fails (its configuration loads, but no CTA fits in an SM of one
# register): recorded, counted, kept in the CSV, not redone
cat >>"$tmp/t.sweep" <<'SPEC'
sweep broken
workloads mp
protocols bad=tcw:sm.regs=1
sizes tiny
SPEC
"$bin" sweep "$tmp/t.sweep" -j 2 --out "$tmp/out" >"$tmp/log" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "sweep with a failing run exited $rc, expected 1: $(cat "$tmp/log")"
grep -q "FAILED mp-tiny-tcw-[0-9a-f]* (bad) .*exit 2: .*the SM has 1 (sm.regs)" "$tmp/log" || fail "failure line: $(cat "$tmp/log")"
err=$(ls "$tmp/out/runs"/*.err) || fail "no .err file"
head -1 "$err" | grep -qx "exit 2" || fail ".err status: $(head -1 "$err")"
grep -q "command: gpucoh run --workload mp --size tiny --protocol tcw --set sm.regs=1" "$err" || fail ".err command: $(cat "$err")"
grep -q ",mp,basic,tiny,bad,tcw,sm.regs=1,2,-,,," "$csv" || fail "failed row: $(cat "$csv")"
"$bin" sweep "$tmp/t.sweep" --out "$tmp/out" >"$tmp/log" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "rerun with a failed run exited $rc"
grep -q "5 runs: 0 run now, 5 finished before, 1 failed" "$tmp/log" || fail "failed run redone: $(cat "$tmp/log")"
"$bin" sweep "$tmp/t.sweep" --out "$tmp/out" --retry-failed >"$tmp/log" 2>&1
grep -q "5 runs: 1 run now, 4 finished before, 1 failed" "$tmp/log" || fail "--retry-failed: $(cat "$tmp/log")"

# --list runs nothing and shows the ids
"$bin" sweep "$tmp/t.sweep" --list >"$tmp/list" || fail "--list"
[ "$(wc -l <"$tmp/list")" -eq 5 ] || fail "--list: $(cat "$tmp/list")"

# interrupted: running children stop, nothing partial is left, exit 130
printf 'workloads bh vpr\nprotocols nol1\nsizes small\n' >"$tmp/slow.sweep"
"$bin" sweep "$tmp/slow.sweep" -j 2 --out "$tmp/slow" >"$tmp/log" 2>&1 &
pid=$!
sleep 1.5
kill -TERM $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || fail "interrupted sweep exited $rc, expected 130: $(cat "$tmp/log")"
grep -q "interrupted; 2 runs left for next time" "$tmp/log" || fail "interrupt message: $(cat "$tmp/log")"
[ -z "$(ls "$tmp/slow/runs")" ] || fail "interrupted runs left files: $(ls "$tmp/slow/runs")"

# malformed specs: file:line, exit 2, nothing run
expect_error() { # expect_error PATTERN SPEC-TEXT
    printf '%b' "$2" >"$tmp/bad.sweep"
    "$bin" sweep "$tmp/bad.sweep" --out "$tmp/bad" >"$tmp/out.txt" 2>"$tmp/err"; local rc=$?
    [ $rc -eq 2 ] || fail "exit $rc, expected 2 for: $2"
    grep -q -- "$1" "$tmp/err" || fail "expected '$1' in: $(cat "$tmp/err")"
    [ ! -e "$tmp/bad" ] || fail "a bad spec made an output folder"
}
expect_error "bad.sweep:3: unknown directive 'protocol'" 'workloads mp\n\nprotocol rc\n'
expect_error "bad.sweep:2: protocol 'nosuch' is not built" 'workloads mp\nprotocols rc nosuch\n'
expect_error "bad.sweep:1: unknown workload 'nope'" 'workloads nope\nprotocols rc\n'
expect_error "bad.sweep:3: unknown option 'l1.nope'" 'workloads mp\nprotocols rc\nset l1.nope 1\n'
# a configuration's settings are checked on its own protocol: TSO is refused on
# non-coherent rc and valid on write-atomic MESI
expect_error "bad.sweep:2: .*needs a write-atomic protocol" 'workloads mp\nprotocols t=rc:order.model=tso\n'
printf 'workloads mp\nprotocols t=mesi:order.model=tso\nsizes tiny\n' >"$tmp/tso.sweep"
"$bin" sweep "$tmp/tso.sweep" --out "$tmp/tso" >"$tmp/log" 2>&1 || fail "tso on mesi: $(cat "$tmp/log")"
# and together: a pair valid only together (the L1's and the L2's lines must be
# equal) is one configuration, and its run has both settings; one of the pair
# alone, or a pair that disagrees, is refused at its line
printf 'workloads mp\nprotocols n32=nol1:l1.line=32,l2.line=32\nsizes tiny\n' >"$tmp/l32.sweep"
"$bin" sweep "$tmp/l32.sweep" --out "$tmp/l32" >"$tmp/log" 2>&1 || fail "32-byte lines: $(cat "$tmp/log")"
grep -q ",mp,basic,tiny,n32,nol1,l1.line=32;l2.line=32,0,ok," "$tmp/l32/results.csv" \
    || fail "32-byte row: $(cat "$tmp/l32/results.csv")"
cyc=$("$bin" run --workload mp --size tiny --protocol nol1 --set l1.line=32 --set l2.line=32 --quiet | awk '/^  cycles/ {print $2}')
grep -q ",n32,nol1,l1.line=32;l2.line=32,0,ok,$cyc," "$tmp/l32/results.csv" \
    || fail "32-byte cycles $cyc not in: $(cat "$tmp/l32/results.csv")"
expect_error "bad.sweep:2: .*l1.line (32) and l2.line (128) must be equal" 'workloads mp\nprotocols n=nol1:l1.line=32\n'
expect_error "bad.sweep:2: .*must be equal" 'workloads mp\nprotocols n=nol1:l1.line=32,l2.line=64\n'
"$bin" sweep "$tmp/missing.sweep" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "missing.sweep: cannot read: No such file" "$tmp/err" || fail "missing spec: $rc $(cat "$tmp/err")"
"$bin" sweep "$tmp/t.sweep" -j 0 >/dev/null 2>&1; [ $? -eq 2 ] || fail "-j 0 accepted"

# workload variants
cat >"$tmp/v.sweep" <<SPEC
config $root/configs/getm-fermi.ini
workloads ht:m atm
protocols fglock=getm getm=getm:variant=tx
sizes tiny
SPEC
"$bin" sweep "$tmp/v.sweep" -j 2 --out "$tmp/out" >"$tmp/log" 2>&1 || fail "sweep exited $?: $(cat "$tmp/log")"
csv=$tmp/out/results.csv
[ "$(tail -n +2 "$csv" | wc -l)" -eq 4 ] || fail "expected 4 rows: $(cat "$csv")"
for run in "ht:m fglock ht m" "ht:m getm ht m-tx" "atm fglock atm -" "atm getm atm tx"; do
    set -- $run
    v=(); [ "$4" = - ] || v=(--variant "$4")
    cyc=$("$bin" run --workload "$3" "${v[@]}" --size tiny --config "$root/configs/getm-fermi.ini" \
          --quiet | awk '/^  cycles/ {print $2}')
    grep -q "^[^,]*,$1,getm,tiny,$2,getm,,0,ok,$cyc," "$csv" || fail "$1 $2: cycles $cyc not in: $(cat "$csv")"
done
grep -q '^ht\.m-tiny-getm-' "$csv" || fail "ht:m's id: $(cat "$csv")"
# a run without a variant keeps the id it had before variants existed
printf 'workloads mp\nprotocols rc\nsizes tiny\n' >"$tmp/p.sweep"
"$bin" sweep "$tmp/p.sweep" --list | grep -q '^mp-tiny-rc-f37c54f3a132 ' \
    || fail "mp's id changed: $("$bin" sweep "$tmp/p.sweep" --list)"

# a memory block's seed is the generated input's
printf 'workloads streamcluster\nprotocols rc\nsizes tiny\nsweep s3\nworkloads streamcluster\nprotocols rc\nsizes tiny\nseed 3\n' >"$tmp/s.sweep"
"$bin" sweep "$tmp/s.sweep" --out "$tmp/sd" >"$tmp/log" 2>&1 || fail "seed sweep exited $?: $(cat "$tmp/log")"
csv=$tmp/sd/results.csv
[ "$(tail -n +2 "$csv" | cut -d, -f1 | sort -u | wc -l)" -eq 2 ] || fail "seeded run's id: $(cat "$csv")"
for sd in 1 3; do
    cyc=$("$bin" run --workload streamcluster --size tiny --protocol rc --input-seed $sd --quiet | awk '/^  cycles/ {print $2}')
    grep -q ",streamcluster,order,tiny,rc,rc,,0,ok,$cyc," "$csv" || fail "seed $sd: cycles $cyc not in: $(cat "$csv")"
done
[ "$(tail -n +2 "$csv" | cut -d, -f10 | sort -u | wc -l)" -eq 2 ] || fail "seeds 1 and 3 ran the same input: $(cat "$csv")"
[ "$(tail -n +2 "$csv" | awk -F, '{ print $(NF - 2) }' | sort | tr '\n' ' ')" = "1 3 " ] || fail "seed column: $(cat "$csv")"

expect_error "bad.sweep:1: workload ht has no variant 'q' (tx, m, m-tx, l, l-tx)" 'workloads ht:q\nprotocols rc\n'
expect_error "bad.sweep:3: configuration x runs vecadd with variant 'tx', which workload vecadd does not have (it has none; line 1 names it)" \
    'workloads ht:m vecadd\n\nprotocols rc x=rc:variant=tx\n'
expect_error "bad.sweep:2: configuration g runs ht:m with variant 'm-m'" 'workloads ht:m\nprotocols g=getm:variant=m\n'
expect_error "bad.sweep:1: unknown workload 'basic' (gpucoh list workloads; a set has no variants)" 'workloads basic:tx\nprotocols rc\n'
expect_error "bad.sweep:3: variant is not an option" 'workloads ht\nprotocols rc\nset variant tx\n'
expect_error "bad.sweep:2: 'g=getm:variant=tx,variant=m': variant given twice" 'workloads ht\nprotocols g=getm:variant=tx,variant=m\n'
expect_error "bad.sweep:2: 'cod2:x': a game has no variants" 'model frames\nworkloads cod2:x\nprotocols dup\n'
echo ok
