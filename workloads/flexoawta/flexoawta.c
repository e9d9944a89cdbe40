/*
 * flexoawta.c - spec 003's FlexOa/WTa microbenchmark (set spandex): the kernel is
 * flexoawta.cu, the host side workloads/spandex_micro.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/workload.h"
#include "../spandex_micro.h"

extern const char wl_ptx_flexoawta[];

static int flexoawta_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    return spandex_micro_run(h, p, SPXM_FLEXOAWTA, wl_ptx_flexoawta, "workloads/flexoawta/flexoawta.ptx", why, why_len);
}

const struct workload wl_flexoawta = {
    .name = "flex-oa-wta",
    .set = "spandex",
    .desc = "dense atomics on an own partition, sparse atomics on another's (spec 003 §4.3)",
    .ptx = wl_ptx_flexoawta,
    .ptx_file = "workloads/flexoawta/flexoawta.ptx",
    .run = flexoawta_run,
};
