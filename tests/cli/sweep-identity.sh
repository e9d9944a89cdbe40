#!/usr/bin/env bash
# gpucoh sweep reuses a stored run only while what it was computed from is
# unchanged (docs/sweep.md, "Stale results are rerun"). With one's own machine
# file: a value changed in the file's contents (same path) reruns the run,
# says why, and the run's cycles become those of `gpucoh run` on the new
# file; another build (a copy of gpucoh whose embedded build fingerprint is
# rewritten: the fingerprint of other sources) reruns it with "gpucoh build
# changed", while the same build in other bytes (a copy with a byte appended,
# as the same commit built elsewhere) reuses it; a result without an identity
# (an older gpucoh's) is rerun; unchanged, it is reused untouched.
# The same for a frames run (gpucoh chopin) and its model file, and for
# `gpucoh repro`, which stands on the same runner (its report says so), with
# the default machine file. A run whose configuration names files by pattern
# (fcs.table's %m) keeps its identity in a copy of the root elsewhere, and
# loses it when a table changes.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# the cycles column of results.csv for the row of configuration $2
cycles() { awk -F, -v c="$2" 'NR > 1 && $5 == c {print $10}' "$1/results.csv"; }

cp "$root/configs/tc-fermi.ini" "$tmp/m.ini"
cat >"$tmp/c.sweep" <<SPEC
workloads mp
protocols rc
sizes tiny
config $tmp/m.ini
SPEC
sweep() { "$@" >"$tmp/log" 2>&1 || fail "sweep exited $?: $(cat "$tmp/log")"; }
sweep "$bin" sweep "$tmp/c.sweep" --out "$tmp/cs"
c150=$(cycles "$tmp/cs" rc)
[ -n "$c150" ] || fail "no cycles: $(cat "$tmp/cs/results.csv")"
ident=$(ls "$tmp/cs/runs"/*.ident) || fail "no .ident beside the result: $(ls "$tmp/cs/runs")"
grep -qE "^build $("$bin" version | sed -n 's/.*(build \([0-9a-f]*\):.*/\1/p')\$" "$ident" && grep -qE '^config [0-9a-f]{16}$' "$ident" &&
    grep -qE '^workload [0-9a-f]{16}$' "$ident" || fail ".ident: $(cat "$ident")"

# unchanged: reused, files untouched
stamp=$(stat -c %Y.%s "$tmp/cs/runs"/* | md5sum)
sleep 1
sweep "$bin" sweep "$tmp/c.sweep" --out "$tmp/cs"
grep -q "1 runs: 0 run now, 1 finished before" "$tmp/log" || fail "unchanged rerun: $(cat "$tmp/log")"
grep -q "rerun" "$tmp/log" && fail "unchanged run said rerun: $(cat "$tmp/log")"
[ "$(stat -c %Y.%s "$tmp/cs/runs"/* | md5sum)" = "$stamp" ] || fail "unchanged sweep touched runs/"

# the machine file's contents change, not its path: rerun, with the reason
sed -i 's/^latency_cycles = 150$/latency_cycles = 600/' "$tmp/m.ini"
grep -q "^latency_cycles = 600" "$tmp/m.ini" || fail "could not edit l2.latency_cycles"
sweep "$bin" sweep "$tmp/c.sweep" --out "$tmp/cs"
grep -q "1 rerun, their stored results stale: machine configuration changed (1)" "$tmp/log" ||
    fail "config change: $(cat "$tmp/log")"
grep -q "1 runs: 1 run now (1 rerun, stale), 0 finished before" "$tmp/log" ||
    fail "config change summary: $(cat "$tmp/log")"
c600=$(cycles "$tmp/cs" rc)
direct=$("$bin" run --workload mp --size tiny --protocol rc --config "$tmp/m.ini" --quiet |
         awk '/^  cycles/ {print $2}')
[ "$c600" = "$direct" ] || fail "after the change the sweep has $c600 cycles, gpucoh run $direct"
[ "$c600" != "$c150" ] || fail "cycles did not change with l2.latency_cycles 150 -> 600 ($c150)"

# the same build in other bytes: the ELF with a byte appended still runs
# (under make test-asan $bin is a shim script; GPUCOH_REAL_BIN is the ELF
# behind it) and reuses the result
cp "${GPUCOH_REAL_BIN:-$bin}" "$tmp/gpucoh-samebuild"
printf '\n' >>"$tmp/gpucoh-samebuild"
sweep "$tmp/gpucoh-samebuild" sweep "$tmp/c.sweep" --out "$tmp/cs"
grep -q "1 runs: 0 run now, 1 finished before" "$tmp/log" || fail "same build, reran: $(cat "$tmp/log")"
# another build: the fingerprint after its marker rewritten (same length)
python3 - "${GPUCOH_REAL_BIN:-$bin}" "$tmp/gpucoh-rebuilt" <<'PY' || fail "no build fingerprint in the binary"
import sys
data = bytearray(open(sys.argv[1], "rb").read())
marker = b"gpucoh-build-fingerprint:"
at = data.find(marker)
assert at >= 0 and data.find(marker, at + 1) < 0
at += len(marker)
old = bytes(data[at:at + 16])
data[at:at + 16] = b"0123456789abcdef" if old != b"0123456789abcdef" else b"fedcba9876543210"
open(sys.argv[2], "wb").write(data)
PY
chmod +x "$tmp/gpucoh-rebuilt"
"$tmp/gpucoh-rebuilt" version | grep -q "(build 0123456789abcdef:" || fail "rewritten: $("$tmp/gpucoh-rebuilt" version)"
sweep "$tmp/gpucoh-rebuilt" sweep "$tmp/c.sweep" --out "$tmp/cs"
grep -q "1 rerun, their stored results stale: gpucoh build changed (1)" "$tmp/log" ||
    fail "build change: $(cat "$tmp/log")"
[ "$(cycles "$tmp/cs" rc)" = "$c600" ] || fail "same simulator, other cycles: $(cat "$tmp/cs/results.csv")"
sweep "$tmp/gpucoh-rebuilt" sweep "$tmp/c.sweep" --out "$tmp/cs"
grep -q "1 runs: 0 run now, 1 finished before" "$tmp/log" || fail "rebuilt, unchanged: $(cat "$tmp/log")"

# a result with no identity (written by a gpucoh before identities): rerun
rm "$tmp/cs/runs"/*.ident
sweep "$tmp/gpucoh-rebuilt" sweep "$tmp/c.sweep" --out "$tmp/cs"
grep -q "1 rerun, their stored results stale: no identity recorded (1)" "$tmp/log" ||
    fail "no identity: $(cat "$tmp/log")"

# a failed run is a result too, and is retried when its configuration changes
printf 'sweep broken\nworkloads mp\nprotocols bad=rc:sm.regs=1\nsizes tiny\nconfig %s\n' \
    "$tmp/m.ini" >>"$tmp/c.sweep"
"$tmp/gpucoh-rebuilt" sweep "$tmp/c.sweep" --out "$tmp/cs" >"$tmp/log" 2>&1
grep -q "2 runs: 1 run now, 1 finished before, 1 failed" "$tmp/log" || fail "failed run: $(cat "$tmp/log")"
"$tmp/gpucoh-rebuilt" sweep "$tmp/c.sweep" --out "$tmp/cs" >"$tmp/log" 2>&1
grep -q "2 runs: 0 run now, 2 finished before, 1 failed" "$tmp/log" || fail "failed kept: $(cat "$tmp/log")"
sed -i 's/^latency_cycles = 600$/latency_cycles = 300/' "$tmp/m.ini"
"$tmp/gpucoh-rebuilt" sweep "$tmp/c.sweep" --out "$tmp/cs" >"$tmp/log" 2>&1
grep -q "2 rerun, their stored results stale: machine configuration changed (2)" "$tmp/log" ||
    fail "failed run after a config change: $(cat "$tmp/log")"

# a frames run (the split-frame model) and its machine file
cp "$root/configs/chopin-8gpu.ini" "$tmp/f.ini"
printf 'model frames\nworkloads cod2\nprotocols dup\nconfig %s\n' "$tmp/f.ini" >"$tmp/f.sweep"
sweep "$bin" sweep "$tmp/f.sweep" --out "$tmp/fs"
f200=$(cycles "$tmp/fs" dup)
sed -i 's/^latency_cycles = 200$/latency_cycles = 5000/' "$tmp/f.ini"
grep -q "^latency_cycles = 5000" "$tmp/f.ini" || fail "could not edit link.latency_cycles"
sweep "$bin" sweep "$tmp/f.sweep" --out "$tmp/fs"
grep -q "1 rerun, their stored results stale: machine configuration changed (1)" "$tmp/log" ||
    fail "frames config change: $(cat "$tmp/log")"
[ "$(cycles "$tmp/fs" dup)" != "$f200" ] || fail "frames cycles did not change ($f200)"
sweep "$tmp/gpucoh-rebuilt" sweep "$tmp/f.sweep" --out "$tmp/fs"
grep -q "1 rerun, their stored results stale: gpucoh build changed (1)" "$tmp/log" ||
    fail "frames build change: $(cat "$tmp/log")"

# repro stands on the same runner: a small reproduction in a project root of
# its own, whose default machine file (configs/tc-fermi.ini) the runs use
mr=$tmp/root; mkdir -p "$mr/configs" "$mr/repro/mini"
cp "$root/configs/tc-fermi.ini" "$mr/configs/"
printf 'sweep main\nworkloads mp saxpy\nprotocols nol1 rc\nsizes tiny\n' >"$mr/repro/mini/mini.sweep"
echo 'figure,set,app,metric,baseline,design,value,note' >"$mr/repro/mini/paper.csv"
cat >"$mr/repro/mini/report.ini" <<'INI'
[reproduction]
title = a stored run's identity (tests/cli/sweep-identity.sh)
sweep = mini.sweep
[designs]
nol1 = NO-L1
rc = NO-COH
[set basic]
baseline = nol1
[figure speedup]
title = Speedup over NO-L1
kind = table
metric = speedup
set = basic
designs = nol1 rc
INI
repro() { # BINARY LOG: the reproduction into $tmp/rp, without plots
    GPUCOH_ROOT=$mr GPUCOH_PYTHON=/bin/true "$1" repro mini --size tiny --out "$tmp/rp" >"$2" 2>&1 ||
        fail "repro exited $?: $(cat "$2")"
}
repro "$bin" "$tmp/rep"
grep -q "^4 runs (4 run now, 0 from before, 0 failed)" "$tmp/rep" || fail "repro: $(head -3 "$tmp/rep")"
grep -q "stale" "$tmp/rep" && fail "a fresh repro says stale: $(head -3 "$tmp/rep")"
repro "$bin" "$tmp/rep"
grep -q "^4 runs (0 run now, 4 from before, 0 failed)" "$tmp/rep" || fail "repro again: $(head -3 "$tmp/rep")"
sed -i 's/^latency_cycles = 150$/latency_cycles = 600/' "$mr/configs/tc-fermi.ini"
repro "$bin" "$tmp/rep"
grep -q "^4 of those run now were stored but stale: machine configuration changed (4)" "$tmp/rep" ||
    fail "repro, default machine file changed: $(head -4 "$tmp/rep")"
repro "$tmp/gpucoh-rebuilt" "$tmp/rep"
grep -q "^4 runs (4 run now, 0 from before, 0 failed)" "$tmp/rep" || fail "repro counts: $(head -3 "$tmp/rep")"
grep -q "^4 of those run now were stored but stale: gpucoh build changed (4)" "$tmp/rep" ||
    fail "repro, rebuilt: $(head -4 "$tmp/rep")"

# a configuration that names files by pattern (fcs.table with %m, looked for
# under the project root): its identity is that of the files, wherever the
# checkout is, so a copy of the root in another folder reuses the run
for r in a b; do
    mkdir -p "$tmp/root-$r/repro/spandex"
    cp -r "$root/repro/spandex/tables" "$tmp/root-$r/repro/spandex/"
    ln -s "$root/configs" "$tmp/root-$r/configs"
done
cat >"$tmp/t.sweep" <<'SPEC'
workloads ep
protocols fcs=spandex-d:fcs.table=repro/spandex/tables/fcs/%m.fcs
sizes tiny
config configs/spandex.ini
SPEC
(cd "$tmp/root-a" && GPUCOH_ROOT=$tmp/root-a sweep "$bin" sweep "$tmp/t.sweep" --out "$tmp/ts") || exit 1
mv "$tmp/root-a" "$tmp/root-elsewhere"
(cd "$tmp/root-b" && GPUCOH_ROOT=$tmp/root-b sweep "$bin" sweep "$tmp/t.sweep" --out "$tmp/ts") || exit 1
grep -q "1 runs: 0 run now, 1 finished before" "$tmp/log" ||
    fail "an fcs.table run from a copy of the root in another folder was rerun: $(cat "$tmp/log")"
echo "# changed" >>"$tmp/root-b/repro/spandex/tables/fcs/ep.fcs"
(cd "$tmp/root-b" && GPUCOH_ROOT=$tmp/root-b sweep "$bin" sweep "$tmp/t.sweep" --out "$tmp/ts") || exit 1
grep -q "machine configuration changed (1)" "$tmp/log" || fail "a changed fcs table kept the run: $(cat "$tmp/log")"
exit 0
