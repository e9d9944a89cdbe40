#!/usr/bin/env python3
"""analyze_example.py - read a gpucoh sweep into pandas and plot one figure.

The worked example of docs/analysis.md: loads a sweep's results.csv (one row
per run) and each run's statistics file DIR/runs/<id>.json (every statistic,
docs/stats.md), joins them on the run id, normalises every protocol's cycles
and interconnect bytes to a baseline protocol per workload, prints that table,
writes it as CSV (--table) and draws normalised cycles as grouped bars with
matplotlib (--out, PNG or SVG by its suffix).

Uses only Debian's python3-pandas and python3-matplotlib.

usage: analyze_example.py SWEEP_DIR [--baseline PROTOCOL] [--out FIG.png]
                          [--table TABLE.csv]
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


def load_sweep(folder):
    """results.csv joined with a few figures of each run's JSON, one row per run."""
    runs = pd.read_csv(os.path.join(folder, "results.csv"))
    runs = runs[runs["check"] == "ok"]  # runs that finished with a correct output
    extra = []
    for run_id in runs["id"]:
        with open(os.path.join(folder, "runs", run_id + ".json")) as f:
            stats = json.load(f)
        extra.append({
            "id": run_id,
            "l2_hit_rate": stats["l2_hit_rate"],
            "warp_insts": stats["warp_insts"],
            # every counter is under stats["stats"]; per launch under
            # stats["kernel_stats"] (docs/stats.md)
            "kernels": stats["kernels"],
            "dram_reads": sum(v for k, v in stats["stats"].items()
                              if k.startswith("gpu.dram[") and k.endswith(".reads")),
        })
    return runs.merge(pd.DataFrame(extra), on="id")


def normalise(df, baseline):
    """cycles and bytes of each protocol over the baseline's, per workload and size."""
    keys = ["workload", "size"]
    base = df[df["protocol"] == baseline][keys + ["cycles", "bytes"]]
    if base.empty:
        sys.exit(f"analyze_example.py: no run of the baseline protocol '{baseline}' "
                 f"(protocols: {', '.join(sorted(df['protocol'].unique()))})")
    base = base.rename(columns={"cycles": "base_cycles", "bytes": "base_bytes"})
    out = df.merge(base, on=keys)
    out["norm_cycles"] = out["cycles"] / out["base_cycles"]
    out["norm_bytes"] = out["bytes"] / out["base_bytes"]
    cols = keys + ["protocol", "cycles", "norm_cycles", "bytes", "norm_bytes",
                   "l2_hit_rate", "dram_reads", "kernels"]
    return out[cols].sort_values(keys + ["protocol"]).reset_index(drop=True)


def plot(table, baseline, path):
    """Grouped bars: normalised cycles per workload, one bar per protocol."""
    wide = table.pivot_table(index="workload", columns="protocol", values="norm_cycles")
    ax = wide.plot.bar(figsize=(7, 4), rot=0)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_ylabel(f"cycles normalised to {baseline}")
    sizes = ", ".join(sorted(table["size"].unique()))
    ax.set_title(f"Execution time by protocol (size {sizes})")
    ax.legend(title="protocol")
    plt.tight_layout()
    plt.savefig(path)
    plt.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sweep", help="a sweep's output folder (results.csv and runs/)")
    ap.add_argument("--baseline", default="nol1", help="protocol to normalise to (nol1)")
    ap.add_argument("--out", default="cycles.png", help="the figure (PNG or SVG)")
    ap.add_argument("--table", help="also write the normalised table as CSV")
    a = ap.parse_args()
    table = normalise(load_sweep(a.sweep), a.baseline)
    with pd.option_context("display.width", 120, "display.max_columns", 20):
        print(table.to_string(index=False))
    if a.table:
        table.to_csv(a.table, index=False)
    plot(table, a.baseline, a.out)
    print(f"figure: {a.out}")


if __name__ == "__main__":
    main()
