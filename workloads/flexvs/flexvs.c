/*
 * flexvs.c - spec 003's FlexV/S microbenchmark (set spandex): the kernel is
 * flexvs.cu, the host side workloads/spandex_micro.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/workload.h"
#include "../spandex_micro.h"

/* prop: spec 003 §4.1's proposed proportions of A and B (spandex_micro.c) */
static const char *const flexvs_variants[] = {"prop", NULL};

SPANDEX_MICRO_WORKLOAD(flexvs, "flex-vs", SPXM_FLEXVS,
                       "CPU threads read shared A and streamed B, GPU CTAs write A sparsely and "
                       "own B (spec 003 §4.1)",
                       flexvs_variants);
