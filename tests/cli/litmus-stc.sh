#!/usr/bin/env bash
# Every STC variant on the project's own litmus tests, 1000 iterations each,
# judged by the PTX model; and STC's promise beyond it (spec 000 §6.2): write
# atomicity (IRIW's readers never disagree, even with acquire loads only) and
# message passing whose acquire invalidates nothing. The whole shared suite at
# 1000 iterations runs in tests/long/litmus-stc.sh.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0
for p in stc-nv stc-es stc-ab stc-mb; do
    "$bin" litmus --protocol $p --iterations 1000 "$root"/tests/litmus/MP-*.litmus \
        "$root"/tests/litmus/IRIW-*.litmus >"$tmp/o" 2>&1 ||
        fail "$p: $(grep -E 'FAIL|FORBIDDEN|^==' "$tmp/o")"
    grep -q "^== $p (model ptx): 4 passed, 0 failed" "$tmp/o" || fail "$p summary: $(tail -1 "$tmp/o")"
    awk '/IRIW-acquire\.litmus/{f=1} f&&/hits:/{print; exit}' "$tmp/o" | grep -q 'hits: 0 of 1000' ||
        fail "$p showed IRIW's non-multi-copy-atomic outcome"
    awk '/MP-weak-fenced\.litmus/{f=1} f&&/hits:/{print; exit}' "$tmp/o" | grep -q 'hits: 0 of 1000' ||
        fail "$p showed a stale read after fences"
    n=$((n + 1))
done
echo "litmus-stc: $n passed, 0 failed"
