#!/usr/bin/env python3
"""sizes.py - list the C files of src/ over a line limit and the functions over
a length limit (issue 40: no file over 1,500 lines, no function over 200).

A function's length runs from the line that names it to the line of its closing
brace. Functions are found by a brace-depth scan with comments, strings and
preprocessor lines blanked out: a '{' at file scope that follows ')' with no '='
before it opens a function body. That is enough for this tree's style (one
definition per brace block, no K&R definitions); it needs no ctags.

Use: tools/sizes.py [--root DIR] [--file-limit N] [--function-limit N]
                    [--allow FILE] [--check]
  --allow FILE  lines 'PATH[:FUNCTION]  reason' (# comments): entries over
                the limit that are allowed; --check fails on an entry that is
                no longer over its limit (stale), so the list only shrinks.
  --check       exit 1 when anything not allowed is over its limit.
Output: one line per finding, 'PATH: N lines' or 'PATH:LINE: FUNCTION N lines',
longest first, then a summary line 'sizes: ... N problems'.
"""
# SPDX-License-Identifier: BSD-3-Clause
import argparse
import os
import re
import sys


def blank_noise(text):
    """Comments, string and char literals and preprocessor lines become spaces
    (newlines kept, so line numbers stay)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c)
            i = j
            continue
        out.append(c)
        if c == "\n":
            line_start = True
        elif not c.isspace():
            line_start = False
        i += 1
    return "".join(out)


def functions(text):
    """(name, first line, last line) of each function defined in text."""
    code = blank_noise(text)
    found = []
    depth = 0
    chunk_start = 0  # where the current file-scope declaration began
    opened = None  # (name, first line) of the function whose body is open
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0:
                head = code[chunk_start:i]
                if head.rstrip().endswith(")") and "=" not in head and "(" in head:
                    paren = head.index("(")
                    m = re.search(r"([A-Za-z_]\w*)\s*$", head[:paren])
                    if m:
                        pos = chunk_start + m.start(1)
                        opened = (m.group(1), code.count("\n", 0, pos) + 1)
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if opened:
                    found.append((opened[0], opened[1], code.count("\n", 0, i) + 1))
                    opened = None
                chunk_start = i + 1
        elif c == ";" and depth == 0:
            chunk_start = i + 1
    return found


def read_allow(path):
    allow = {}
    with open(path) as f:
        for no, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 1)
            if len(parts) < 2:
                print(f"{path}:{no}: expected 'PATH[:FUNCTION]  reason'", file=sys.stderr)
                sys.exit(2)
            allow[parts[0]] = no
    return allow


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--file-limit", type=int, default=1500)
    ap.add_argument("--function-limit", type=int, default=200)
    ap.add_argument("--allow")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    allow = read_allow(args.allow) if args.allow else {}
    src = os.path.join(args.root, "src")
    over = []  # (length, key, text)
    for dirpath, _, names in os.walk(src):
        for name in sorted(names):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, args.root)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            lines = text.count("\n")
            if lines > args.file_limit:
                over.append((lines, rel, f"{rel}: {lines} lines"))
            for fn, first, last in functions(text):
                length = last - first + 1
                if length > args.function_limit:
                    over.append((length, f"{rel}:{fn}", f"{rel}:{first}: {fn} {length} lines"))
    over.sort(key=lambda o: (-o[0], o[1]))
    problems = 0
    for _, key, line in over:
        allowed = key in allow
        print(line + ("  (allowed)" if allowed else ""))
        if not allowed:
            problems += 1
    keys = {o[1] for o in over}
    for key, no in sorted(allow.items(), key=lambda kv: kv[1]):
        if key not in keys:
            print(f"{args.allow}:{no}: allowed {key} is no longer over its limit", file=sys.stderr)
            problems += 1
    print(f"sizes: files over {args.file_limit} lines, functions over "
          f"{args.function_limit}: {len(over)} found, {problems} problems")
    return 1 if args.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
