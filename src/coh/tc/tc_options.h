/*
 * tc_options.h - the options of Temporal Coherence: tcs, tcw: section [tc] of the machine's
 * configuration (its rows and checks in tc_options.c; coh/options.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_TC_TC_OPTIONS_H
#define COH_TC_TC_OPTIONS_H

#include "coh/options.h"

/* tc.lease: one of these words (coh_lease_parse) or fixed:N, N at most TC_LEASE_MAX. */
extern const char *const tc_lease_words[]; /* "auto", "predict" */
#define TC_LEASE_MAX (1u << 24)

/* Temporal Coherence (spec 002 §3.7-3.11): leases, the lease predictor, TC-Strong's
 * write stall and the safety fixes of spec 002 §8. Times in core cycles. */
struct tc_spec {
    char lease[CFG_STR_MAX]; /* "auto", "predict" or "fixed:N" */
    uint32_t lease_init;     /* predictor: first lease of every bank */
    uint32_t lease_min;      /* predictor clamps */
    uint32_t lease_max;
    uint32_t t_hit; /* predictor steps (Table 4: 4, 8, 8) */
    uint32_t t_evict;
    uint32_t t_write;
    uint32_t t_write_when;     /* 0 fences, 1 always, 2 never */
    uint32_t stall_scope;      /* TC-Strong: 0 bank, 1 line */
    uint32_t private_rule;     /* 0 safe (spec 002 §8 item 4), 1 paper */
    uint32_t retained;         /* 0 safe (spec 002 §8 item 5), 1 paper */
    uint32_t ts_bits;          /* stored timestamp width: L1s flash-invalidate at wrap */
    bool end_wait;             /* tcw: a kernel end waits for the SM's largest GWCT */
    bool sc_fence_invalidates; /* tcw: fence.sc self-invalidates the L1 (PTX); false = paper */
    uint32_t fence_gwct;   /* tcw: a .gpu fence waits for 0 the SM's largest GWCT, 1 its warp's */
    bool load_gwct;        /* tcw: loads carry their data's GWCT (causality); false = paper */
    uint32_t strong_loads; /* 0 l1: strong gpu-scope loads hit leased copies; 1 l2: at the L2 */
};

extern const struct coh_options tc_options;

/* The [tc] section of the machine's configuration. */
static inline const struct tc_spec *tc_spec_of(const struct machine_view *m)
{
    return machine_section(m, &tc_options);
}

#endif
