#!/usr/bin/env python3
"""splice_block.py DOC NAME FILE: replace what DOC holds between the lines
`<!-- NAME -->` and `<!-- /NAME -->` with FILE's text, whole or not at all
(a temporary file renamed over DOC). The generated tables of docs/verify.md
(tools/verify-table.sh, tools/verify-stress-table.sh) are written this way."""
import os
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: splice_block.py DOC NAME FILE")
    doc, name, path = sys.argv[1:]
    text = open(path).read()
    s = open(doc).read()
    begin, end = f"<!-- {name} -->\n", f"<!-- /{name} -->"
    if begin not in s or end not in s:
        sys.exit(f"{doc}: no {begin.strip()} ... {end} block to replace")
    i, j = s.index(begin) + len(begin), s.index(end)
    with open(doc + ".tmp", "w") as f:
        f.write(s[:i] + text + s[j:])
    os.replace(doc + ".tmp", doc)


if __name__ == "__main__":
    main()
