/*
 * spinlock.c - host driver of the spinlock workload (basic set): every
 * thread of every CTA takes an atomicCAS spin lock `iters` times and, inside
 * it, increments a shared counter with a plain load and store and logs its
 * id at owners[old counter value].
 *
 * The classic CUDA-by-Example style global lock with __threadfence() on
 * both sides of the critical section (invented sizes). All threads contend,
 * also within a warp; the kernel is written so that this cannot livelock a
 * SIMT stack. Check: counter == threads * iters, and every thread id appears
 * exactly iters times in owners (a stale read makes two acquisitions share
 * a slot and loses an increment).
 * Sizes (CTAs x threads x iters): tiny 4 x 32 x 1, small 16 x 64 x 2,
 * paper 64 x 256 x 1 (no paper: documented choice).
 *
 * Variant `sys`: the same lock at system scope (atom.sys, membar.sys). The
 * default lock is .gpu-scoped, which is all a kernel on one GPU needs; on a
 * machine of several GPUs its CTAs span them, and PTX's scoped model then
 * lets a CTA on another GPU read a stale counter inside the lock (a protocol
 * that keeps only scoped coherence, such as sw-h, shows it: docs/multi-gpu.md).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "host/workload.h"

extern const char wl_ptx_spinlock[];

static int spinlock_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t ctas_by_size[WL_NSIZES] = {4, 16, 16, 64};
    static const uint32_t threads_by_size[WL_NSIZES] = {32, 64, 64, 256};
    static const uint32_t iters_by_size[WL_NSIZES] = {1, 2, 2, 1};
    bool sys = p->variant && !strcmp(p->variant, "sys");
    if (p->variant && !sys) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t ctas = ctas_by_size[p->size], threads = threads_by_size[p->size];
    uint32_t iters = iters_by_size[p->size];
    uint32_t nthreads = ctas * threads, total = nthreads * iters;
    uint32_t *owners = malloc(total * sizeof *owners), *seen = calloc(nthreads, sizeof *seen);
    panic_if(!owners || !seen, "out of memory");

    host_load_ptx(h, wl_ptx_spinlock, "workloads/spinlock/spinlock.ptx");
    addr_t dlock = host_malloc(h, 128), dcounter = host_malloc(h, 128);
    addr_t downers = host_malloc(h, total * sizeof(uint32_t));
    host_memset(h, dlock, 0, 128);
    host_memset(h, dcounter, 0, 128);
    host_memset(h, downers, 0xff, total * sizeof(uint32_t));
    struct karg args[] = {KARG_PTR(dlock), KARG_PTR(dcounter), KARG_PTR(downers), KARG_I32(iters)};
    host_launch(h, sys ? "spinlock_sys" : "spinlock", DIM1(ctas), DIM1(threads), 0, args,
                ARRAY_LEN(args));
    uint32_t counter, lock;
    host_memcpy_from_dev(h, &counter, dcounter, sizeof counter);
    host_memcpy_from_dev(h, &lock, dlock, sizeof lock);
    host_memcpy_from_dev(h, owners, downers, total * sizeof(uint32_t));

    int rc = 0;
    if (counter != total) {
        snprintf(why, why_len, "counter: expected %u acquisitions, got %u", total, counter);
        rc = 1;
    } else if (lock != 0) {
        snprintf(why, why_len, "lock word: expected 0 (free) at the end, got %u", lock);
        rc = 1;
    }
    for (uint32_t i = 0; i < total && rc == 0; i++) {
        if (owners[i] >= nthreads) {
            snprintf(why, why_len, "owners[%u]: expected a thread id < %u, got 0x%08x", i, nthreads,
                     owners[i]);
            rc = 1;
        } else if (++seen[owners[i]] > iters) {
            snprintf(why, why_len, "thread %u holds more than %u slots of owners (slot %u)",
                     owners[i], iters, i);
            rc = 1;
        }
    }
    host_free(h, dlock);
    host_free(h, dcounter);
    host_free(h, downers);
    free(owners);
    free(seen);
    return rc;
}

const struct workload wl_spinlock = {
    .name = "spinlock",
    .set = "basic",
    .desc = "atomicCAS spin lock with __threadfence around a plain shared counter, "
            "all threads contending (variant sys: system scope)",
    .ptx = wl_ptx_spinlock,
    .ptx_file = "workloads/spinlock/spinlock.ptx",
    .run = spinlock_run,
    .variants = (const char *const[]){"sys", NULL},
};
