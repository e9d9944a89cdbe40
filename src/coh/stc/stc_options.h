/*
 * stc_options.h - the options of spatiotemporal coherence: stc-nv, stc-es, stc-ab, stc-mb:
 * section [stc] of the machine's configuration (its rows and checks in stc_options.c;
 * coh/options.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_STC_STC_OPTIONS_H
#define COH_STC_STC_OPTIONS_H

#include "coh/options.h"

/* Spatiotemporal coherence (spec 000 §2-3): bands, epochs, the EMU and the
 * blocked store queue. Times in core cycles unless named otherwise. */
struct stc_spec {
    uint32_t epochs;           /* bands = epochs, a power of two (N = log2) */
    uint32_t seb;              /* start epoch bit: the band is addr bits [seb, seb + N) */
    uint32_t seb_min, seb_max; /* adaptive bands: SEB moves within [seb_min, seb_max] */
    uint32_t addr_bits;        /* physical address width (the AB drift clamp) */
    uint32_t period_cycles;    /* EMU wake-up period */
    double emu_mhz;            /* EMU clock */
    uint32_t emu_msg_cycles;   /* EMU cycles to take (or send) one message */
    uint32_t link_cycles;      /* one EMU <-> CU message hop */
    uint32_t bsq_entries;      /* blocked store queue per CU */
    uint32_t bsq_banks;        /* BSQ banks ... */
    uint32_t bsq_drains;       /* ... each draining this many entries a cycle */
    uint32_t mb_width;         /* multi-band: most bands granted at once */
    uint32_t epoch_start;      /* 0 safe (EpochStart after every DoneAck), 1 paper */
    uint32_t straddle;         /* 0 safe (flip in-flight fills of a new band), 1 paper */
    uint32_t ab_rule;          /* 0 safe (same-line conflicts ignored, SEB clamped), 1 paper */
};

extern const struct coh_options stc_options;

/* The [stc] section of the machine's configuration. */
static inline const struct stc_spec *stc_spec_of(const struct machine_view *m)
{
    return machine_section(m, &stc_options);
}

#endif
