/*
 * flexoawta.c - spec 003's FlexOa/WTa microbenchmark (set spandex): the kernel is
 * flexoawta.cu, the host side workloads/spandex_micro.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/workload.h"
#include "../spandex_micro.h"

SPANDEX_MICRO_WORKLOAD(
    flexoawta, "flex-oa-wta", SPXM_FLEXOAWTA,
    "dense atomics on an own partition, sparse atomics on another's (spec 003 §4.3)", NULL);
