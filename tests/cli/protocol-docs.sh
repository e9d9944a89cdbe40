#!/usr/bin/env bash
# docs/protocols/ matches the code: every page named after a protocol begins with
# exactly `gpucoh protocol show NAME --format md` (tools/protocol-docs.sh --check),
# and every protocol but the test-only ones has a page. On a copy, a table cell
# edited by hand and a missing page are each named; regenerating restores the
# tables and keeps the hand-written `## Notes` section.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
tool=$root/tools/protocol-docs.sh

bash "$tool" --check "$bin" "$root" >"$tmp/o" 2>&1 || fail "docs/protocols is stale: $(cat "$tmp/o")"
# every action a cell runs is named in its table's actions[] (an unnamed one prints as ?)
grep -nE '(\| |, )\?( →|,| \|)' "$root"/docs/protocols/*.md >"$tmp/o" &&
    fail "a cell runs an action its table does not name: $(head -3 "$tmp/o")"

mkdir -p "$tmp/r/docs"
cp -r "$root/docs/protocols" "$tmp/r/docs/"
sed -i '0,/→ IV/s/→ IV/→ V/' "$tmp/r/docs/protocols/tcw.md"
rm "$tmp/r/docs/protocols/nol1.md"
bash "$tool" --check "$bin" "$tmp/r" >"$tmp/o" 2>&1 && fail "an edited table passed"
grep -q "^docs/protocols/tcw.md: its tables differ" "$tmp/o" || fail "edited page not named: $(cat "$tmp/o")"
grep -q "^docs/protocols/nol1.md: missing" "$tmp/o" || fail "missing page not named: $(cat "$tmp/o")"

bash "$tool" "$bin" "$tmp/r" >"$tmp/o" 2>&1
bash "$tool" --check "$bin" "$tmp/r" >"$tmp/o" 2>&1 || fail "regenerated pages still differ: $(cat "$tmp/o")"
cmp -s "$tmp/r/docs/protocols/tcw.md" "$root/docs/protocols/tcw.md" ||
    fail "regenerating tcw.md did not restore it (notes lost?)"
grep -q "^## Notes" "$tmp/r/docs/protocols/tcw.md" || fail "tcw.md's notes lost"
echo "protocol-docs: ok"
