#!/usr/bin/env bash
# gpucoh chopin: malformed traces and configurations name file:line and exit 2;
# generated traces parse; every design's composed frame equals the sequential
# rendering (exit 0); runs are deterministic (identical JSON); --help teaches;
# frames blocks of a sweep run the model; `chopin repro` is `repro chopin`.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

expect_error() { # expect_error PATTERN CMD...
    local pat=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    [ $rc -eq 2 ] || fail "'$*' exited $rc, expected 2: $(cat "$tmp/err")"
    grep -q -- "$pat" "$tmp/err" || fail "'$*': expected '$pat' in: $(cat "$tmp/err")"
}

good='draw tris=100 tiles=0,0,2,2 ppt=4 gcpt=2 rt=0 zwrite=1 zfunc=less blend=none'
printf 'frame t 640 480\ngroup\n%s\ndraw tris=100 tiles=0,0,2 ppt=4 gcpt=2 rt=0 zwrite=1 zfunc=less blend=none\n' "$good" >"$tmp/a.trace"
expect_error "a.trace:4: tiles: '0,0,2' is not X,Y,W,H" "$bin" chopin run --trace "$tmp/a.trace"
printf 'frame t 640 480\ngroup\n%s\n%s\n' "$good" "${good/blend=none/blend=over}" >"$tmp/b.trace"
expect_error "b.trace:4: a blended draw with depth writes is not modelled" "$bin" chopin run --trace "$tmp/b.trace"
printf 'frame t 640 480\ngroup\n%s\n%s\n' "$good" "${good/rt=0/rt=1}" >"$tmp/c.trace"
expect_error "c.trace:4: render target changes inside a composition group" "$bin" chopin groups --trace "$tmp/c.trace"
printf 'frame t 640 480\n# nothing\n' >"$tmp/d.trace"
expect_error "d.trace:3: the trace has no draws" "$bin" chopin run --trace "$tmp/d.trace"
expect_error "missing.trace: cannot read: No such file" "$bin" chopin run --trace "$tmp/missing.trace"
printf '[link]\ngbps = fast\n' >"$tmp/bad.ini"
expect_error "bad.ini:2: link.gbps: 'fast' is not a valid number" "$bin" chopin run --trace "$root/tests/gfx/cod2-s7.trace" --config "$tmp/bad.ini"
expect_error "machine.gpus: 17 is out of range" "$bin" chopin run --trace "$root/tests/gfx/cod2-s7.trace" --set machine.gpus=17
expect_error "unknown design 'sli'" "$bin" chopin run --trace "$root/tests/gfx/cod2-s7.trace" --design sli

expect_error "do not fit the frame structure" "$bin" chopin gen --game cod2 --draws 5000 --tris 30000
expect_error "\-\-seed: 'x' is not a whole number" "$bin" chopin gen --game cod2 --seed x

# the committed configuration is the defaults
"$bin" chopin config >"$tmp/defaults.ini" || fail "chopin config"
"$bin" chopin config --config "$root/configs/chopin-8gpu.ini" >"$tmp/file.ini" || fail "chopin config --config"
cmp -s "$tmp/defaults.ini" "$tmp/file.ini" || fail "configs/chopin-8gpu.ini differs from the defaults"

# a generated trace parses and composes correctly under every design; deterministic
"$bin" chopin gen --game wolf --seed 3 --draws 150 --tris 40000 --out "$tmp/w.trace" || fail "gen"
"$bin" chopin groups --trace "$tmp/w.trace" | grep -q "150 draws, 40000 triangles" || fail "groups"
for i in 1 2; do
    "$bin" chopin run --trace "$tmp/w.trace,$root/tests/gfx/mirror-s5.trace" --design all \
        --set chopin.threshold_tris=64 --json "$tmp/r$i.json" --csv "$tmp/r$i.csv" >"$tmp/out" \
        || fail "run $i exited $?: $(cat "$tmp/out")"
done
cmp -s "$tmp/r1.json" "$tmp/r2.json" || fail "two identical runs differ"
[ "$(grep -c ',1,' "$tmp/r1.csv")" -ge 12 ] || fail "expected 12 correct rows: $(cat "$tmp/r1.csv")"
grep -q '"frame_correct":	true' "$tmp/r1.json" || fail "json lacks frame_correct"
"$bin" chopin run --trace "$tmp/w.trace" --design dup,chopin-cs --vary machine.gpus=2,4 \
    --csv "$tmp/v.csv" >/dev/null || fail "--vary"
[ "$(wc -l <"$tmp/v.csv")" -eq 5 ] || fail "--vary rows: $(cat "$tmp/v.csv")"
"$bin" chopin --help | grep -q "image-composition scheduler" || fail "--help"

# one frames run as a sweep child runs it: --game generates the trace, --stats writes its statistics
"$bin" chopin run --game wolf --seed 3 --design chopin-cs --stats "$tmp/one.json" --quiet >"$tmp/out" \
    || fail "--stats exited $?"
[ -s "$tmp/out" ] && fail "--quiet printed: $(cat "$tmp/out")"
grep -q '"check_passed":	true' "$tmp/one.json" || fail "stats lacks check_passed"
grep -q '"bytes_compose":	[1-9]' "$tmp/one.json" || fail "stats lacks bytes_compose"
expect_error "\-\-stats FILE is for one run" "$bin" chopin run --game wolf --design all --stats "$tmp/x.json"
expect_error "unknown game 'halo'" "$bin" chopin run --game halo
expect_error "link.switch" "$bin" chopin run --game wolf --set link.switch=ring
# the switch (link.topology = switch) at 448 GB/s a port, a GPU's links' total: served in
# arrival order (link.switch = arrival) duplication's render-target broadcasts on mirror run
# within 0.1% of the pairs' cycles (3 439 121 against 3 438 617), served in send order
# (buffered) over 5% slower (3 761 774); every design's frame stays correct on arrival
dup_cycles() { "$bin" chopin run --game mirror --design dup --quiet --csv "$tmp/d.csv" "$@" >/dev/null &&
    tail -1 "$tmp/d.csv" | cut -d, -f5; }
sw448="--set link.topology=switch --set link.gbps=448"
c_pairs=$(dup_cycles) c_buf=$(dup_cycles $sw448) c_arr=$(dup_cycles $sw448 --set link.switch=arrival)
echo "mirror dup: pairs $c_pairs, switch buffered $c_buf, switch arrival $c_arr"
[ $((c_arr * 1000)) -le $((c_pairs * 1001)) ] || fail "arrival order: dup $c_arr against pairs' $c_pairs"
[ $((c_buf * 100)) -ge $((c_pairs * 105)) ] || fail "send order: dup $c_buf against pairs' $c_pairs"
"$bin" chopin run --game mirror --design all $sw448 --set link.switch=arrival --quiet --csv "$tmp/arr.csv" ||
    fail "arrival run"
[ "$(tail -n +2 "$tmp/arr.csv" | cut -d, -f7 | sort -u)" = 1 ] || fail "arrival frames: $(cat "$tmp/arr.csv")"
# --game all: the eight games of Table 6.3, one row each
"$bin" chopin run --game all --design dup --quiet --csv "$tmp/all.csv" || fail "--game all"
[ "$(tail -n +2 "$tmp/all.csv" | cut -d, -f1 | tr '\n' ' ')" = "cod2 cry grid mirror nfs stal ut3 wolf " ] \
    || fail "--game all rows: $(cat "$tmp/all.csv")"

# frames blocks of a sweep: games x designs x settings, checked before anything runs
cat >"$tmp/f.sweep" <<'SWEEP'
sweep main
model frames
seed 3
workloads wolf
protocols dup cs=chopin-cs:chopin.threshold_tris=1024
set machine.gpus 2 4
SWEEP
"$bin" sweep "$tmp/f.sweep" --out "$tmp/fs" 2>"$tmp/log" || fail "frames sweep exited $?: $(tail -3 "$tmp/log")"
[ "$(grep -c ',wolf,games,frame,' "$tmp/fs/results.csv")" -eq 4 ] || fail "frames rows: $(cat "$tmp/fs/results.csv")"
grep -q ',cs,chopin-cs,chopin.threshold_tris=1024;machine.gpus=4,0,ok,[1-9]' "$tmp/fs/results.csv" \
    || fail "frames row: $(cat "$tmp/fs/results.csv")"
printf 'sweep a\nmodel frames\nworkloads wolf\nprotocols sli\n' >"$tmp/b1.sweep"
expect_error "b1.sweep:4: unknown design 'sli'" "$bin" sweep "$tmp/b1.sweep" --list
printf 'sweep a\nmodel frames\nworkloads wolf\nprotocols dup\nset link.nope 1\n' >"$tmp/b2.sweep"
expect_error "b2.sweep:5: .*link.nope" "$bin" sweep "$tmp/b2.sweep" --list
printf 'sweep a\nworkloads vecadd\nmodel frames\n' >"$tmp/b3.sweep"
expect_error "b3.sweep:3: model goes first in its block" "$bin" sweep "$tmp/b3.sweep" --list
printf 'sweep a\nmodel frames\nworkloads wolf\nprotocols dup\nseed x\n' >"$tmp/b4.sweep"
expect_error "b4.sweep:5: expected: seed N" "$bin" sweep "$tmp/b4.sweep" --list
printf 'sweep a\nmodel frames\nworkloads vecadd\n' >"$tmp/b5.sweep"
expect_error "b5.sweep:3: unknown game 'vecadd'" "$bin" sweep "$tmp/b5.sweep" --list

# `chopin repro` is `repro chopin`: the thesis's reproduction, as data, on one game
mkdir -p "$tmp/root"
for f in "$root"/*; do [ "$(basename "$f")" = repro ] || ln -s "$f" "$tmp/root/"; done
mkdir -p "$tmp/root/repro" && cp -r "$root/repro/chopin" "$tmp/root/repro/"
sed -i 's/^workloads games$/workloads wolf/' "$tmp/root/repro/chopin/chopin.sweep"
sed -i '/,grid,/d' "$tmp/root/repro/chopin/paper.csv"
# ... and the [explain] sections that name a grid row of it
python3 - "$tmp/root/repro/chopin/report.ini" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
parts = re.split(r'(?m)^(?=\[)', text)
keep = [p for p in parts if not (p.startswith('[explain ') and re.search(r'(?m)^row = .*,grid,', p))]
open(sys.argv[1], 'w').write(''.join(keep))
PY
GPUCOH_ROOT=$tmp/root "$bin" chopin repro --out "$tmp/rep" >"$tmp/out" 2>"$tmp/log" \
    || fail "chopin repro exited $?: $(tail -3 "$tmp/log")"
grep -q "^260 runs (260 run now, 0 from before, 0 failed)" "$tmp/out" || fail "repro runs: $(head -3 "$tmp/out")"
grep -q "^== Fig. 6.12: speedup over primitive duplication" "$tmp/rep/report.txt" || fail "repro lacks Fig. 6.12"
grep -q "^\[holds\] every design's composed frame equals the sequential rendering" "$tmp/rep/report.txt" \
    || fail "frames not all correct: $(grep runs_wrong "$tmp/rep/report.txt")"
[ -s "$tmp/rep/fig6.16.svg" ] || fail "no fig6.16.svg"
echo ok
