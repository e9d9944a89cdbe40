#!/usr/bin/env bash
# Every option is parsed strictly (src/cli/opt.h): numbers without sign, suffix
# or overflow, enums from their list, result paths checked before anything
# runs; options a command lists do something, others are rejected.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# a stuck command is stopped after 20 s (ten times that under ASan, whose code runs
# several times slower: tests/asan-cli.sh)
limit=20
[ "${GPUCOH_ASAN:-0}" = 1 ] && limit=200
n=0

expect_usage() { # expect_usage PATTERN CMD...: exit 2 within $limit s, PATTERN on stderr, nothing run
    local pat=$1; shift
    timeout $limit "$bin" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    [ $rc -eq 2 ] || fail "'$*' exited $rc, expected 2: $(tail -2 "$tmp/err")"
    grep -q -- "$pat" "$tmp/err" || fail "'$*': expected '$pat' in: $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] || fail "'$*' ran before rejecting its options: $(head -2 "$tmp/out")"
    n=$((n + 1))
}

# numbers: no sign, no trailing text, no overflow, within range
expect_usage "--episodes: '-1' is not a whole number from 1 to" stress --episodes -1
expect_usage "--episodes: '99999999999999999999' is not a whole number" \
    stress --episodes 99999999999999999999
expect_usage "--episodes: '10x'" stress --episodes 10x
expect_usage "--warps: '49' is not a whole number from 1 to 48" stress --warps 49
expect_usage "--input-seed: 'abc'" run --workload mp --size tiny --input-seed abc
expect_usage "--input-seed: '1x'" run --workload mp --size tiny --input-seed 1x
expect_usage "--input-seed: '-3'" run --workload mp --size tiny --input-seed -3
expect_usage "--seed: '7q'" run --workload mp --size tiny --seed 7q
expect_usage "--jobs: '0' is not a whole number from 1 to 256" sweep -j 0 x.sweep
expect_usage "--timeout: 'soon'" sweep --timeout soon x.sweep
expect_usage "--max-insts: '0'" exec "$root/examples/vecadd.spec" --functional --max-insts 0
# enums and names from their list
expect_usage "--size: 'huge' is not one of tiny quick small paper" run --workload mp --size huge
expect_usage "workload mp has no variant 'bogus' (known: nofence, sys)" \
    run --workload mp --size tiny --variant bogus
expect_usage "workload saxpy has no variant 'x' (it has none)" run --workload saxpy --variant x
expect_usage "--format: 'svg' is not one of md dot" protocol show rc --format svg
# unknown options, missing values, values given to flags
expect_usage "unknown option '--bogus'" run --workload mp --bogus
expect_usage "--workload needs a value" run --workload
expect_usage "--check takes no value" run --workload mp --check=yes
# compare never wrote --stats or --coverage: they are not accepted (and not in its help)
expect_usage "unknown option '--stats'" compare --workloads mp --stats "$tmp/c.json"
expect_usage "unknown option '--coverage'" compare --workloads mp --coverage "$tmp/c.txt"
"$bin" compare --help | grep -q -- "^  --stats" && fail "compare --help lists --stats"
# paths: checked before the simulation starts
expect_usage "--config $root/configs: not a regular file" config show --config "$root/configs"
expect_usage "--stats /nonexistent/x.json: folder /nonexistent does not exist" \
    run --workload mp --size tiny --stats /nonexistent/x.json
expect_usage "--coverage $tmp: is a folder" run --workload mp --size tiny --coverage "$tmp"
expect_usage "--dump /nonexistent/c.bin: folder /nonexistent does not exist" \
    exec "$root/examples/vecadd.spec" --functional --dump c=/nonexistent/c.bin
expect_usage "--csv /nonexistent/x.csv" compare --workloads mp --csv /nonexistent/x.csv

# compare --protocol runs that protocol only (it used to run every one)
"$bin" compare --workloads mp --protocol rc >"$tmp/cmp" 2>&1 || fail "compare --protocol rc"
[ "$(grep -c '^mp ' "$tmp/cmp")" -eq 1 ] && grep -q '^mp  *rc ' "$tmp/cmp" ||
    fail "compare --protocol rc ran: $(cat "$tmp/cmp")"
# litmus --stats writes the statistics file docs/stats.md describes
"$bin" litmus --functional --iterations 3 --stats "$tmp/l.json" \
    "$root/tests/litmus/MP-weak.litmus" >/dev/null 2>&1 || fail "litmus --stats exited $?"
grep -q '"thread_insts"' "$tmp/l.json" || fail "litmus --stats wrote no statistics"
# an empty spec, or one whose PTX has no kernel, runs nothing: exit 2
: >"$tmp/empty.spec"
expect_usage "empty.spec: no launch, check or print line" exec "$tmp/empty.spec" --functional
: >"$tmp/empty.ptx"
printf 'ptx empty.ptx\n' >"$tmp/noker.spec"
expect_usage "noker.spec:1: .*empty.ptx defines no kernel" exec "$tmp/noker.spec" --functional
# the version
[ "$("$bin" --version)" = "$("$bin" version)" ] && "$bin" --version | grep -q '^gpucoh [0-9]' ||
    fail "gpucoh --version: $("$bin" --version 2>&1)"
# an option that takes one value, given twice, would drop the first silently
expect_usage "--workload given twice" run --workload mp --workload bfs --size tiny
# litmus: bounds say what is accepted; a folder without tests is named
expect_usage "--iterations: '0' is not a whole number from 1 to" litmus --iterations 0 x.litmus
expect_usage "--unroll: '0' is not a whole number from 1 to" litmus --unroll 0 x.litmus
mkdir "$tmp/notests"
expect_usage "notests: a folder with no .litmus file" litmus "$tmp/notests"
# the documented forms still work
"$bin" stress --protocol rc --episodes=200 --warps 2 >/dev/null || fail "stress --episodes=200"
"$bin" sweep -j2 --list "$root/repro/tc/tc.sweep" >/dev/null || fail "sweep -j2 --list"
echo "options-strict: $n usage errors rejected, 5 accepted forms run"
