/*
 * tc_options.c - the option rows and cross-checks of section [tc] (Temporal Coherence: tcs,
 * tcw).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/tc/tc_options.h"

#include <stdio.h>

#include "coh/machine_view.h"

/* Temporal Coherence (spec 002 §3.7-3.11, §8). */
static const char *const tc_write_when[] = {"fences", "always", "never", NULL};
static const char *const tc_scopes[] = {"bank", "line", NULL};
static const char *const tc_rules[] = {"safe", "paper", NULL};
static const char *const tc_fence_gwcts[] = {"sm", "warp", NULL};
static const char *const tc_strong_loads[] = {"l1", "l2", NULL};
#define T struct tc_spec
static const struct cfg_opt tc_opts[] = {
    CFG_STR("lease", T, lease, "auto",
            "tcs/tcw: fixed:N (N core cycles) or predict (per-bank predictor); auto = "
            "tcs fixed:800, tcw predict"),
    CFG_U32("lease_init", T, lease_init, "800", 0, 1u << 24, "core cycles",
            "predictor: initial lease of every bank"),
    CFG_U32("lease_min", T, lease_min, "0", 0, 1u << 24, "core cycles", "predictor: lower clamp"),
    CFG_U32("lease_max", T, lease_max, "16384", 0, 1u << 24, "core cycles",
            "predictor: upper clamp"),
    CFG_U32("t_hit", T, t_hit, "4", 0, 1u << 20, "core cycles",
            "predictor: + on a load to an expired line (L1 or L2)"),
    CFG_U32("t_evict", T, t_evict, "8", 0, 1u << 20, "core cycles",
            "predictor: - on evicting an unexpired L2 line"),
    CFG_U32("t_write", T, t_write, "8", 0, 1u << 20, "core cycles",
            "predictor: - on a write to an unexpired L2 line"),
    CFG_ENUM("t_write_when", T, t_write_when, "fences", tc_write_when,
             "predictor: apply t_write only for writers whose SM fenced this kernel, always, "
             "or never"),
    CFG_ENUM("stall_scope", T, stall_scope, "bank", tc_scopes,
             "tcs: a write waiting for leases to expire blocks its bank (paper) or only its line"),
    CFG_ENUM("private_rule", T, private_rule, "safe", tc_rules,
             "private-write test: safe (owner bit, DATA-G lease = GWCT) or paper (TS match only)"),
    CFG_ENUM("retained", T, retained, "safe", tc_rules,
             "tcw: a fill of an evicted line with an unexpired timestamp keeps it (safe) or "
             "forgets it (paper: MI + request -> IS/IM -> P/E)"),
    CFG_U32("ts_bits", T, ts_bits, "32", 8, 64, "bits",
            "stored timestamp width; the L1s flash-invalidate when the counter wraps"),
    CFG_BOOL("end_wait", T, end_wait, "true",
             "tcw: a kernel end waits for the SM's largest GWCT (launches flash-invalidate "
             "either way, which alone keeps kernels coherent on one GPU)"),
    CFG_BOOL("sc_fence_invalidates", T, sc_fence_invalidates, "true",
             "tcw: a fence.sc at .gpu/.sys scope also self-invalidates the L1, so readers that "
             "fence agree on the order of writes (PTX fence.sc; false = the paper's RCpc TC-Weak, "
             "where IRIW with fences is observable)"),
    CFG_ENUM("fence_gwct", T, fence_gwct, "sm", tc_fence_gwcts,
             "tcw: a .gpu/.sys fence or release waits for the largest GWCT of its SM (sm: "
             "cumulative, releases writes the warp saw through .cta synchronisation) or only of "
             "its own warp (warp: the paper's design)"),
    CFG_BOOL("load_gwct", T, load_gwct, "true",
             "tcw: a load's data carries the GWCT of the write that made it (the time every "
             "older copy has expired), and the loading SM's later .gpu/.sys fences and releases "
             "wait for it; a load of another warp's write still in flight reads the L2 for it. "
             "So a release is cumulative over the writes it acquired (PTX causality, WRC); "
             "false = the paper's TC-Weak, where releases wait only for the SM's own writes"),
    CFG_ENUM("strong_loads", T, strong_loads, "l1", tc_strong_loads,
             "tcs/tcw: loads of gpu scope or wider that are not weak (ld.relaxed/acquire.gpu, "
             "ld.volatile: the flags spin loops read): l1 serves them from a leased copy like any "
             "load (the paper's L1, Table 2: a coherent copy is valid until its lease ends); l2 "
             "performs them at the L2, which grants no lease for them, and drops the SM's copy"),
    CFG_END,
};
#undef T

const char *const tc_lease_words[] = {"auto", "predict", NULL};

static const char *tc_check(const struct machine_view *c, char *why, size_t len)
{
    const struct tc_spec *tc = tc_spec_of(c);
    if (tc->lease_min > tc->lease_max) {
        snprintf(why, len, "tc.lease_min (%u) exceeds tc.lease_max (%u)", tc->lease_min,
                 tc->lease_max);
        return "tc.lease_min tc.lease_max";
    }
    uint32_t n;
    if (coh_lease_parse(tc->lease, tc_lease_words, 0, TC_LEASE_MAX, &n) < 0) {
        snprintf(why, len,
                 "tc.lease: '%s' is not auto, predict or fixed:N (N core cycles, "
                 "at most %u)",
                 tc->lease, TC_LEASE_MAX);
        return "tc.lease";
    }
    return NULL;
}

const struct coh_options tc_options = {"tc", tc_opts, tc_check, sizeof(struct tc_spec)};
