/*
 * rcc_options.h - the options of Relativistic Cache Coherence: rccsc, rccwo: section [rcc] of
 * the machine's configuration (its rows and checks in rcc_options.c; coh/options.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_RCC_RCC_OPTIONS_H
#define COH_RCC_RCC_OPTIONS_H

#include "coh/options.h"

/* rcc.lease: one of these words (coh_lease_parse) or fixed:N, N from 1 to RCC_LEASE_MAX. */
extern const char *const rcc_lease_words[]; /* "predict" */
#define RCC_LEASE_MAX (1u << 20)

/* Relativistic Cache Coherence (spec 004a §3; docs/protocols/rccsc.md). */
struct rcc_spec {
    char lease[CFG_STR_MAX];  /* "predict" or "fixed:N" (logical time units) */
    uint32_t lease_min;       /* predictor: the lease after a write */
    uint32_t lease_max;       /* predictor: the lease of a new block */
    uint32_t ts_bits;         /* stored timestamp width: a component rolls over past it */
    uint32_t ring_hop_cycles; /* rollover: L2 cycles the stall ring's flit takes a hop */
    uint32_t livelock_cycles; /* every SM's now += 1 this often (0: never) */
    uint32_t refill_version;  /* 0 safe (spec 004a §9 item 1: mnow + 1), 1 paper (mnow) */
    bool renew;               /* a GETS for an expired copy the L2 has not rewritten: RENEW */
    uint32_t strong_loads;    /* 0 l2: strong gpu-scope loads performed at the L2; 1 l1: cached */
};

extern const struct coh_options rcc_options;

/* The [rcc] section of the machine's configuration. */
static inline const struct rcc_spec *rcc_spec_of(const struct machine_view *m)
{
    return machine_section(m, &rcc_options);
}

#endif
