/*
 * rcc_options.c - the option rows and cross-checks of section [rcc] (Relativistic Cache
 * Coherence: rccsc, rccwo).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/rcc/rcc_options.h"

#include <stdio.h>

#include "base/bits.h"
#include "coh/machine_view.h"

/* Relativistic Cache Coherence (spec 004a §3, §9). */
static const char *const rcc_rules[] = {"safe", "paper", NULL};
static const char *const rcc_strong_loads[] = {"l2", "l1", NULL};
#define T struct rcc_spec
static const struct cfg_opt rcc_opts[] = {
    CFG_STR("lease", T, lease, "predict",
            "rccsc/rccwo: predict (per-block predictor, lease_max after a refill, lease_min "
            "after a write, doubled at each renewal) or fixed:N (N logical time units)"),
    CFG_U32("lease_min", T, lease_min, "8", 1, 1u << 20, "logical time",
            "predictor: the lease of a block after a write (a power of two)"),
    CFG_U32("lease_max", T, lease_max, "2048", 1, 1u << 20, "logical time",
            "predictor: the lease of a block fetched from DRAM, and the cap of doubling "
            "(a power of two)"),
    CFG_U32("ts_bits", T, ts_bits, "32", 12, 64, "bits",
            "stored timestamp width: a bank whose timestamps would pass it rolls over to the "
            "next epoch (every stored timestamp jumps to its base) and stops every bank with "
            "the stall ring while every L1 flushes (an L1 whose guard passes it flushes alone)"),
    CFG_U32("ring_hop_cycles", T, ring_hop_cycles, "1", 1, 1000, "L2 cycles",
            "rollover: cycles the stall ring's flit takes from one bank to the next (the ring "
            "links the banks in order; the thesis gives no latency)"),
    CFG_U32("livelock_cycles", T, livelock_cycles, "10000", 0, 1u << 30, "core cycles",
            "every SM's logical clock advances by one this often, so a spin loop hitting in "
            "its L1 eventually sees a release (0: never)"),
    CFG_ENUM("refill_version", T, refill_version, "safe", rcc_rules,
             "write version of a block refilled from DRAM: safe max(lastwr, mnow + 1) (spec "
             "004a §9 item 1) or paper max(lastwr, mnow), which can break MP after an eviction"),
    CFG_BOOL("renew", T, renew, "true",
             "a GETS for an expired L1 copy whose block was not written since gets a RENEW "
             "(new lease, no data) instead of the data"),
    CFG_ENUM("strong_loads", T, strong_loads, "l2", rcc_strong_loads,
             "loads of gpu scope or wider that are not weak (ld.relaxed/acquire/volatile: the "
             "flags spin loops read): l2 performs them at the L2 without using or keeping the "
             "SM's copy, as the modelled Fermi serves volatile loads; l1 lets them hit the copy "
             "like any load, so a spin loop waits for the livelock guard"),
    CFG_END,
};
#undef T

const char *const rcc_lease_words[] = {"predict", NULL};

static const char *rcc_check(const struct machine_view *c, char *why, size_t len)
{
    const struct rcc_spec *r = rcc_spec_of(c);
    uint32_t n;
    if (coh_lease_parse(r->lease, rcc_lease_words, 1, RCC_LEASE_MAX, &n) < 0) {
        snprintf(why, len, "rcc.lease: '%s' is not predict or fixed:N (N from 1 to %u)", r->lease,
                 RCC_LEASE_MAX);
        return "rcc.lease";
    }
    if (!is_pow2(r->lease_min) || !is_pow2(r->lease_max) || r->lease_min > r->lease_max) {
        snprintf(why, len,
                 "rcc.lease_min (%u) and rcc.lease_max (%u) must be powers of two, "
                 "min <= max",
                 r->lease_min, r->lease_max);
        return "rcc.lease_min rcc.lease_max";
    }
    return NULL;
}

const struct coh_options rcc_options = {"rcc", rcc_opts, rcc_check, sizeof(struct rcc_spec)};
