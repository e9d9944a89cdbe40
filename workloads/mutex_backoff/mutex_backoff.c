/*
 * mutex_backoff.c - host driver of the mutex-backoff workload (sync set): an
 * atomicCAS spin mutex with exponential backoff (a spin delay loop of 8
 * iterations after the first failure, doubling up to 1024, HeteroSync's
 * MAX_BACKOFF) and __threadfence() on both sides, contended by thread 0 of
 * every CTA: HeteroSync's spinMutexEBO. The delay loop's result lands in a
 * per-CTA sink word that is not checked. Sizes and check: mutex_common.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "mutex_spin/mutex_common.h"

extern const char wl_ptx_mutex_backoff[];

#define BACKOFF_MIN 8u
#define BACKOFF_MAX 1024u

static int mutex_backoff_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    host_load_ptx(h, wl_ptx_mutex_backoff, "workloads/mutex_backoff/mutex_backoff.ptx");
    struct mutex_bufs b;
    mutex_setup(h, p->size, &b);
    addr_t sink = host_malloc(h, b.ctas * sizeof(uint32_t));
    host_memset(h, sink, 0, b.ctas * sizeof(uint32_t));
    struct karg args[] = {KARG_PTR(b.lock),  KARG_PTR(b.total),     KARG_PTR(b.percta),
                          KARG_PTR(b.order), KARG_PTR(b.errs),      KARG_PTR(sink),
                          KARG_I32(b.iters), KARG_U32(BACKOFF_MIN), KARG_U32(BACKOFF_MAX)};
    host_launch(h, "mutex_backoff", DIM1(b.ctas), DIM1(MUTEX_THREADS), 0, args, ARRAY_LEN(args));
    host_free(h, sink);
    return mutex_finish(h, &b, why, why_len);
}

const struct workload wl_mutex_backoff = {
    .name = "mutex-backoff",
    .set = "sync",
    .desc = "atomicCAS spin mutex with exponential backoff and __threadfence "
            "(HeteroSync spinMutexEBO)",
    .ptx = wl_ptx_mutex_backoff,
    .ptx_file = "workloads/mutex_backoff/mutex_backoff.ptx",
    .run = mutex_backoff_run,
};
