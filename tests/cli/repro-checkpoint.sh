#!/usr/bin/env bash
# A reproduction longer than one sitting is run in parts (docs/repro.md,
# "Checkpoints"): `gpucoh repro NAME --store` stopped with runs left
# (--time-limit: exit 75; Ctrl-C: exit 130) keeps every finished run in
# repro/NAME/checkpoints/SIZE/ (statistics zstd-compressed, identities, a
# provenance naming commit and build) and makes no report; the next `repro
# NAME --size SIZE`, into any output folder, takes those runs first and runs
# only the rest; its results equal a run from nothing; the complete --store
# drops the checkpoint. Another build (the fingerprint rewritten, as in
# sweep-identity.sh) says so, reruns the checkpoint's runs, and never keeps
# them in a checkpoint of its own. The toy
# reproduction of tests/data/repro-explain at size quick: 3 runs of about 2 s.
set -u
bin=$1; root=$2
. "$root/tests/data/repro-toy.sh"
ck=$tmp/root/repro/toy/checkpoints/quick
res=$tmp/root/repro/toy/results
build=$("$bin" version | sed -n 's/.*(build \([0-9a-f]*\):.*/\1/p')
[ ${#build} -eq 16 ] || fail "gpucoh version names no build: $("$bin" version)"

# --time-limit shorter than any run (50 ms): stopped, exit 75, nothing finished, no report
run repro toy --size quick -j 1 --time-limit 0.05 --store --out "$tmp/a" >"$tmp/report" 2>"$tmp/log"
rc=$?
[ $rc -eq 75 ] || fail "--time-limit 0.05: exit $rc, expected 75: $(cat "$tmp/log")"
grep -q "stopped at its time limit; 3 runs left for next time" "$tmp/log" || fail "no stop line: $(cat "$tmp/log")"
[ ! -e "$tmp/a/report.txt" ] && [ ! -e "$res/quick" ] || fail "a stopped reproduction made a report"
grep -qx "runs_finished = 0" "$ck/provenance" || fail "checkpoint of nothing: $(cat "$ck/provenance")"

# interrupted after its first run: the finished runs are kept
GPUCOH_ROOT=$tmp/root "$bin" repro toy --size quick -j 1 --store --out "$tmp/b" >/dev/null 2>"$tmp/log" &
pid=$!
for _ in $(seq 600); do
    ls "$tmp/b/runs/"*.ident >/dev/null 2>&1 && break # written after the run's JSON
    sleep 0.1
done
kill -TERM $pid # as Ctrl-C (a background job of a script ignores SIGINT)
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "interrupted: exit $rc, expected 130: $(cat "$tmp/log")"
k=$(ls "$ck/runs/"*.json.zst 2>/dev/null | wc -l)
[ "$k" -ge 1 ] && [ "$k" -lt 3 ] || fail "checkpoint holds $k runs: $(ls -R "$ck")"
[ "$(ls "$ck/runs/"*.ident | wc -l)" -eq "$k" ] || fail "identities: $(ls "$ck/runs")"
p=$ck/provenance
grep -qx "size = quick" "$p" && grep -qx "runs = 3" "$p" && grep -qx "runs_finished = $k" "$p" &&
    grep -qx "build = $build" "$p" || fail "provenance: $(cat "$p")"
grep -qE "^commit = (unknown \(not a git checkout\)|[0-9a-f]{7,}(-dirty)?)$" "$p" || fail "commit: $(cat "$p")"
for z in "$ck/runs/"*.json.zst; do # each the run's statistics, byte for byte
    j=$tmp/b/runs/$(basename "$z" .zst)
    zstd -qdc "$z" | cmp -s - "$j" || fail "$z is not $j compressed"
done

# another build: told so, and the runs are rerun
python3 - "${GPUCOH_REAL_BIN:-$bin}" "$tmp/other" <<'PY' || fail "no build fingerprint in the binary"
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.find(b"gpucoh-build-fingerprint:") + len(b"gpucoh-build-fingerprint:")
data[at:at + 16] = b"0123456789abcdef"
open(sys.argv[2], "wb").write(data)
PY
chmod +x "$tmp/other"
GPUCOH_ROOT=$tmp/root "$tmp/other" repro toy --size quick -j 1 --time-limit 0.05 --out "$tmp/o" >/dev/null 2>"$tmp/log"
grep -q "^repro toy: $k runs taken from the checkpoint $ck (commit .*, build $build, " "$tmp/log" ||
    fail "other build, taken: $(cat "$tmp/log")"
grep -q "^repro toy: this is build 0123456789abcdef, not the checkpoint's: its runs are stale" "$tmp/log" ||
    fail "other build not told: $(cat "$tmp/log")"
grep -q "sweep: $k rerun, their stored results stale: gpucoh build changed ($k)" "$tmp/log" ||
    fail "other build reused the checkpoint: $(cat "$tmp/log")"

# the same build, another output folder: goes on from the checkpoint
run repro toy --size quick -j 1 --store --out "$tmp/c" >"$tmp/report" 2>"$tmp/log" || fail "resume: $(cat "$tmp/log")"
grep -q "^repro toy: $k runs taken from the checkpoint" "$tmp/log" || fail "resume, taken: $(cat "$tmp/log")"
grep -q "^3 runs ($((3 - k)) run now, $k from before, 0 failed)" "$tmp/report" || fail "resume counts: $(head -3 "$tmp/report")"
[ -f "$res/quick/report.txt" ] || fail "complete, not stored"
[ ! -e "$ck" ] && [ ! -e "$tmp/root/repro/toy/checkpoints" ] || fail "checkpoint kept after the complete store: $(ls -R "$tmp/root/repro/toy/checkpoints")"
# the same numbers as a reproduction from nothing
run repro toy --size quick -j 1 --out "$tmp/d" >/dev/null 2>"$tmp/log" || fail "fresh: $(cat "$tmp/log")"
grep -q "taken from the checkpoint" "$tmp/log" && fail "no checkpoint left, yet taken: $(cat "$tmp/log")"
# the last field but one: wall seconds
awk -F, -v OFS=, '{ $(NF - 1) = ""; print }' "$tmp/c/results.csv" >"$tmp/c.csv"
awk -F, -v OFS=, '{ $(NF - 1) = ""; print }' "$tmp/d/results.csv" >"$tmp/d.csv"
cmp -s "$tmp/c.csv" "$tmp/d.csv" || fail "resumed results differ: $(diff "$tmp/c.csv" "$tmp/d.csv" | head)"
cmp -s "$tmp/c/summary.csv" "$tmp/d/summary.csv" || fail "resumed summary differs"
# a checkpoint again; another build that stops before rerunning its runs
# stores none of them: a checkpoint holds one build's results only
GPUCOH_ROOT=$tmp/root "$bin" repro toy --size quick -j 1 --store --out "$tmp/e" >/dev/null 2>"$tmp/log" &
pid=$!
for _ in $(seq 600); do
    ls "$tmp/e/runs/"*.ident >/dev/null 2>&1 && break
    sleep 0.1
done
kill -TERM $pid
wait $pid
grep -qx "build = $build" "$ck/provenance" || fail "second checkpoint: $(cat "$ck/provenance")"
GPUCOH_ROOT=$tmp/root "$tmp/other" repro toy --size quick -j 1 --store --time-limit 0.05 --out "$tmp/f" >/dev/null 2>"$tmp/log"
grep -qx "build = 0123456789abcdef" "$ck/provenance" && grep -qx "runs_finished = 0" "$ck/provenance" &&
    [ -z "$(ls "$ck/runs")" ] || fail "another build kept stale runs: $(cat "$ck/provenance"; ls "$ck/runs")"
# repro all: one --time-limit for every reproduction; a stopped one is "not
# finished" on the page, not "not built", and repro all exits 75
run repro all --size quick -j 1 --time-limit 0.05 --out "$tmp/all" >"$tmp/out" 2>"$tmp/log"
rc=$?
[ $rc -eq 75 ] || fail "repro all --time-limit: exit $rc: $(cat "$tmp/out" "$tmp/log")"
grep -q "^repro toy: no report: stopped at --time-limit with runs left; the same command goes on" "$tmp/out" ||
    fail "repro all's line: $(cat "$tmp/out")"
grep -q "Not finished: stopped at --time-limit" "$tmp/all/index.html" || fail "index.html: not finished not said"
echo "ok: stopped, interrupted ($k of 3 kept), another build told and rerun and keeps none, resumed equal to a fresh run"
