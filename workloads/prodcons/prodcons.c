/*
 * prodcons.c - spec 003's Prod-Cons microbenchmark (set spandex): the kernel is
 * prodcons.cu, the host side workloads/spandex_micro.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/workload.h"
#include "../spandex_micro.h"

SPANDEX_MICRO_WORKLOAD(
    prodcons, "prod-cons", SPXM_PRODCONS,
    "CPU threads turn A into B, GPU CTAs B into A, same partitions (spec 003 §4.4)", NULL);
