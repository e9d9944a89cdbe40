/*
 * mg_options.h - the options of the multi-GPM coherence directories: nhcc, hmg: section [mg] of
 * the machine's configuration (its rows and checks in mg_options.c; coh/options.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_MG_MG_OPTIONS_H
#define COH_MG_MG_OPTIONS_H

#include "coh/options.h"

/* The multi-GPM coherence directories (spec 004b §2.3: nhcc, hmg). */
struct mg_spec {
    uint32_t dir_entries; /* directory entries per GPM (all banks together) */
    uint32_t dir_ways;    /* directory associativity */
    uint32_t dir_lines;   /* consecutive lines one entry covers (its region) */
    uint32_t release;     /* 0 levels: markers in levels (safe); 1 thesis: one round
                             (unsafe); 2 counted (default): one round, acknowledged
                             invalidations */
    uint32_t gpu_atomics; /* hmg: 0 system: every atomic at the system home; 1 gpu-home:
                             .gpu/.cta atomics at the GPU home */
};

extern const struct coh_options mg_options;

/* The [mg] section of the machine's configuration. */
static inline const struct mg_spec *mg_spec_of(const struct machine_view *m)
{
    return machine_section(m, &mg_options);
}

#endif
