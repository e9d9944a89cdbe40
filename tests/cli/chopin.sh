#!/usr/bin/env bash
# gpucoh chopin: malformed traces and configurations name file:line and exit 2;
# generated traces parse; every design's composed frame equals the sequential
# rendering (exit 0); runs are deterministic (identical JSON); --help teaches.
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
expect_error "missing.trace: cannot open" "$bin" chopin run --trace "$tmp/missing.trace"
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

# the reproduction on one game: report, results and summary written; a malformed declaration is file:line
"$bin" chopin repro --games wolf --out "$tmp/rep" >"$tmp/out" || fail "repro exited $?: $(tail "$tmp/out")"
grep -q "0 frames differing from the sequential rendering" "$tmp/rep/report.txt" || fail "repro report"
grep -q "== Fig. 6.12" "$tmp/rep/report.txt" || fail "repro report lacks Fig. 6.12"
[ "$(wc -l <"$tmp/rep/results.csv")" -eq 123 ] || fail "repro results rows: $(wc -l <"$tmp/rep/results.csv")"
grep -q '^gpus,machine.gpus,16,chopin-cs,' "$tmp/rep/summary.csv" || fail "repro summary"
printf 'games wolf\nblock main designs=dup,chopin\nblock x designs=chopin vary=link.gbps:1\n' >"$tmp/bad.runs"
expect_error "bad.runs:3: block x lacks dup" "$bin" chopin repro --runs "$tmp/bad.runs" --out "$tmp/rep2"
printf 'games wolf\nblock main designs=dup vary=link.nope:1\n' >"$tmp/bad2.runs"
expect_error "bad2.runs:2: unknown option 'link.nope'" "$bin" chopin repro --runs "$tmp/bad2.runs" --out "$tmp/rep2"
echo ok
