#!/usr/bin/python3
"""repro_readme.py - a reproduction's README quotes its stored results, not copies of them.

    tools/repro_readme.py [--root DIR] --check [NAME...]   exit 1 when a README's headline
                                                           block differs from its results
    tools/repro_readme.py [--root DIR] --write [NAME...]   rewrite every headline block

A headline block in repro/NAME/README.md is the text between

    <!-- headline:begin size=SIZE -->
    <!-- headline:end -->

and is generated from repro/NAME/results/SIZE/ (docs/repro.md, "Stored results"): the
provenance (size, commit, date, runs), every number of paper.csv with gpucoh's, its effect
ratio, direction and evidence (summary.csv and the report's misses), its mean [min, max] over
the main block's inputs where the reproduction has replicas (report.txt's spread), and the
count of claims that hold (report.txt). Results stored before effect ratios were recorded have no paper
section in summary.csv; their numbers are read from report.txt's table of the paper's numbers
and the block says that the effect ratios were not stored. Without NAME every README under
repro/ is handled; --check also fails a README with no block (--allow-missing NAME exempts
one), and --check fails a stored result whose provenance names a dirty tree (a commit
ending in -dirty: no commit reproduces it). A marker that is malformed or names a size with
no stored results is `README.md:LINE: what is wrong`, exit 2.
"""
import argparse
import configparser
import csv
import os
import re
import sys

BEGIN = re.compile(r"^<!-- headline:begin size=([a-z]+) -->$")
END = "<!-- headline:end -->"
PAPER_HEADER = "figure,set,app,metric,baseline,design,paper,gpucoh,effect_ratio,direction"
# A report rendered since an explain has to move its number a tenth of the way toward the paper to
# count says so in its misses section's preamble; an older one counted every explain measured at
# its size.
TOWARD_RULE = "It explains"
OLD_RULE = (" (counted when any explain measured at this size explained its miss; one rendered "
            "now counts only those that move the number a tenth of the way toward the paper: "
            "docs/repro.md)")


class InputError(Exception):
    """A README or stored result that cannot be read: its place and what is wrong."""


def fail_input(where, what):
    raise InputError(f"{where}: {what}")


def read_provenance(results, rel):
    path = os.path.join(results, "provenance")
    if not os.path.exists(path):
        fail_input(rel, f"no stored results ({os.path.join(rel, 'provenance')} is missing)")
    ini = configparser.ConfigParser(inline_comment_prefixes=("#",))
    ini.read(path)
    if not ini.has_section("provenance"):
        fail_input(os.path.join(rel, "provenance"), "no [provenance] section")
    return ini["provenance"]


def dirty_results(root, name):
    """Stored results of repro/NAME taken from a tree with uncommitted changes (provenance's
    commit ends in -dirty): no commit reproduces them. One message per folder; their count."""
    base = os.path.join(root, "repro", name, "results")
    found = 0
    for size in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        rel = f"repro/{name}/results/{size}"
        if not os.path.exists(os.path.join(root, rel, "provenance")):
            continue
        commit = read_provenance(os.path.join(root, rel), rel).get("commit", "")
        if commit.endswith("-dirty"):
            print(f"{rel}/provenance: commit = {commit}: taken from a tree with uncommitted "
                  f"changes, so no commit reproduces it; commit, then retake it with `gpucoh "
                  f"repro {name} --size {size} --store`", file=sys.stderr)
            found += 1
    return found


def summary_paper_rows(results):
    """summary.csv's paper section (the rows after its blank line), or None where absent."""
    path = os.path.join(results, "summary.csv")
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        lines = f.read().split("\n")
    if PAPER_HEADER not in lines:
        return None
    start = lines.index(PAPER_HEADER)
    body = [x for x in lines[start:] if x]
    return list(csv.DictReader(body))


def report_sections(results):
    """report.txt split into its '== ... ==' sections: {title: [lines]} (title without size)."""
    path = os.path.join(results, "report.txt")
    sections, title = {}, ""
    if not os.path.exists(path):
        return sections
    with open(path) as f:
        for line in f.read().split("\n"):
            m = re.match(r"^== (.*?)(?: \(size [a-z]+\))? ==$", line)
            if m:
                title = m.group(1)
                sections.setdefault(title, [])
            elif title:
                sections[title].append(line)
    return sections


def section(sections, prefix):
    for title, lines in sections.items():
        if title.startswith(prefix):
            return lines
    return []


def evidence_of(misses):
    """{(miss line's key, metric): evidence}: the first ablation's 'NAME: A -> B' that moves the
    number a tenth of the way toward the paper, or 'unexplained'. The metric is part of the key:
    one design over one baseline can state several numbers (speedup_gmean and speedup_max), each
    with its own explains. A report rendered since the rule marks an explain that moves its
    number too little; in an older one (no TOWARD_RULE in the preamble) the rule is applied here
    to the numbers as printed, so that its block names no explain that moves a number too little
    or away. Its claims cannot be judged from the text: its tally line says how it counted."""
    old_rule = not any(TOWARD_RULE in x for x in misses)
    found, key, is_miss = {}, None, True
    for line in misses:
        if line.startswith("explained, though not a miss"):
            is_miss = False
        if line and not line.startswith(" "):
            m = re.match(r"^(.*?): paper .*\((\S+), effect [^)]*\)$", line)
            key = (m.group(1), m.group(2)) if m else None
            if key and is_miss:
                found.setdefault(key, "unexplained")
            continue
        if key is None or found.get(key, "unexplained") != "unexplained":
            continue
        text = line.strip()
        if text.endswith("[under a tenth of the way to the paper: explains nothing]"):
            continue  # listed under the miss, but it explains nothing
        m = re.match(r"^([^:]+): .*: (\S+) \u2192 (\S+); paper (\S+)", text)
        if m and old_rule and not toward(m.group(2), m.group(3), m.group(4)):
            continue
        if m:
            found[key] = f"{m.group(1)}: {m.group(2)} \u2192 {m.group(3)}"
    return found


def toward(before, after, paper):
    """Whether a number printed as `before -> after` comes a tenth of the way to the paper's (the
    report's rule, repro_explain_toward in src/report/repro.c)."""
    try:
        was, now = abs(float(before) - float(paper)), abs(float(after) - float(paper))
    except ValueError:  # '-': not measured
        return False
    return now < was - 1e-9 and now <= 0.9 * was + 1e-9


def spread_of(lines):
    """{(key, metric): 'MEAN [MIN, MAX]'} from the report's spread over replicas (the main block
    repeated on other inputs), and the replicas' count; ({}, 0) without replicas. A number that
    fewer inputs have (one read from a block the replicas do not run) says over how many."""
    rows, count = {}, 0
    for line in lines:
        m = re.match(r"^(.*?) \((\S+)\): \S+; mean (\S+) \[(\S+), (\S+)\] over (\d+); paper ", line)
        if m:
            rows[(m.group(1), m.group(2))] = (f"{m.group(3)} [{m.group(4)}, {m.group(5)}]",
                                              int(m.group(6)))
            count = max(count, int(m.group(6)))
    return {k: text + (f" (over {n})" if n < count else "") for k, (text, n) in rows.items()}, count


def fmt(value, digits=2):
    if value in ("", None):
        return "n/a"
    try:
        return f"{float(value):.{digits}f}"
    except ValueError:
        return value


def claim_count(sections):
    verdicts = [re.match(r"^\[(holds|does not hold|cannot check)\]", x)
                for x in section(sections, "The paper's expected shape")]
    verdicts = [m.group(1) for m in verdicts if m]
    held = sum(v == "holds" for v in verdicts)
    unknown = sum(v == "cannot check" for v in verdicts)
    text = f"{held} of {len(verdicts)} claims hold"
    return text + (f" ({unknown} cannot be checked)" if unknown else "")


def render(root, name, size):
    """The block's lines (between the markers) for repro/NAME/results/SIZE."""
    rel = f"repro/{name}/results/{size}"
    results = os.path.join(root, rel)
    prov = read_provenance(results, rel)
    sections = report_sections(results)
    facts = [f"size {prov.get('numbers_size', prov.get('size', size))}",
             f"commit {prov.get('commit', 'not recorded')}", f"taken {prov.get('date', '?')}"]
    if "runs" in prov:
        facts.append(f"{prov['runs']} runs ({prov.get('runs_failed', '?')} failed)")
    if "run_seconds" in prov:  # each run's own wall time, summed over every call that made them
        facts.append(f"{float(prov['run_seconds']):.0f} s of run time summed over the runs "
                     f"(the longest {float(prov.get('longest_run_seconds', 0)):.0f} s)")
    out = [f"Generated from `results/{size}/` by `tools/repro_readme.py --write` (do not edit by "
           f"hand): {', '.join(facts)}.", ""]
    rows = summary_paper_rows(results)
    if rows is not None:
        misses = section(sections, "Misses and the ablations")
        evidence = evidence_of(misses)
        spread, inputs = spread_of(section(sections, "Spread over"))
        if inputs:  # the mean [min, max] over the main block's inputs
            out += [f"| figure | set | app | number | paper | gpucoh | over {inputs} inputs | effect "
                    f"| dir | evidence |", "|---|---|---|---|---:|---:|---:|---:|---|---|"]
        else:
            out += ["| figure | set | app | number | paper | gpucoh | effect | dir | evidence |",
                    "|---|---|---|---|---:|---:|---:|---|---|"]
        for r in rows:
            over = r["baseline"] or "-"
            key = f"{r['figure']} {r['set']} {r['app'] + ' ' if r['app'] else ''}" \
                  f"{r['design']} over {over}"
            number = f"{r['design']} {r['metric']}" + (f" over {r['baseline']}" if r["baseline"]
                                                       else "")
            direction = {"yes": "\u2713", "no": "\u2717"}.get(r["direction"], "")
            over = f" {spread.get((key, r['metric']), 'n/a')} |" if inputs else ""
            out.append(f"| {r['figure']} | {r['set']} | {r['app']} | {number} | "
                       f"{fmt(r['paper'])} | {fmt(r['gpucoh'])} |{over} {fmt(r['effect_ratio'])} | "
                       f"{direction} | {evidence.get((key, r['metric']), chr(0x2014))} |")
        tally = [x for x in misses if re.match(r"^\d+ misses, \d+ of them unexplained$", x)]
        if tally and not any(TOWARD_RULE in x for x in misses):
            tally[0] += OLD_RULE
        out += ["", claim_count(sections) + "; " + (tally[0] if tally else "misses not listed")
                + " (`report.txt`)."]
    else:
        table = section(sections, "The paper's numbers beside gpucoh's")
        out += ["| figure | set | number | paper | gpucoh | verdict |",
                "|---|---|---|---:|---:|---|"]
        pattern = re.compile(r"^(\S+)\s+(\S+)\s+(.*?)\s+(-?\d+\.\d+)\s+(-?\d+\.\d+!?|-)\s+(.*)$")
        for line in table:
            m = pattern.match(line)
            if not m or line.startswith("figure "):
                continue
            out.append("| " + " | ".join(" ".join(m.group(i).split()) for i in range(1, 7)) + " |")
        out += ["", claim_count(sections) + " (`report.txt`). These results were stored before "
                "effect ratios and the misses' evidence were recorded; `report.txt`'s table is "
                "quoted as it is."]
    return out


def blocks(path, rel):
    """[(begin index, end index, size)] of the README's lines."""
    with open(path) as f:
        lines = f.read().split("\n")
    found, open_at = [], None
    for i, line in enumerate(lines):
        if line.startswith("<!-- headline:begin"):
            m = BEGIN.match(line)
            if not m:
                fail_input(f"{rel}:{i + 1}", "expected '<!-- headline:begin size=SIZE -->'")
            if open_at is not None:
                fail_input(f"{rel}:{i + 1}", f"headline block of line {open_at[0] + 1} not ended")
            open_at = (i, m.group(1))
        elif line.startswith("<!-- headline:end"):
            if line != END:
                fail_input(f"{rel}:{i + 1}", f"expected '{END}'")
            if open_at is None:
                fail_input(f"{rel}:{i + 1}", "headline:end without a begin")
            found.append((open_at[0], i, open_at[1]))
            open_at = None
    if open_at is not None:
        fail_input(f"{rel}:{open_at[0] + 1}", f"headline block not ended ('{END}')")
    return lines, found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--write", action="store_true")
    ap.add_argument("--allow-missing", action="append", default=[], metavar="NAME")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    names = a.names or sorted(d for d in os.listdir(os.path.join(a.root, "repro"))
                              if os.path.exists(os.path.join(a.root, "repro", d, "README.md")))
    problems = 0
    try:
        for name in names:
            rel = f"repro/{name}/README.md"
            path = os.path.join(a.root, rel)
            if not os.path.exists(path):
                fail_input(rel, "no such README")
            lines, found = blocks(path, rel)
            if a.check:
                problems += dirty_results(a.root, name)
            if not found:
                if a.check and name not in a.allow_missing:
                    print(f"{rel}: no headline block ('<!-- headline:begin size=SIZE -->' ... "
                          f"'{END}'): its numbers are not tied to results/", file=sys.stderr)
                    problems += 1
                continue
            new, last = [], 0
            for begin, end, size in found:
                try:
                    body = render(a.root, name, size)
                except InputError as e:
                    fail_input(f"{rel}:{begin + 1}", str(e))
                new += lines[last:begin + 1] + body
                last = end
                if a.check and lines[begin + 1:end] != body:
                    at = next((k for k, (x, y) in enumerate(zip(lines[begin + 1:end], body))
                               if x != y), min(end - begin - 1, len(body)))
                    want = body[at] if at < len(body) else "(end of block)"
                    print(f"{rel}:{begin + 2 + at}: headline block (size {size}) differs from "
                          f"results/{size}/: expected\n  {want}\nrun tools/repro_readme.py "
                          f"--write {name}", file=sys.stderr)
                    problems += 1
            new += lines[last:]
            if a.write and new != lines:
                with open(path + ".tmp", "w") as f:
                    f.write("\n".join(new))
                os.replace(path + ".tmp", path)
                print(f"{rel}: {len(found)} headline block(s) written")
    except InputError as e:
        print(e, file=sys.stderr)
        sys.exit(2)
    if a.check:
        print(f"repro_readme: {len(names)} READMEs, {problems} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
