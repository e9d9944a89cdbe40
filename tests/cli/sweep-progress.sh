#!/usr/bin/env bash
# gpucoh sweep --progress: with stderr not a terminal, a status line when
# runs finish (those reaped together share one) (done/total, running, failed, elapsed, ETA; runs started in
# the freed slots count as running), the last one
# "4/4 done, 0 running, 0 failed" with nothing left; without --progress no
# status line at all (one line per run, as before). The ETA's arithmetic is
# tests/unit/855-sweep-eta.c.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

printf 'workloads mp saxpy\nprotocols nol1 rc\nsizes tiny\n' >"$tmp/t.sweep"
"$bin" sweep "$tmp/t.sweep" -j 2 --out "$tmp/a" --progress >"$tmp/log" 2>&1 || fail "sweep exited $?: $(cat "$tmp/log")"
n=$(grep -cE '^sweep: [1-4]/4 done, [0-2] running, 0 failed, [0-9]+s elapsed, ETA ([0-9]+s|\?)$' "$tmp/log")
[ "$n" -ge 1 ] && [ "$n" -le 4 ] || fail "expected a status line per finished run (runs reaped together share one): $(cat "$tmp/log")"
grep -qE '^sweep: 4/4 done, 0 running, 0 failed, [0-9]+s elapsed, ETA 0s$' "$tmp/log" || fail "last status: $(cat "$tmp/log")"
# the runs started in the slots a finished run freed count as running:
# with 4 runs and -j 2, the first status line (1 or 2 done) shows 2 running
grep -m1 '^sweep: [0-9]/4 done' "$tmp/log" | grep -qE '^sweep: [12]/4 done, 2 running, ' \
    || fail "first status line: $(grep -m1 '^sweep: [0-9]/4 done' "$tmp/log")"
grep -q $'\r' "$tmp/log" && fail "status redrawn with \\r on a file: $(cat -A "$tmp/log")"
# a resumed sweep counts the runs finished before as done
rm "$tmp/a/runs/"mp-tiny-rc-*.json
"$bin" sweep "$tmp/t.sweep" -j 2 --out "$tmp/a" --progress >"$tmp/log" 2>&1 || fail "resume exited $?"
grep -qE '^sweep: 4/4 done, 0 running, 0 failed, ' "$tmp/log" || fail "resumed status: $(cat "$tmp/log")"

"$bin" sweep "$tmp/t.sweep" -j 2 --out "$tmp/b" >"$tmp/log" 2>&1 || fail "sweep exited $?"
grep -q 'ETA' "$tmp/log" && fail "status line without --progress off a terminal: $(cat "$tmp/log")"
[ "$(grep -c '^\[[1-4]/4\] ok ' "$tmp/log")" -eq 4 ] || fail "per-run lines: $(cat "$tmp/log")"
echo ok
