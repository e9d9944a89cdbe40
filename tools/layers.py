#!/usr/bin/python3
"""layers.py - the include graph of src/ against the layering in docs/design.md.

    tools/layers.py [--root DIR]            print the folder graph and every exception
    tools/layers.py --check [--root DIR]    exit 1 on an include the layering forbids,
                                            or an allow-list entry that no longer occurs
    tools/layers.py --write docs/layers.md  draw the graph (Mermaid) and the exceptions

A node is a folder of src/ (`coh/nc` is its own node: a protocol folder is a
component). An edge A -> B means a file in A includes "B/x.h". The ```layers
block of docs/design.md ("## Layers") lists the folders from the bottom layer
up, one layer per line; a folder not listed takes its parent's layer plus
one half (so `coh/tc` sits above `coh`, below the next line). An include is
allowed when it runs strictly down a layer; one that runs up, or across a
layer (two folders of one line, or two protocol folders), must be named in
the ```allow block (`A -> B  reason`; A may end in `/*` for every subfolder).
An allow entry that matches no include is stale and fails --check too, so the
list only shrinks as the exceptions are removed.
"""
import argparse
import fnmatch
import os
import re
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def fail_input(path, line, what):
    print(f"{path}:{line}: {what}", file=sys.stderr)
    sys.exit(2)


def read_layering(design):
    """The ```layers and ```allow blocks of design.md: (layer of folder, allow rules)."""
    layer, allow, block = {}, [], None
    with open(design) as f:
        for n, text in enumerate(f, 1):
            line = text.split("#", 1)[0].strip() if block == "layers" else text.strip()
            if text.startswith("```"):
                block = text[3:].strip() if block is None else None
                continue
            if block == "layers" and line:
                level = len(set(layer.values()))
                for folder in line.split():
                    if folder in layer:
                        fail_input(design, n, f"folder '{folder}' is listed twice")
                    layer[folder] = level
            elif block == "allow" and line:
                m = re.match(r"(\S+)\s*->\s*(\S+)\s+(\S.*)$", line)
                if not m:
                    fail_input(design, n, "expected 'FROM -> TO  reason'")
                allow.append({"from": m.group(1), "to": m.group(2), "why": m.group(3),
                              "line": n, "used": False})
    if not layer:
        fail_input(design, 1, "no ```layers block")
    return layer, allow


def folder_layer(layer, folder):
    if folder in layer:
        return layer[folder]
    parent = os.path.dirname(folder)
    if not parent:
        return None
    base = folder_layer(layer, parent)
    return None if base is None else base + 0.5


def include_graph(src):
    """{(from folder, to folder): [file:line, ...]} for includes that leave a folder."""
    edges = {}
    for root, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            here = os.path.relpath(root, src)
            path = os.path.join(root, name)
            with open(path, errors="replace") as f:
                for n, text in enumerate(f, 1):
                    m = INCLUDE.match(text)
                    if not m or "/" not in m.group(1):
                        continue
                    there = os.path.dirname(m.group(1))
                    if there != here:
                        edges.setdefault((here, there), []).append(
                            f"{os.path.relpath(path, os.path.dirname(src))}:{n}")
    return edges


def classify(edges, layer, allow):
    """Each edge: 'down', 'allowed' (with its rule) or 'forbidden'; unknown folders too."""
    verdicts, unknown = {}, set()
    for (a, b) in sorted(edges):
        la, lb = folder_layer(layer, a), folder_layer(layer, b)
        for f, l in ((a, la), (b, lb)):
            if l is None:
                unknown.add(f)
        if la is None or lb is None:
            verdicts[(a, b)] = ("forbidden", None)
            continue
        if lb < la and not b.startswith(a + "/"):
            verdicts[(a, b)] = ("down", None)
            continue
        rule = next((r for r in allow if fnmatch.fnmatchcase(a, r["from"]) and r["to"] == b), None)
        if rule:
            rule["used"] = True
            verdicts[(a, b)] = ("allowed", rule)
        else:
            verdicts[(a, b)] = ("forbidden", None)
    return verdicts, unknown


def cycles(edges):
    """Strongly connected components of more than one folder (Tarjan)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def mermaid_id(folder):
    return folder.replace("/", "_")


def write_doc(path, edges, verdicts, layer, comps):
    folders = sorted({f for e in edges for f in e}, key=lambda f: (folder_layer(layer, f) or 0, f))
    out = ["# The include graph of `src/`",
           "",
           "Drawn by `tools/layers.py --write docs/layers.md` from the sources and the layering in",
           "[design.md](design.md#layers); `cli/layers` fails when this page is out of date or an include",
           "breaks the layering. Folders are drawn bottom-up; an arrow means some file of one folder",
           "includes a header of the other (counts are left out, so that the page changes only when",
           "the folders' dependencies do). Dashed red arrows run up or across the layering: each is on",
           "the allow-list, with its reason below.",
           "",
           "```mermaid",
           "flowchart BT"]
    for f in folders:
        out.append(f"    {mermaid_id(f)}[\"{f}\"]")
    red = []
    for i, ((a, b), sites) in enumerate(sorted(edges.items())):
        kind = verdicts[(a, b)][0]
        arrow = "-.->" if kind != "down" else "-->"
        out.append(f"    {mermaid_id(a)} {arrow} {mermaid_id(b)}")
        if kind != "down":
            red.append(str(i))
    if red:
        out.append(f"    linkStyle {','.join(red)} stroke:#c00")
    out += ["```", "", "## Exceptions to the layering", "",
            "| include | where | reason |", "|---|---|---|"]
    for (a, b), (kind, rule) in sorted(verdicts.items()):
        if kind == "down":
            continue
        # files, not lines: the page must not go stale when an unrelated line moves
        sites = sorted({s.rsplit(":", 1)[0] for s in edges[(a, b)]})
        where = ", ".join(f"`{s}`" for s in sites[:3]) + (f" and {len(sites) - 3} more" if len(sites) > 3 else "")
        why = rule["why"] if rule else "**not allowed**"
        out.append(f"| `{a}` → `{b}` | {where} | {why} |")
    out += ["", "## Folder cycles", ""]
    out += [f"- {' ↔ '.join(c)}" for c in comps] or ["None."]
    text = "\n".join(out) + "\n"
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 1)[1])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--write", metavar="FILE")
    args = ap.parse_args()
    src = os.path.join(args.root, "src")
    design = os.path.join(args.root, "docs", "design.md")
    layer, allow = read_layering(design)
    edges = include_graph(src)
    verdicts, unknown = classify(edges, layer, allow)
    comps = cycles(edges)
    problems = [f"{f}: folder is not in the ```layers block of docs/design.md" for f in sorted(unknown)]
    for (a, b), (kind, _) in sorted(verdicts.items()):
        if kind == "forbidden":
            problems.append(f"{edges[(a, b)][0]}: {a} -> {b} runs up or across the layering "
                            f"(docs/design.md, Layers)")
    for r in allow:
        if not r["used"]:
            problems.append(f"docs/design.md:{r['line']}: allowed include {r['from']} -> {r['to']} "
                            "no longer occurs: remove it from the allow-list")
    if args.write:
        write_doc(args.write, edges, verdicts, layer, comps)
    if not args.check and not args.write:
        for (a, b), (kind, rule) in sorted(verdicts.items()):
            print(f"{a:14} -> {b:14} {len(edges[(a, b)]):3}  {kind}" + (f": {rule['why']}" if rule else ""))
        print("cycles: " + ("; ".join(" <-> ".join(c) for c in comps) or "none"))
    for p in problems:
        print(p, file=sys.stderr)
    if args.check:
        n_exc = sum(1 for k, _ in verdicts.values() if k == "allowed")
        print(f"layers: {len(edges)} folder includes, {n_exc} allowed exceptions, "
              f"{len(comps)} folder cycles, {len(problems)} problems")
    return 1 if args.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
