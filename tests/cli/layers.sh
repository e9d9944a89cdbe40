#!/usr/bin/env bash
# The layering of src/ (docs/design.md, "Layers") holds: tools/layers.py --check
# finds no include that runs up or across outside the allow-list and no stale
# allow entry, and docs/layers.md is what the tool draws today. On a copy of the
# sources, an upward include (base -> cli) and a stale allow entry each fail the
# check naming the place, and a malformed allow line is refused with file:line.
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
tool=$root/tools/layers.py

python3 "$tool" --root "$root" --check >"$tmp/o" 2>"$tmp/e" || fail "layers --check: $(cat "$tmp/o" "$tmp/e")"
grep -q "^layers: .* 0 problems" "$tmp/o" || fail "summary: $(cat "$tmp/o")"
python3 "$tool" --root "$root" --write "$tmp/layers.md" || fail "layers --write"
diff -u "$root/docs/layers.md" "$tmp/layers.md" >"$tmp/d" ||
    fail "docs/layers.md is out of date: run tools/layers.py --write docs/layers.md
$(head -40 "$tmp/d")"

mkdir -p "$tmp/copy/docs"
cp -r "$root/src" "$tmp/copy/src"
cp "$root/docs/design.md" "$tmp/copy/docs/"
echo '#include "cli/common.h"' >>"$tmp/copy/src/base/log.c"
python3 "$tool" --root "$tmp/copy" --check >"$tmp/o" 2>"$tmp/e" && fail "an upward include passed"
grep -q "^src/base/log.c:[0-9]*: base -> cli runs up or across the layering" "$tmp/e" ||
    fail "upward include not named: $(cat "$tmp/e")"

cp -r "$root/src/base/log.c" "$tmp/copy/src/base/log.c"
sed -i 's/^```allow$/&\nbase -> gfx    nothing includes this/' "$tmp/copy/docs/design.md"
python3 "$tool" --root "$tmp/copy" --check >"$tmp/o" 2>"$tmp/e" && fail "a stale allow entry passed"
grep -q "^docs/design.md:[0-9]*: allowed include base -> gfx no longer occurs" "$tmp/e" ||
    fail "stale entry not named: $(cat "$tmp/e")"

sed -i 's/^base -> gfx .*/base gfx/' "$tmp/copy/docs/design.md"
python3 "$tool" --root "$tmp/copy" --check >"$tmp/o" 2>"$tmp/e"
[ $? -eq 2 ] || fail "malformed allow line: want exit 2"
grep -q "design.md:[0-9]*: expected 'FROM -> TO  reason'" "$tmp/e" || fail "malformed: $(cat "$tmp/e")"
echo "layers: ok"
