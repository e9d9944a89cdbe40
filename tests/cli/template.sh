#!/usr/bin/env bash
# The template protocol (src/coh/template/, docs/adding-a-protocol.md) is a
# protocol like any other: listed as an example and left out of "all"; its
# two tables print; it passes the litmus suite's hand-written tests under the
# PTX oracle, the random stress tester with small caches (evictions, MSHR
# pressure), and a workload with the invariant checker on, with a correct
# result; its docs/protocols page matches its tables.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$bin" list protocols >"$tmp/list" || fail "list protocols exited $?"
grep -Eq '^template +ptx +- +- +- +\[example\] ' "$tmp/list" ||
    fail "template not listed as an example: $(grep template "$tmp/list")"
"$bin" protocol show all --format count >"$tmp/count" || fail "protocol show all"
grep -q template "$tmp/count" && fail "\"all\" includes the example"

"$bin" protocol show template --format md >"$tmp/show" || fail "protocol show template exited $?"
grep -q '^### template: L1' "$tmp/show" || fail "no L1 table"
grep -q '^### template: L2' "$tmp/show" || fail "no L2 table"
grep -q '| \*\*V\*\* | reply_hit |' "$tmp/show" || fail "L1 V+Load cell missing"
grep -q 'fill_line, free_tbe → V' "$tmp/show" || fail "L2 IV+MemData cell missing"
cmp -s <(head -n "$(wc -l <"$tmp/show")" "$root/docs/protocols/template.md") "$tmp/show" ||
    fail "docs/protocols/template.md does not begin with its tables (tools/protocol-docs.sh)"

"$bin" litmus --protocol template --iterations 20 "$root/litmus/ptx/Manual" >"$tmp/litmus" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "litmus exited $rc: $(grep -B1 FAIL "$tmp/litmus" | head -20)"
grep -Eq '^== template \(model ptx\): [1-9][0-9]* passed, 0 failed' "$tmp/litmus" ||
    fail "litmus totals: $(tail -1 "$tmp/litmus")"

"$bin" stress --protocol template --small-caches --episodes 3000 >"$tmp/stress" 2>&1 ||
    fail "stress exited $?: $(tail -20 "$tmp/stress")"
grep -q '^stress template passed: 3000 episodes' "$tmp/stress" || fail "stress: $(cat "$tmp/stress")"

(cd "$root" && "$bin" run --workload mp --size tiny --protocol template --check) \
    >"$tmp/run" 2>&1 ||
    fail "mp exited $?: $(tail -20 "$tmp/run")"
grep -Eq '^  check +passed' "$tmp/run" || fail "mp check: $(cat "$tmp/run")"
echo "template: ok"
