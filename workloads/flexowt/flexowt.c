/*
 * flexowt.c - spec 003's FlexO/WT microbenchmark (set spandex): the kernel is
 * flexowt.cu, the host side workloads/spandex_micro.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/workload.h"
#include "../spandex_micro.h"

SPANDEX_MICRO_WORKLOAD(
    flexowt, "flex-o-wt", SPXM_FLEXOWT,
    "dense own-partition updates, sparse writes to the other side's partitions (spec 003 §4.2)",
    NULL);
