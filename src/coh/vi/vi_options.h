/*
 * vi_options.h - the options of GPU-VIni's sparse directory: section [vi] of the machine's
 * configuration (its rows and checks in vi_options.c; coh/options.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_VI_VI_OPTIONS_H
#define COH_VI_VI_OPTIONS_H

#include "coh/options.h"

struct vi_spec {
    uint32_t dir_ratio; /* GPU-VIni: directory entries per L1 line of the machine */
    uint32_t dir_ways;  /* GPU-VIni: directory associativity */
};

extern const struct coh_options vi_options;

/* The [vi] section of the machine's configuration. */
static inline const struct vi_spec *vi_spec_of(const struct machine_view *m)
{
    return machine_section(m, &vi_options);
}

#endif
