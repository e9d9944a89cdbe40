#!/usr/bin/env bash
# gpucoh repro getm at size tiny (369 runs of FGLock, GETM, WarpTM, EAPG and
# WarpTM-EL, 180 of them the replicas; about a minute on 2 cores): every run
# finishes with its final state checked, every claim that needs only GETM and
# FGLock gets a verdict, and those that need WarpTM
# are `cannot check` while the protocol is not built.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$bin" repro getm --size tiny -j 2 --out "$tmp/r" >"$tmp/report" 2>"$tmp/log" ||
    fail "repro exited $?: $(tail -5 "$tmp/log")"
grep -q "0 failed" "$tmp/report" || fail "a run failed: $(head -3 "$tmp/report")"
for c in "at most 7% slower than FGLock .gmean" "best concurrency" "8 transactional warps" "AP aborts the most" \
         "smallest precise table" "doubling the precise" "on 56 cores"; do
    grep -E "^\[(holds|does not hold)\] .*$c" "$tmp/report" >/dev/null || fail "claim '$c' has no verdict"
done
# Fig. 4.4 (WarpTM-EL, the eager block) and Fig. 4.12 (traffic over WarpTM)
for c in "WarpTM-EL .ideal. runs faster" "fewer cycles in transactions than WarpTM-LL" \
         "crossbar traffic is above"; do
    grep -E "^\[(holds|does not hold)\] .*$c" "$tmp/report" >/dev/null || fail "claim '$c' has no verdict"
done
# Figs. 4.13-4.16 (the granule block, the validation unit's statistics)
for c in "32-byte granule is at least as fast" "most stall-buffer waiters at once"; do
    grep -E "^\[(holds|does not hold)\] .*$c" "$tmp/report" >/dev/null || fail "claim '$c' has no verdict"
done
for f in fig4_4a fig4_4b fig4_12 granule fig4_13 fig4_15 fig4_16; do
    [ -s "$tmp/r/$f.svg" ] || fail "no plot $f"
done
if ! "$bin" list protocols | grep -q '^warptm'; then
    grep -q "^\[cannot check\] GETM at least 1.2x faster than WarpTM" "$tmp/report" || fail "WarpTM claim"
fi
grep -E '^\[(holds|does not hold|cannot check)\]' "$tmp/report"
echo ok
