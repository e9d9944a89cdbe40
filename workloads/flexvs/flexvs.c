/*
 * flexvs.c - spec 003's FlexV/S microbenchmark (set spandex): the kernel is
 * flexvs.cu, the host side workloads/spandex_micro.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/workload.h"
#include "../spandex_micro.h"

extern const char wl_ptx_flexvs[];

static int flexvs_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    return spandex_micro_run(h, p, SPXM_FLEXVS, wl_ptx_flexvs, "workloads/flexvs/flexvs.ptx", why, why_len);
}

const struct workload wl_flexvs = {
    .name = "flex-vs",
    .set = "spandex",
    .desc = "CPU-role CTAs read shared A and streamed B, GPU-role CTAs write A sparsely and own B (spec 003 §4.1)",
    .ptx = wl_ptx_flexvs,
    .ptx_file = "workloads/flexvs/flexvs.ptx",
    .run = flexvs_run,
};
