/*
 * prodcons.c - spec 003's Prod-Cons microbenchmark (set spandex): the kernel is
 * prodcons.cu, the host side workloads/spandex_micro.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/workload.h"
#include "../spandex_micro.h"

extern const char wl_ptx_prodcons[];

static int prodcons_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    return spandex_micro_run(h, p, SPXM_PRODCONS, wl_ptx_prodcons, "workloads/prodcons/prodcons.ptx", why, why_len);
}

const struct workload wl_prodcons = {
    .name = "prod-cons",
    .set = "spandex",
    .desc = "CPU-role CTAs turn A into B, GPU-role CTAs B into A, same partitions (spec 003 §4.4)",
    .ptx = wl_ptx_prodcons,
    .ptx_file = "workloads/prodcons/prodcons.ptx",
    .run = prodcons_run,
};
