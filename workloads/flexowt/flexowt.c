/*
 * flexowt.c - spec 003's FlexO/WT microbenchmark (set spandex): the kernel is
 * flexowt.cu, the host side workloads/spandex_micro.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/workload.h"
#include "../spandex_micro.h"

extern const char wl_ptx_flexowt[];

static int flexowt_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    return spandex_micro_run(h, p, SPXM_FLEXOWT, wl_ptx_flexowt, "workloads/flexowt/flexowt.ptx", why, why_len);
}

const struct workload wl_flexowt = {
    .name = "flex-o-wt",
    .set = "spandex",
    .desc = "dense own-partition updates, sparse writes to the other side's partitions (spec 003 §4.2)",
    .ptx = wl_ptx_flexowt,
    .ptx_file = "workloads/flexowt/flexowt.ptx",
    .run = flexowt_run,
};
