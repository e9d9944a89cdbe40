/*
 * sweep_result.h - what a sweep's runs measured, read back from their files
 * (sweep_result.c), and results.csv.
 *
 * Only finished runs are read here, so this file and sweep_result.c are left
 * out of the build's fingerprint (tools/source_fingerprint.cmake), as the
 * report engine is: a new or corrected derived figure re-renders stored runs
 * instead of rerunning them. Nothing a run computes may depend on them.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SWEEP_SWEEP_RESULT_H
#define SWEEP_SWEEP_RESULT_H

#include "sweep/sweep.h"

enum sweep_check { SWEEP_CHECK_NONE, SWEEP_CHECK_OK, SWEEP_CHECK_WRONG };
extern const char *const sweep_check_names[3];

struct sweep_result {
    bool finished;   /* it ran (now or before) */
    int exit_status; /* child's exit status; 128+N for signal N */
    bool has_stats;  /* its JSON was read */
    enum sweep_check check;
    double cycles, thread_insts, warp_insts, l1_hit_rate, l2_hit_rate, wall_seconds;
    double bytes[TRAFFIC_N]; /* interconnect bytes per traffic class */
    double bytes_total;
    double flits_total; /* the same traffic in flits (header and payload rounded up per message) */
    double lease_avg;   /* mean over L2 banks of gpu.l2[b].lease_avg; < 0 without */
    double fence_wait;  /* sum over SMs of gpu.sm[s].l1.fence_wait_cycles (warp-cycles) */
    /* TC's lease predictor, summed over L2 banks: reads of an expired L1 copy
     * plus reads of an expired line (+t_hit each), writes to an unexpired line
     * (-t_write), evictions of an unexpired line (-t_evict) */
    double lease_ups, lease_down_writes, lease_down_evicts;
    /* spatiotemporal coherence (0 under other protocols): epoch transitions
     * (gpu.emu.transitions), bytes on the EMU's links (gpu.emu.bytes), the
     * mean blocked-store-queue entries per CU over the run's cycles and the
     * largest any CU held */
    double epoch_changes, emu_bytes, bsq_mean, bsq_max;
    /* where STC's stores wait: mean cycles a blocked store or atomic spends in
     * the BSQ (entry-cycles over entries), the share of stores and atomics
     * blocked, the share of a CU's cycles its stores are held by epoch
     * changes (handshake), the mean cycles of a transition
     * (gpu.emu.transition_cycles / transitions) and the kernels launched */
    double bsq_wait, blocked_frac, hold_frac, transition_mean, kernels;
    /* the memory model's issue stalls (spec 004a Fig. 3.9), summed over SMs:
     * warp-cycles held for ordering (hold_cycles.order + .cta) and their mean
     * length per hold (0 without holds) */
    double sc_hold_cycles, sc_hold_mean;
    /* holds begun (holds.order + .cta) per memory request sent (loads, stores
     * and atomics, lines): how often an access was held (Fig. 3.1a) */
    double sc_held_frac;
    /* global warp memory instructions (loads, stores, atomics) held by the
     * issue rule (holds.order) per global warp memory instruction: the same
     * unit above and below the line (shared accesses and barriers held for
     * global ones are left out); NaN where the run's statistics lack
     * mem_insts */
    double sc_held_insts;
    /* the same per thread operation: active lanes of the global accesses held by the issue rule
     * (order_held_lanes) per active lane of global warp loads, stores and atomics (mem_lanes);
     * NaN where the run's statistics lack them */
    double sc_held_lanes;
    /* the share of the order holds' warp-cycles (hold_cycles.order) spent waiting while a store
     * or atomic of the warp was outstanding (order_hold_cycles_on_write; Fig. 3.1b): 0 without
     * order holds, NaN where the run's statistics lack the counter */
    double sc_hold_on_write;
    /* mean load and store latency in core cycles (LSU to response, over all
     * SMs; Fig. 3.1c) and their ratio (0 without loads or stores) */
    double load_latency, store_latency, store_load_ratio;
    /* loads that found their L1 copy's lease ended (RCC's renewals_asked,
     * summed over SMs; Fig. 3.7's predictor panel) */
    double expired_loads;
    /* multi-GPM machines (docs/multi-gpu.md; 0 on one GPM): bytes on the
     * links between GPUs and between the GPMs of a GPU, all classes; the
     * invalidation class's bytes on both; L2 lines dropped by invalidations
     * (a directory's, or sw-nh/sw-h's bulk ones) and directory entries
     * evicted, summed over banks; the stores and atomics the L1s sent (and
     * the .cta atomics they performed, each a write-through), and lines
     * invalidated per one of them (Fig. 5.10); the lines invalidations caused
     * by directory evictions dropped, and those per eviction (Fig. 5.11) */
    double gpu_link_bytes, gpm_link_bytes, link_inv_bytes;
    double lines_invalidated, dir_evictions, l1_writes, invs_per_store;
    double evict_lines_invalidated, invs_per_dir_evict;
    /* transactions (protocol getm; 0 elsewhere), summed over SMs: thread
     * transactions committed and aborted (tx.lane_commits, tx.lane_aborts),
     * aborts per 1000 commits, warp-cycles in transactions (attempts, commit
     * waits and backoff: tx.attempt_cycles + commit_wait_cycles +
     * backoff_cycles) and those per warp transaction (tx.begins) */
    double tx_commits, tx_aborts, tx_aborts_per_1k, tx_cycles, tx_cycles_per_tx;
    /* aborted thread transactions by cause (tx.abort.<cause> over SMs, in
     * sm_tx_abort_names' order; they sum to tx_aborts), and the validation
     * units' granule aborts refused only by Bloom-filter timestamps
     * (getm.vu_abort.bloom over banks) */
    double tx_abort[SM_TX_ABORT_N], tx_abort_bloom;
    double tx_exec_cycles, tx_wait_cycles; /* tx_cycles split: attempts; commit waits, backoff */
    /* GETM's validation units (0 elsewhere): metadata-table cycles per granule
     * access (getm.vu_table_cycles over getm.vu_accesses, banks summed; Fig.
     * 4.13); each bank's most stall-buffer waiters at once, summed over banks
     * (getm.vu_stall_max: at least the GPU-wide most at once, Fig. 4.15); and
     * per use of a stall-buffer line, the most requests it held at once
     * (getm.vu_stall_line_peaks over getm.vu_stall_line_uses; Fig. 4.16) */
    double vu_cycles_per_access, vu_stall_max, vu_stall_per_line;
    double frame[SFR_N_STATS]; /* frames: sfr_stat_names' statistics; cycles is the frame's */
    char why[256];             /* failed: the last line of its stderr */
};

/* Read what is known about one run from out_dir/runs/. */
void sweep_result_load(const char *out_dir, const struct sweep_run *r, struct sweep_result *res);

/* Write out_dir/results.csv, one row per distinct run in spec order. Returns
 * 0 or -1 (message printed). */
int sweep_write_csv(const char *out_dir, const struct sweep_spec *s);

#endif
