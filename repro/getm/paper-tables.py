#!/usr/bin/env python3
"""paper-tables.py - the tables of repro/getm/README.md's "At the thesis's
inputs" section that the report engine does not draw, from the runs of
`gpucoh repro getm --size paper` (repro/getm/paper.sweep, issue 34).

    repro/getm/paper-tables.py OUT [OUT...]

OUT: output folders of `gpucoh repro getm --size paper` (or of `gpucoh sweep
repro/getm/paper.sweep`: runs/<id>.json); a run is looked up in each folder in
turn, so runs split over folders are read as one. The report (OUT/report.txt)
gives each design at its best concurrency and with no limit (figure best, the
limits chosen, aborts and traffic at the best: `[variant] best =`), the
headline claims and the ablation table (`[explain]`, against the concurrency
block at the same limit); this script prints each design at its best and
with no limit (with geometric means), run time and aborts at every limit for
every design, aborts against input size (contention), where a
transaction's warp-cycles go,
GETM's aborts by cause at every limit, each ablation run beside GETM at the
same limit (the report's [explain] lines give only the blocks' geometric
means) and the L1's load hits. A run that has not finished is `-`.
"""
import json
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC = os.path.join(ROOT, "repro", "getm", "paper.sweep")
GPUCOH = os.environ.get("GPUCOH_BIN", os.path.join(ROOT, "build", "gpucoh"))
BENCH = [("ht", "HT-H"), ("ht:m", "HT-M"), ("ht:l", "HT-L"), ("atm", "ATM"), ("cl-tm", "CL"),
         ("cl-tm:to", "CLto"), ("bh-tm", "BH"), ("cc-tm", "CC"), ("ap", "AP")]
LIMITS = ["1", "2", "4", "8", "16", "0"]
DESIGNS = ["getm", "warptm", "eapg", "warptm-el"]
# paper.sweep's ablation blocks, NAME-ht (HT-H, HT-M, HT-L at 8 warps per core) and
# NAME-atm-cl (ATM and CL at 4), in the sweep's order
ABLATIONS = ["printed", "stall16x16", "precise8x", "precise-all", "cu-free", "vu-port", "nowait",
             "wake-oldest", "backoff0", "backoff128", "backoff512", "relaxed"]
NAMES = {"getm": "GETM", "warptm": "WarpTM", "eapg": "EAPG", "warptm-el": "WarpTM-EL"}


def runs_of_spec():
    """(block, workload, size, config, tx_warps) -> run id, from the spec's --list."""
    out = subprocess.run([GPUCOH, "sweep", SPEC, "--list"], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    runs = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) < 5 or not re.match(r"^[a-z0-9.:-]+-[0-9a-f]{12}$", f[0]):
            continue
        rid, block, wl, size, cfg = f[:5]
        settings = f[-1] if "=" in f[-1] else ""
        tw = re.search(r"getm\.tx_warps=(\d+)", settings)
        runs[(block, wl, size, cfg, tw.group(1) if tw else None)] = rid
    return runs


def load(dirs, rid):
    for d in dirs:
        p = os.path.join(d, "runs", rid + ".json")
        if os.path.exists(p):
            with open(p) as fh:
                j = json.load(fh)
            tot = {}
            for k, v in j["stats"].items():
                if isinstance(v, (int, float)):
                    k = re.sub(r"\[\d+\]", "", k)
                    tot[k] = tot.get(k, 0) + v
            return {"cycles": j["cycles"], "ok": j.get("check_passed"), "s": tot,
                    "bytes": sum(v for k, v in tot.items() if k.startswith("gpu.noc.")
                                 and ".bytes." in k)}
    return None


def gmean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def fmt(x, d=2):
    return "-" if x is None else f"{x:.{d}f}"


def per1k(r):
    s = r["s"]
    c = s.get("gpu.sm.tx.lane_commits", 0)
    return 1000.0 * s.get("gpu.sm.tx.lane_aborts", 0) / c if c else None


def main():
    dirs = sys.argv[1:]
    if not dirs:
        sys.exit("usage: paper-tables.py OUT [OUT...]")
    runs = runs_of_spec()

    def get(block, wl, cfg, tw, size="paper"):
        rid = runs.get((block, wl, size, cfg, tw))
        return load(dirs, rid) if rid else None

    def design(wl, d, tw):
        blk = "concurrency" if d in ("getm", "warptm") else "concurrency-eapg-el"
        return get(blk, wl, d, tw)

    fg = {wl: get("main", wl, "fglock", None) for wl, _ in BENCH}
    wrong = []
    best = {}
    for wl, _ in BENCH:
        for d in DESIGNS:
            got = [(tw, design(wl, d, tw)) for tw in LIMITS]
            got = [(tw, r) for tw, r in got if r]
            wrong += [f"{wl} {d} {tw}" for tw, r in got if not r["ok"]]
            done = len(got) == len(LIMITS)
            if got:
                tw, r = min(got, key=lambda x: x[1]["cycles"])
                best[(wl, d)] = (tw if done else tw + "?", r)

    print("### Each design at its best concurrency and at no limit (run time over FGLock)\n")
    print("Best: the transactional-warp limit (1, 2, 4, 8, 16, 0 = none) with the fewest cycles "
          "(`?`: not every limit has run); the report's figure `best` has the same runs, with "
          "the arithmetic mean. GETM/WarpTM: WarpTM's cycles over GETM's (above 1: GETM "
          "faster); the last row: geometric means.\n")
    print("| benchmark | FGLock cycles | " + " | ".join(
        f"{NAMES[d]} best (limit) | {NAMES[d]} no limit" for d in DESIGNS) +
        " | GETM/WarpTM, each at its best | GETM/WarpTM, no limit |")
    print("|---|---|" + "---|---|" * len(DESIGNS) + "---|---|")
    cols = [[] for _ in range(2 * len(DESIGNS) + 2)]
    for wl, name in BENCH:
        if not fg[wl]:
            continue
        f = fg[wl]["cycles"]
        cells, vals = [], []
        for d in DESIGNS:
            b, z = best.get((wl, d)), design(wl, d, "0")
            vals += [b[1]["cycles"] / f if b else None, z["cycles"] / f if z else None]
            cells += [f"{vals[-2]:.2f} ({b[0]})" if b else "-", fmt(vals[-1])]
        bg, bw = best.get((wl, "getm")), best.get((wl, "warptm"))
        zg, zw = design(wl, "getm", "0"), design(wl, "warptm", "0")
        vals += [bw[1]["cycles"] / bg[1]["cycles"] if bg and bw else None,
                 zw["cycles"] / zg["cycles"] if zg and zw else None]
        cells += [fmt(vals[-2]), fmt(vals[-1])]
        for c, v in zip(cols, vals):
            c.append(v)
        print(f"| {name} | {f:,} | ".replace(",", " ") + " | ".join(cells) + " |")
    print("| geometric mean |  | " + " | ".join(fmt(gmean(c)) for c in cols) + " |")
    print()

    print("### Run time over FGLock at every limit, and aborts per 1000 commits\n")
    print("| benchmark | design | " + " | ".join(f"limit {t}" for t in LIMITS) + " |")
    print("|---|---|" + "---|" * len(LIMITS))
    for wl, name in BENCH:
        for d in DESIGNS:
            rs = [design(wl, d, tw) for tw in LIMITS]
            if not any(rs) or not fg[wl]:
                continue
            print(f"| {name} | {NAMES[d]} | " + " | ".join(
                f"{r['cycles'] / fg[wl]['cycles']:.2f} ({per1k(r):.0f})" if r else "-"
                for r in rs) + " |")
    print()

    print("### Contention: aborts per 1000 commits against input size, 8 warps per core\n")
    print("| benchmark | size | GETM | WarpTM | GETM over FGLock | GETM/WarpTM (speed) |")
    print("|---|---|---|---|---|---|")
    for wl, name in BENCH[:4]:
        for size in ["tiny", "small", "paper"]:
            if size == "paper":
                g, w, f = design(wl, "getm", "8"), design(wl, "warptm", "8"), fg[wl]
            else:
                g = get("contention-" + size, wl, "getm", "8", size)
                w = get("contention-" + size, wl, "warptm", "8", size)
                f = get("contention-" + size, wl, "fglock", "8", size)
            print(f"| {name} | {size} | {fmt(per1k(g), 0) if g else '-'} | "
                  f"{fmt(per1k(w), 0) if w else '-'} | "
                  f"{fmt(g['cycles'] / f['cycles']) if g and f else '-'} | "
                  f"{fmt(w['cycles'] / g['cycles']) if g and w else '-'} |")
    print()

    print("### Where a transaction's warp-cycles go (no limit and each design's best)\n")
    print("Per warp transaction (`tx.begins`): attempts, and warp-cycles executing attempts, "
          "waiting for commit/cleanup acknowledgements and backing off; per attempt: the "
          "backoff. An aborted attempt's cost to its retry is its own cycles plus its acks "
          "(GETM, with commit_waits) and the backoff.\n")
    print("| benchmark | design (limit) | attempts / tx | attempt cycles / tx | ack wait / tx "
          "| backoff / tx | backoff / attempt |")
    print("|---|---|---|---|---|---|---|")
    for wl, name in BENCH:
        for d in ["getm", "warptm"]:
            for tw in sorted({"0", best.get((wl, d), ("0",))[0].rstrip("?")}):
                r = design(wl, d, tw)
                if not r:
                    continue
                s = r["s"]
                b = s.get("gpu.sm.tx.begins", 0) or 1
                a = s.get("gpu.sm.tx.attempts", 0) or 1
                print(f"| {name} | {NAMES[d]} ({tw}) | {s.get('gpu.sm.tx.attempts', 0) / b:.2f} | "
                      f"{s.get('gpu.sm.tx.attempt_cycles', 0) / b:,.0f} | "
                      f"{s.get('gpu.sm.tx.commit_wait_cycles', 0) / b:,.0f} | "
                      f"{s.get('gpu.sm.tx.backoff_cycles', 0) / b:,.0f} | "
                      f"{s.get('gpu.sm.tx.backoff_cycles', 0) / a:,.0f} |".replace(",", " "))
    print("\n### GETM's aborts per 1000 commits by cause, at every limit\n")
    print("`load_late` a load found a later write (`wts` > `warpts`), `store_read`/`store_write` a "
          "store found a later read/write, `stall_full`, `intra` (within a warp); `bloom`: granule "
          "verdicts refused only by Bloom-filter timestamps (per 1K commits), and the precise "
          "table's evictions to the filter (a count).\n")
    print("| benchmark | limit | load_late | store_read | store_write | stall_full | intra | bloom "
          "| evictions |")
    print("|---|---|---|---|---|---|---|---|---|")
    for wl, name in BENCH:
        for tw in LIMITS:
            r = design(wl, "getm", tw)
            if not r:
                continue
            s_ = r["s"]
            c = s_.get("gpu.sm.tx.lane_commits", 0) or 1
            cause = [1000 * s_.get("gpu.sm.tx.abort." + k, 0) / c
                     for k in ["load_late", "store_read", "store_write", "stall_full", "intra"]]
            print(f"| {name} | {tw} | " + " | ".join(f"{x:.0f}" for x in cause) +
                  f" | {1000 * s_.get('gpu.l2.getm.vu_abort.bloom', 0) / c:.0f} | "
                  f"{s_.get('gpu.l2.getm.vu_bloom_evictions', 0):,.0f} |".replace(",", " "))

    print("\n### Ablations, run by run (GETM changed one choice; WarpTM and FGLock unchanged)\n")
    print("Each ablation run beside GETM's run at the same limit (the concurrency block's): its "
          "cycles, over GETM's, WarpTM's cycles at that limit over its own (GETM/WarpTM, above 1: "
          "faster than WarpTM), its own over FGLock's (GETM/FGLock), aborts per 1K commits.\n")
    print("| benchmark (limit) | ablation | cycles | over GETM's | GETM/WarpTM | GETM/FGLock "
          "| aborts / 1K commits |")
    print("|---|---|---|---|---|---|---|")
    for wl, name in BENCH:
        suffix, tw = ("-ht", "8") if wl.startswith("ht") else ("-atm-cl", "4")
        if wl not in ("ht", "ht:m", "ht:l", "atm", "cl-tm"):
            continue
        base, w, f = design(wl, "getm", tw), design(wl, "warptm", tw), fg[wl]
        if not base:
            continue
        for abl in ["getm"] + ABLATIONS:
            r = base if abl == "getm" else get(abl + suffix, wl, "getm", tw)
            if not r:
                print(f"| {name} ({tw}) | {abl} | - | - | - | - | - |")
                continue
            if not r["ok"]:
                wrong.append(f"{wl} {abl} {tw}")
            print(f"| {name} ({tw}) | {abl} | {r['cycles']:,} | {r['cycles'] / base['cycles']:.2f} | "
                  f"{fmt(w['cycles'] / r['cycles']) if w else '-'} | "
                  f"{fmt(r['cycles'] / f['cycles']) if f else '-'} | {fmt(per1k(r), 0)} |"
                  .replace(",", " "))

    print("\n### L1 load hits (every SM), FGLock and the most over the limits of each design\n")
    print("| benchmark | FGLock | " + " | ".join(NAMES[d] for d in DESIGNS) + " |")
    print("|---|---|" + "---|" * len(DESIGNS))
    for wl, name in BENCH:
        hits = [fg[wl]["s"].get("gpu.sm.l1.load_hits", 0) if fg[wl] else None]
        for d in DESIGNS:
            rs = [r for r in (design(wl, d, tw) for tw in LIMITS) if r]
            hits.append(max(r["s"].get("gpu.sm.l1.load_hits", 0) for r in rs) if rs else None)
        print(f"| {name} | " + " | ".join("-" if h is None else f"{h:,.0f}".replace(",", " ")
                                         for h in hits) + " |")
    if wrong:
        print("\nRuns whose final-state check failed: " + ", ".join(wrong))


if __name__ == "__main__":
    main()
