#!/usr/bin/env bash
# protocol-docs.sh - keep docs/protocols/NAME.md in step with the code.
#
#   tools/protocol-docs.sh GPUCOH ROOT           rewrite the generated part of every page
#   tools/protocol-docs.sh --check GPUCOH ROOT   exit 1 naming each page that differs
#
# A page named after a protocol (`gpucoh list protocols`) is the output of
# `gpucoh protocol show NAME --format md`, then, optionally, a section that starts
# with a line `## Notes...` and is kept by hand. Only the generated part is
# rewritten or compared. Pages named after a family (stc.md, spandex.md) are
# written by hand and left alone. Every protocol but the test-only ones must
# have a page.
set -u
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
[ $# -eq 2 ] || { echo "usage: $0 [--check] GPUCOH ROOT" >&2; exit 2; }
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0
while read -r name _ rest; do
    case $rest in *"[test only]"*) continue ;; esac
    page=$root/docs/protocols/$name.md
    if [ ! -f "$page" ]; then
        echo "docs/protocols/$name.md: missing (generate it: $0 GPUCOH ROOT)"
        status=1
        if [ $check = 1 ]; then continue; fi
        : >"$page"
    fi
    "$bin" protocol show "$name" --format md >"$tmp/gen" || { echo "protocol show $name failed"; exit 2; }
    sed -n '/^## Notes/,$p' "$page" >"$tmp/notes"
    cp "$tmp/gen" "$tmp/page"
    if [ -s "$tmp/notes" ]; then { echo; cat "$tmp/notes"; } >>"$tmp/page"; fi
    if ! cmp -s "$tmp/page" "$page"; then
        if [ $check = 1 ]; then
            echo "docs/protocols/$name.md: its tables differ from \`gpucoh protocol show $name --format md\`" \
                 "(regenerate: tools/protocol-docs.sh build/gpucoh .)"
            diff -u "$page" "$tmp/page" | head -20
            status=1
        else
            cp "$tmp/page" "$page.tmp" && mv "$page.tmp" "$page"
            echo "rewrote docs/protocols/$name.md"
        fi
    fi
done < <("$bin" list protocols)
exit $status
