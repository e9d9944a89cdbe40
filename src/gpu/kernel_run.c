/*
 * kernel_run.c - the GPU's work distributor (see kernel_run.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/kernel_run.h"

#include <string.h>

#include "base/log.h"

void kernel_run_init(struct kernel_run *run, const struct launch *l, uint32_t n_sms)
{
    const struct ptx_kernel_info *ki = ptx_kernel_info(l->kernel);
    uint64_t n = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    uint64_t t = (uint64_t)l->block.x * l->block.y * l->block.z;
    if (n == 0 || n > UINT32_MAX)
        fatal("kernel %s: grid (%u,%u,%u) has %llu CTAs", ki->name, l->grid.x, l->grid.y, l->grid.z,
              (unsigned long long)n);
    if (t == 0)
        fatal("kernel %s: empty block (%u,%u,%u)", ki->name, l->block.x, l->block.y, l->block.z);
    if (n_sms == 0)
        panic("kernel %s: a GPU with no SMs", ki->name);
    memset(run, 0, sizeof *run);
    run->launch = *l;
    run->n_ctas = (uint32_t)n;
    run->n_sms = n_sms;
}

void kernel_run_share(struct kernel_run *run, unsigned part, unsigned parts)
{
    uint64_t n = run->n_ctas;
    uint32_t first = (uint32_t)(n * part / parts), end = (uint32_t)(n * (part + 1) / parts);
    run->cta_base = first;
    run->n_ctas = end - first;
}
