#!/usr/bin/python3
"""validate_report.py - gpucoh's figures against GPGPU-Sim's on the same programs.

    /usr/bin/python3 tools/validate_report.py --gpucoh-runs DIR/runs \\
        --gpgpusim validation/gpgpusim/tc-tiny.csv --out DIR [--ablation NAME]

reads gpucoh's run statistics (DIR/runs/*.json, `gpucoh sweep` of
validation/validation.sweep) and GPGPU-Sim's CSV (run_gpgpusim.sh), and
writes into --out:

  gpucoh-SIZE.csv  gpucoh's figures in the GPGPU-Sim CSV's columns
  report.md        per workload and baseline: cycles on both, the ratio
                   gpucoh / GPGPU-Sim (marked where outside +-25%), thread
                   instructions (= where equal), L1 and L2 hit rates, KB read
                   from and written to DRAM; per baseline the Pearson correlation of
                   cycles and the mean absolute error |gpucoh - GPGPU-Sim| /
                   GPGPU-Sim (Accel-Sim's two figures against hardware)
  cycles.svg/.png  the scatter plot: GPGPU-Sim cycles against gpucoh's, log
                   scales, y = x and the +-25% band

A pair missing on one side, or a run whose result check failed, is listed
and left out of the statistics. Several GPGPU-Sim CSVs are joined (a later
file's row replaces an earlier one's). --ablation NAME compares GPGPU-Sim's runs
with one machine difference removed (baseline BASE-NAME in the CSV, as
run_gpgpusim.sh --baselines names them) with gpucoh's BASE: how much of
each gap that difference explains. Needs Debian's python3-matplotlib.
"""
import argparse
import csv
import glob
import json
import math
import os
import sys

COLUMNS = ["workload", "size", "baseline", "cycles", "thread_insts", "l1_hit_rate",
           "l2_hit_rate", "dram_read_bytes", "dram_write_bytes", "check"]
BAND = 0.25  # the tolerance on cycles


def gpucoh_rows(runs_dir):
    rows = {}
    for path in sorted(glob.glob(os.path.join(runs_dir, "*.json"))):
        with open(path) as f:
            s = json.load(f)
        st = s.get("stats", {})
        line = int(s["config"]["l2.line"])  # a DRAM request moves one L2 line
        dram = lambda kind: line * sum(v for k, v in st.items()
                                       if k.startswith("gpu.dram[") and k.endswith("]." + kind))
        row = {"workload": s["workload"], "size": s["size"], "baseline": s["protocol"],
               "cycles": s["cycles"], "thread_insts": s["thread_insts"],
               "l1_hit_rate": s["l1_hit_rate"], "l2_hit_rate": s["l2_hit_rate"],
               "dram_read_bytes": dram("reads"), "dram_write_bytes": dram("writes"),
               "check": "ok" if s.get("check_passed") else "WRONG"}
        rows[(row["workload"], row["baseline"])] = row
    return rows


def gpgpusim_rows(path, ablation):
    """Rows by (workload, baseline); with an ablation, only BASE-ablation rows, keyed by BASE."""
    with open(path) as f:
        lines = [l for l in f if not l.startswith("#")]
    rows = {}
    for r in csv.DictReader(lines):
        base = r["baseline"]
        if ablation:
            if not base.endswith("-" + ablation):
                continue
            base = base[:-len(ablation) - 1]
        rows[(r["workload"], base)] = r
    return rows


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def pearson(xs, ys):
    n = len(xs)
    if n < 2:
        return math.nan
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else math.nan


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gpucoh-runs", required=True)
    ap.add_argument("--gpgpusim", required=True, nargs="+", help="GPGPU-Sim CSV files (rows joined)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--ablation", help="compare GPGPU-Sim's BASE-ABLATION runs with gpucoh's BASE")
    a = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("validate_report.py: matplotlib is missing: install Debian's python3-matplotlib "
                 "and run it with /usr/bin/python3")

    ours, theirs = gpucoh_rows(a.gpucoh_runs), {}
    for path in a.gpgpusim:
        theirs.update(gpgpusim_rows(path, a.ablation))
    if not ours:
        sys.exit(f"validate_report.py: no gpucoh runs in {a.gpucoh_runs}")
    size = next(iter(ours.values()))["size"]
    os.makedirs(a.out, exist_ok=True)
    csv_path = os.path.join(a.out, f"gpucoh-{size}.csv")
    with open(csv_path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS, lineterminator="\n")
        w.writeheader()
        for key in sorted(ours):
            w.writerow(ours[key])
    os.replace(csv_path + ".tmp", csv_path)

    against = f", ablation `{a.ablation}`" if a.ablation else ""
    md = [f"# gpucoh against GPGPU-Sim (size {size}{against})", "",
          f"GPGPU-Sim data: {', '.join(f'`{os.path.relpath(p)}`' for p in a.gpgpusim)}; "
          f"gpucoh: `{os.path.relpath(csv_path)}`.",
          "Ratio = gpucoh cycles / GPGPU-Sim cycles (** outside +-25%). insts: thread",
          "instructions, = where both simulators count the same. Hit rates in %; DRAM:",
          "KB read + written (gpucoh: line requests x line size; GPGPU-Sim: 64-byte atoms).", ""]
    if a.ablation:
        md += [f"GPGPU-Sim's baselines here are BASE-{a.ablation} (one machine difference removed: "
               "validation/gpgpusim/run_gpgpusim.sh), each against gpucoh's BASE.", ""]
    fig, ax = plt.subplots(figsize=(6, 6))
    lo, hi = math.inf, 0
    for base, marker in (("nol1", "o"), ("rc", "s")):
        keys = sorted(k for k in set(ours) | set(theirs) if k[1] == base)
        if not keys:
            continue
        md += [f"## Baseline `{base}`", "",
               "| workload | gpucoh cycles | GPGPU-Sim cycles | ratio | insts gpucoh | insts GPGPU-Sim "
               "| L1 hit g / G | L2 hit g / G | DRAM g / G |",
               "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        xs, ys, skipped = [], [], []
        for k in keys:
            o, t = ours.get(k), theirs.get(k)
            if not o or not t or o["check"] != "ok" or t["check"] != "ok":
                why = ("no gpucoh run" if not o else "no GPGPU-Sim run" if not t else
                       f"check: gpucoh {o['check']}, GPGPU-Sim {t['check']}")
                skipped.append(f"{k[0]} ({why})")
                continue
            oc, tc = num(o["cycles"]), num(t["cycles"])
            ratio = oc / tc if tc else math.nan
            flag = " **" if abs(ratio - 1) > BAND else ""
            oi, ti = num(o["thread_insts"]), num(t["thread_insts"])
            same = " =" if oi == ti else ""
            od = (num(o["dram_read_bytes"]) + num(o["dram_write_bytes"])) / 1024
            td = (num(t["dram_read_bytes"]) + num(t["dram_write_bytes"])) / 1024
            md.append(f"| {k[0]} | {oc:.0f} | {tc:.0f} | {ratio:.2f}{flag} | {oi:.0f}{same} | "
                      f"{ti:.0f}{same} | {100 * num(o['l1_hit_rate']):.1f} / "
                      f"{100 * num(t['l1_hit_rate']):.1f} | {100 * num(o['l2_hit_rate']):.1f} / "
                      f"{100 * num(t['l2_hit_rate']):.1f} | {od:.1f} / {td:.1f} |")
            xs.append(tc)
            ys.append(oc)
        md.append("")
        if xs:
            r = pearson(xs, ys)
            mae = sum(abs(y - x) / x for x, y in zip(xs, ys)) / len(xs)
            outside = sum(abs(y / x - 1) > BAND for x, y in zip(xs, ys))
            md += [f"{len(xs)} workloads: correlation of cycles {r:.3f}, mean absolute error "
                   f"{100 * mae:.1f}%, {outside} outside +-25%.", ""]
            ax.scatter(xs, ys, marker=marker, label=f"{base} (r = {r:.2f}, MAE {100 * mae:.0f}%)")
            lo, hi = min(lo, *xs, *ys), max(hi, *xs, *ys)
        if skipped:
            md += ["Left out: " + ", ".join(skipped) + ".", ""]
    if hi > 0:
        line = [lo / 1.5, hi * 1.5]
        ax.plot(line, line, "k--", linewidth=0.9, label="y = x")
        ax.fill_between(line, [v * (1 - BAND) for v in line], [v * (1 + BAND) for v in line],
                        color="grey", alpha=0.15, label="+-25%")
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel("GPGPU-Sim cycles")
    ax.set_ylabel("gpucoh cycles")
    ax.set_title(f"Cycles, gpucoh against GPGPU-Sim (size {size}{against})")
    ax.legend(fontsize=8)
    for ext in ("svg", "png"):
        fig.savefig(os.path.join(a.out, f"cycles.{ext}"), dpi=120, bbox_inches="tight")
    with open(os.path.join(a.out, "report.md.tmp"), "w") as f:
        f.write("\n".join(md) + "\n")
    os.replace(os.path.join(a.out, "report.md.tmp"), os.path.join(a.out, "report.md"))
    print(f"validate_report.py: wrote {a.out}/report.md, cycles.svg, cycles.png, "
          f"{os.path.basename(csv_path)}")


if __name__ == "__main__":
    main()
