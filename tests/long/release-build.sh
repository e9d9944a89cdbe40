#!/usr/bin/env bash
# A user's plain `cmake -DCMAKE_BUILD_TYPE=Release` builds: warnings are not
# errors unless GPUCOH_WERROR is on (the Makefile's builds turn it on), and
# the Release flags (-O3 -DNDEBUG, which warn where -O2 does not, e.g.
# -Wformat-truncation) give no warning at all: the whole tree, tests and
# benchmarks included, is built with GPUCOH_WERROR=ON. Minutes on 2 cores.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cmake -S "$root" -B "$tmp/b" -DCMAKE_BUILD_TYPE=Release >"$tmp/log" 2>&1 || fail "configure: $(cat "$tmp/log")"
grep -q -- '-Werror ' "$tmp/b/compile_commands.json" && fail "a plain configure turns warnings into errors"
grep -q -- '-O3' "$tmp/b/compile_commands.json" || fail "not a Release build"
cmake -S "$root" -B "$tmp/b" -DGPUCOH_WERROR=ON >"$tmp/log" 2>&1 || fail "configure: $(cat "$tmp/log")"
grep -q -- '-Werror ' "$tmp/b/compile_commands.json" || fail "GPUCOH_WERROR=ON does not add -Werror"
cmake --build "$tmp/b" -j 2 >"$tmp/log" 2>&1 || fail "Release build: $(grep -E 'error|warning' "$tmp/log" | head -20)"
grep -q "warning:" "$tmp/log" && fail "Release build warns: $(grep warning: "$tmp/log" | head)"
exit 0
