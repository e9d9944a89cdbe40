/*
 * kernel_run.h - one kernel launch as the GPU's work distributor sees it.
 *
 * This models the hardware CTA scheduler of one GPU, and it is the one piece
 * of state the SMs of a GPU share (they read and advance it directly; nothing
 * else about them is shared). The machine fills it with kernel_run_init(),
 * calls sm_start_kernel() on every SM of the GPU in SM order, and learns that
 * the kernel finished from on_done (or from n_sms_busy reaching 0).
 *
 * Placement: the first fill_ctas CTAs are dealt round-robin as if the SMs
 * took one CTA per turn, in SM order, until full: CTA i goes to SM
 * i % n_sms, so with no more CTAs than SMs CTA i runs on SM i (the litmus
 * runner relies on this). Since every SM of a GPU has the same limits, the
 * first round-robin pass can fill SMs only up to per_sm_ctas each, which is
 * what fill_ctas = min(n_ctas, n_sms * per_sm_ctas) expresses. CTAs from
 * fill_ctas on are handed out in index order to whichever SM has room first.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GPU_KERNEL_RUN_H
#define GPU_KERNEL_RUN_H

#include "host/launcher.h"

struct kernel_run {
    struct launch launch;   /* what runs (params must outlive the run) */
    uint32_t cta_base;      /* this GPM's first CTA (its CTAs are cta_base + [0, n_ctas)) */
    uint32_t n_ctas;        /* CTAs this GPM runs (one GPM: grid.x * grid.y * grid.z) */
    uint32_t n_sms;         /* SMs of the GPU taking part */
    uint32_t per_sm_ctas;   /* resident CTAs per SM (occupancy); set by the first SM */
    uint32_t fill_ctas;     /* CTAs [0, fill_ctas) placed round-robin: CTA i on SM i % n_sms */
    uint32_t next_cta;      /* next CTA handed out first-come, from fill_ctas on */
    uint32_t n_sms_started; /* SMs that got sm_start_kernel */
    uint32_t n_sms_busy;    /* started SMs whose KERNEL_END is not yet acknowledged */
    uint32_t n_ctas_done;   /* CTAs whose warps all finished */
    /* Spandex FCS: a request type (enum spx_req_kind) per instruction of the
     * kernel's module, indexed by ptx_memop.tag; NULL: none. */
    const uint8_t *req_types;
    /* Called once, when the last SM finished (may be NULL). */
    void (*on_done)(void *obj, struct kernel_run *run);
    void *done_obj;
};

/* Fill `run` for launch `l` on a GPU of n_sms SMs. Fails (fatal, exit 2)
 * for an empty grid or block. */
void kernel_run_init(struct kernel_run *run, const struct launch *l, uint32_t n_sms);

/* Contiguous CTA scheduling over several GPMs (spec 004b §2.1): GPM `part`
 * of `parts` runs the CTAs [n * part / parts, n * (part + 1) / parts) of the
 * n that kernel_run_init counted, possibly none. */
void kernel_run_share(struct kernel_run *run, unsigned part, unsigned parts);

/* True when every SM finished the kernel. */
static inline bool kernel_run_done(const struct kernel_run *run)
{
    return run->n_sms_started == run->n_sms && run->n_sms_busy == 0;
}

#endif
