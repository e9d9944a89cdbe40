/*
 * vi_options.c - the option rows and cross-checks of section [vi] (GPU-VIni's sparse directory).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/vi/vi_options.h"

/* GPU-VIni's sparse directory (spec 002 §3.5, §8.5: 2x-8w by default, swept up
 * to 16x-32w). */
#define T struct vi_spec
static const struct cfg_opt vi_opts[] = {
    CFG_U32("dir_ratio", T, dir_ratio, "2", 1, 1024, "",
            "gpuvini: directory entries per L1 line of the machine (R), spread over the banks"),
    CFG_U32("dir_ways", T, dir_ways, "8", 1, 1024, "", "gpuvini: directory associativity"),
    CFG_END,
};
#undef T

const struct coh_options vi_options = {"vi", vi_opts, NULL, sizeof(struct vi_spec)};
