/*
 * mutex_ticket.c - host driver of the mutex-ticket workload (sync set): a
 * fetch-and-add ticket lock (fetch_add(relaxed) for a ticket, load(acquire)
 * spin on the now-serving word, store(release) to hand over; device scope)
 * contended by thread 0 of every CTA: HeteroSync's faMutex without its
 * polling backoff. Tickets make the acquisition order FIFO. Sizes and
 * check: mutex_common.h (the lock buffer's two lines hold next and serving).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "mutex_spin/mutex_common.h"

extern const char wl_ptx_mutex_ticket[];

static int mutex_ticket_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    host_load_ptx(h, wl_ptx_mutex_ticket, "workloads/mutex_ticket/mutex_ticket.ptx");
    struct mutex_bufs b;
    mutex_setup(h, p->size, &b);
    struct karg args[] = {KARG_PTR(b.lock),  KARG_PTR(b.total), KARG_PTR(b.percta),
                          KARG_PTR(b.order), KARG_PTR(b.errs),  KARG_I32(b.iters)};
    host_launch(h, "mutex_ticket", DIM1(b.ctas), DIM1(MUTEX_THREADS), 0, args, ARRAY_LEN(args));
    uint32_t lockw[64];
    host_memcpy_from_dev(h, lockw, b.lock, sizeof lockw);
    uint32_t total = b.ctas * b.iters;
    if (lockw[0] != total || lockw[32] != total) {
        snprintf(why, why_len, "ticket words: expected next = serving = %u, got %u and %u", total,
                 lockw[0], lockw[32]);
        mutex_finish(h, &b, NULL, 0);
        return 1;
    }
    return mutex_finish(h, &b, why, why_len);
}

const struct workload wl_mutex_ticket = {
    .name = "mutex-ticket",
    .set = "sync",
    .desc = "fetch-and-add ticket lock, acquire/release atomics (HeteroSync faMutex)",
    .ptx = wl_ptx_mutex_ticket,
    .ptx_file = "workloads/mutex_ticket/mutex_ticket.ptx",
    .run = mutex_ticket_run,
};
