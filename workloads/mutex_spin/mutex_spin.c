/*
 * mutex_spin.c - host driver of the mutex-spin workload (sync set): a
 * test-and-set spin mutex (exchange(acquire) / store(release), device
 * scope) contended by thread 0 of every CTA, HeteroSync's spinMutex.
 * Variant "ttas": test-and-test-and-set, spinning on a relaxed load before
 * each exchange. Sizes and check: mutex_common.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>

#include "mutex_spin/mutex_common.h"

extern const char wl_ptx_mutex_spin[];

static int mutex_spin_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    const char *kernel;
    if (!p->variant)
        kernel = "mutex_spin";
    else if (strcmp(p->variant, "ttas") == 0)
        kernel = "mutex_spin_ttas";
    else {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    host_load_ptx(h, wl_ptx_mutex_spin, "workloads/mutex_spin/mutex_spin.ptx");
    struct mutex_bufs b;
    mutex_setup(h, p->size, &b);
    struct karg args[] = {KARG_PTR(b.lock),  KARG_PTR(b.total), KARG_PTR(b.percta),
                          KARG_PTR(b.order), KARG_PTR(b.errs),  KARG_I32(b.iters)};
    host_launch(h, kernel, DIM1(b.ctas), DIM1(MUTEX_THREADS), 0, args, ARRAY_LEN(args));
    return mutex_finish(h, &b, why, why_len);
}

const struct workload wl_mutex_spin = {
    .name = "mutex-spin",
    .set = "sync",
    .desc = "test-and-set spin mutex, one contender per CTA, plain critical section "
            "(HeteroSync spinMutex; variant ttas)",
    .ptx = wl_ptx_mutex_spin,
    .ptx_file = "workloads/mutex_spin/mutex_spin.ptx",
    .run = mutex_spin_run,
    .variants = (const char *const[]){"ttas", NULL},
};
