#!/usr/bin/env bash
# The DRF random tester passes 20 K episodes with small caches under the
# baselines, and catches the deliberately broken rc-noinv with a report that
# names the stale value.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for p in nol1 rc; do
    "$bin" stress --protocol $p --episodes 20000 --small-caches --check >"$tmp/$p.out" 2>&1 ||
        fail "stress $p: $(tail -5 "$tmp/$p.out")"
    grep -q "stress $p .*passed: 20000 episodes" "$tmp/$p.out" || fail "stress $p: $(cat "$tmp/$p.out")"
done
"$bin" stress --protocol rc-noinv --episodes 20000 --small-caches >"$tmp/bug.out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "rc-noinv: exit $rc, expected 1 (the bug must be caught)"
grep -q "WRONG VALUE" "$tmp/bug.out" || fail "no wrong-value report"
grep -Eq "loaded 0x[0-9a-f]+" "$tmp/bug.out" || fail "report does not name the observed value"
grep -Eq "expected 0x[0-9a-f]+, written by sm [0-9]+ warp [0-9]+" "$tmp/bug.out" ||
    fail "report does not name the expected writer"
grep -q "its recent transitions" "$tmp/bug.out" || fail "report lacks the line's history"
echo "stress-baselines: 1 passed, 0 failed"
