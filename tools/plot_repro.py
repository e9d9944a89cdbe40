#!/usr/bin/python3
"""plot_repro.py - draw a reproduction's figures from the data gpucoh wrote.

    /usr/bin/python3 tools/plot_repro.py DIR

reads DIR/figures.csv (figure,kind,title,ylabel,xlabel,ref) and
DIR/plot-data.csv (figure,group,series,stack,value,paper) and writes
DIR/<figure>.svg and DIR/<figure>.png for each figure:

  bars     one cluster per app plus the set's mean, one bar per design; the
           paper's value, where it gives one, as a black diamond on its bar
  stacked  as bars, each bar split by traffic class (hatched by class,
           coloured by design); the paper's total as a diamond
  lines    one line per app over the swept setting; paper points as diamonds

Normalised charts (ref = 1) get a dashed line at 1.0. A missing value (a run
that failed, a design not built) draws nothing and is said under the title.
`gpucoh repro` runs this; it needs Debian's python3-matplotlib.
"""
import csv
import math
import os
import sys
import textwrap

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
except ImportError:
    sys.exit("plot_repro.py: matplotlib is missing: install Debian's python3-matplotlib "
             "(apt-get install python3-matplotlib, or `make deps`) and run it with /usr/bin/python3")

HATCHES = ["", "//", "..", "xx", "\\\\", "oo", "--", "++"]
MEAN_LABELS = ("HM", "GM", "mean")  # the group gpucoh writes for a set's mean
DPI = 100  # the page shows a PNG at its own size: 100 pixels an inch, 10-point text


def num(s):
    return float(s) if s not in ("", None) else math.nan


def ordered(values):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


def figure_size(bars):
    """Inches for a chart of `bars` bar slots (or points): wide enough that the
    bars keep their width, never so wide that the page shrinks it below the
    text's size (the report shows a figure at up to 1150 pixels, 11.5 inches
    at DPI), never below 8 inches, so labels stay readable on screen."""
    return (min(max(8.0, 0.28 * bars + 3.0), 11.5), 4.8)


def tick_labels(ax, labels):
    """The x labels, turned when there are many, so none overlaps another."""
    many = len(labels) > 12 or max((len(str(l)) for l in labels), default=0) * len(labels) > 90
    ax.set_xticklabels(labels, rotation=40 if many else 0, ha="right" if many else "center")


def finish(fig, ax, meta, missing, out_dir):
    # wrapped to the figure's width, so a long title is never cut off at its ends
    title = textwrap.fill(meta["title"], width=int(fig.get_figwidth() * 9))
    if missing:
        title += f"\n({missing} value(s) missing: runs failed or not built)"
    ax.set_title(title, fontsize=12)
    ax.set_ylabel(meta["ylabel"])
    if meta["xlabel"]:
        ax.set_xlabel(meta["xlabel"])
    if meta["ref"] == "1":
        ax.axhline(1.0, color="black", linestyle="--", linewidth=0.9, zorder=1)
    ax.grid(axis="y", color="#dddddd", linewidth=0.6, zorder=0)
    ax.set_axisbelow(True)
    fig.tight_layout()
    for ext in ("svg", "png"):
        fig.savefig(os.path.join(out_dir, f"{meta['figure']}.{ext}"), dpi=DPI)
    plt.close(fig)


def bars(meta, rows, out_dir, stacked):
    groups = ordered(r["group"] for r in rows)
    series = ordered(r["series"] for r in rows)
    stacks = ordered(r["stack"] for r in rows) if stacked else [""]
    val = {(r["group"], r["series"], r["stack"]): num(r["value"]) for r in rows}
    paper = {(r["group"], r["series"]): num(r["paper"]) for r in rows if r["paper"]}
    colours = plt.get_cmap("tab10").colors
    width = 0.8 / max(len(series), 1)
    fig, ax = plt.subplots(figsize=figure_size(len(groups) * max(len(series), 2)))
    missing = 0
    top = 0.0
    notes = []  # the paper's values, written out beside the legend
    for s_i, s in enumerate(series):
        xs = [g_i - 0.4 + width * (s_i + 0.5) for g_i in range(len(groups))]
        bottom = [0.0] * len(groups)
        for k_i, k in enumerate(stacks):
            hs = []
            for g in groups:
                v = val.get((g, s, k), math.nan)
                hs.append(0.0 if math.isnan(v) else v)
                if math.isnan(v) and k_i == 0:
                    missing += 1
            ax.bar(xs, hs, width * 0.92, bottom=bottom, color=colours[s_i % 10],
                   hatch=HATCHES[k_i % len(HATCHES)],
                   edgecolor="white" if not stacked else "#333333", linewidth=0.4, zorder=2)
            bottom = [b + h for b, h in zip(bottom, hs)]
        # the mean's values written on the chart, so it reads at a glance in print
        if groups and groups[-1] in MEAN_LABELS and bottom[-1] > 0:
            ax.annotate(f"{bottom[-1]:.2f}", (xs[-1], bottom[-1]), textcoords="offset points",
                        xytext=(0, 2), ha="center", va="bottom", fontsize=8, rotation=90)
        top = max([top] + bottom)
        for g_i, g in enumerate(groups):
            p = paper.get((g, s), math.nan)
            if not math.isnan(p):
                ax.plot(xs[g_i], p, marker="D", color="black", markersize=6, zorder=4)
                notes.append(f"{s} {g}: {p:g}")
                top = max(top, p)
    ax.set_xticks(range(len(groups)))
    tick_labels(ax, groups)
    ax.set_xlim(-0.6, len(groups) - 0.4)
    if len(groups) > 1:
        ax.axvline(len(groups) - 1.5, color="#999999", linewidth=0.6)  # apps | mean
    handles = [Patch(color=colours[i % 10], label=s) for i, s in enumerate(series)]
    if stacked:
        handles += [Patch(facecolor="white", edgecolor="#333333", hatch=HATCHES[i % len(HATCHES)],
                          label=k) for i, k in enumerate(stacks)]
    if paper:
        handles.append(Line2D([], [], marker="D", color="black", linestyle="", label="paper"))
    ax.legend(handles=handles, fontsize=9, ncol=2 if stacked else 1, loc="upper left",
              bbox_to_anchor=(1.01, 1.0), frameon=False)
    if notes:
        ax.annotate("the paper:\n" + "\n".join(notes), (1.02, 0.0), xycoords="axes fraction",
                    va="bottom", ha="left", fontsize=9)
    ax.set_ylim(0, top * 1.12 if top > 0 else 1)
    finish(fig, ax, meta, missing, out_dir)


def lines(meta, rows, out_dir):
    xs = ordered(r["group"] for r in rows)
    series = ordered(r["series"] for r in rows)
    fig, ax = plt.subplots(figsize=figure_size(len(xs) * 2))
    missing = 0
    colours = plt.get_cmap("tab10").colors
    any_paper = False
    for s_i, s in enumerate(series):
        pts = {r["group"]: (num(r["value"]), num(r["paper"])) for r in rows if r["series"] == s}
        ys = [pts.get(x, (math.nan, math.nan))[0] for x in xs]
        missing += sum(1 for y in ys if math.isnan(y))
        ax.plot(range(len(xs)), ys, marker="o", markersize=4, label=s, color=colours[s_i % 10],
                zorder=3)
        for x_i, x in enumerate(xs):
            p = pts.get(x, (math.nan, math.nan))[1]
            if not math.isnan(p):
                any_paper = True
                ax.plot(x_i, p, marker="D", color="black", markersize=7, zorder=4)
                ax.annotate(f"paper {s} {p:g}", (x_i, p), textcoords="offset points",
                            xytext=(6, 0), fontsize=8, va="center")
    ax.set_xticks(range(len(xs)))
    tick_labels(ax, xs)
    handles, _ = ax.get_legend_handles_labels()
    if any_paper:
        handles.append(Line2D([], [], marker="D", color="black", linestyle="", label="paper"))
    ax.legend(handles=handles, fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              frameon=False)
    finish(fig, ax, meta, missing, out_dir)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plot_repro.py DIR (with DIR/figures.csv and DIR/plot-data.csv)")
    out_dir = sys.argv[1]
    with open(os.path.join(out_dir, "figures.csv"), newline="") as f:
        figures = list(csv.DictReader(f))
    with open(os.path.join(out_dir, "plot-data.csv"), newline="") as f:
        data = list(csv.DictReader(f))
    plt.rcParams.update({"font.size": 10, "svg.hashsalt": "gpucoh", "svg.fonttype": "none"})
    for meta in figures:
        rows = [r for r in data if r["figure"] == meta["figure"]]
        if meta["kind"] == "lines":
            lines(meta, rows, out_dir)
        else:
            bars(meta, rows, out_dir, meta["kind"] == "stacked")


if __name__ == "__main__":
    main()
