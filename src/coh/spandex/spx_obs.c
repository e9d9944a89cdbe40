/*
 * spx_obs.c - the single-owner invariant of Spandex (--check; spandex.h).
 *
 * Ownership moves between L1s without a blocking state: the LLC updates the
 * owner id at once, the old owner keeps the words until it serves the
 * forward, the new owner has them once the relay is in. So at any instant
 * at most one L1 may hold a word owned where it can write it (a line being
 * written back keeps its words only to serve forwards). Checked before every
 * write an L1 performs on owned words, by reading the other L1s' owned masks
 * (an observer's global view; it never changes behaviour). The L1s register
 * in Spandex's per-machine context (proto_desc.attach, ctrl_wiring.proto_ctx),
 * each with its own reader of its owned words (a machine mixes DeNovo and
 * MESI L1s).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "base/log.h"
#include "coh/spandex/spandex.h"

/* Per machine: the L1s that own words, by index, and how to read each. */
struct spx_obs {
    unsigned n;
    struct comp **l1;
    uint64_t (**owned)(struct comp *l1, addr_t line);
};

void *spx_obs_attach(const struct ctrl_wiring *w)
{
    if (!w->obs)
        return NULL; /* no --check: nothing to observe */
    struct spx_obs *o = calloc(1, sizeof *o);
    if (!o)
        panic("out of memory");
    return o;
}

void spx_obs_detach(void *ctx)
{
    struct spx_obs *o = ctx;
    if (!o)
        return;
    free(o->l1);
    free(o->owned);
    free(o);
}

void spx_obs_l1(struct spx_obs *o, unsigned index, unsigned n, struct comp *l1,
                uint64_t (*owned)(struct comp *, addr_t))
{
    if (!o)
        return;
    n = MAX(n, index + 1);
    if (n > o->n) { /* the L1s' count comes with the first of them (construction only) */
        struct comp **l = realloc(o->l1, n * sizeof *l);
        uint64_t (**f)(struct comp *, addr_t) = realloc(o->owned, n * sizeof *f);
        if (!l || !f)
            panic("out of memory");
        for (unsigned i = o->n; i < n; i++) {
            l[i] = NULL;
            f[i] = NULL;
        }
        o->l1 = l;
        o->owned = f;
        o->n = n;
    }
    o->l1[index] = l1;
    o->owned[index] = owned;
}

void spx_obs_l1_gone(struct spx_obs *o, unsigned index)
{
    if (o && index < o->n)
        o->l1[index] = NULL;
}

void spx_obs_write(struct spx_obs *o, const char *who, unsigned index, addr_t line, uint64_t words)
{
    if (!o)
        return;
    for (unsigned i = 0; i < o->n; i++) {
        if (i == index || !o->l1[i])
            continue;
        uint64_t both = o->owned[i](o->l1[i], line) & words;
        if (both)
            panic("invariant violated: %s writes words %#llx of line %#llx, which %s also owns "
                  "(single owner per word)",
                  who, (unsigned long long)both, (unsigned long long)line, o->l1[i]->name);
    }
}
