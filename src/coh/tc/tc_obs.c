/*
 * tc_obs.c - the invariant observer of Temporal Coherence (--check; see tc.h).
 *
 * Two invariants of spec 002 §7, checked where the L1s hand data out:
 *   lease inclusion - a copy an L1 installs or hits, valid until local_ts,
 *     has local_ts <= the global timestamp its home bank keeps for the line
 *     (in the line, or in the MSHR of an evicted one);
 *   write visibility - a hit on a valid (not VM) copy returns the value the
 *     bank serialised last (the golden memory), except, under TC-Weak, up to
 *     the largest GWCT promised to a writer of the line: until then a stale
 *     copy may legally survive; after it, none may (a private ACK promises
 *     immediate visibility: GWCT 0).
 * The observer reads the banks' timestamps directly (an observer's global
 * view; it never changes behaviour). Its state is the protocol's per-machine
 * context (proto_desc.attach), which every controller holds in its wiring.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coh/tc/tc.h"
#include "mem/observe.h"

/* Per machine: the banks, and per line the largest GWCT promised. */
struct tc_obs {
    struct ctrl_bank_set set; /* the banks, for ctrl_bank_set_home (not in any list) */
    addr_t *keys;             /* open addressing; 0 = empty (line 0 stored as ~0) */
    uint64_t *gwct;
    size_t cap, n;
};

void *tc_obs_attach(const struct ctrl_wiring *w)
{
    if (!w->obs)
        return NULL; /* no --check: nothing to observe */
    struct tc_obs *o = calloc(1, sizeof *o);
    if (!o)
        panic("out of memory");
    o->set.eng = w->eng;
    o->set.n_banks = w->n_banks;
    o->set.banks = calloc(w->n_banks, sizeof *o->set.banks);
    if (!o->set.banks)
        panic("out of memory");
    return o;
}

void tc_obs_detach(void *ctx)
{
    struct tc_obs *o = ctx;
    if (!o)
        return;
    free(o->keys);
    free(o->gwct);
    free(o->set.banks);
    free(o);
}

void tc_obs_bank(struct tc_obs *o, unsigned bank, struct comp *l2)
{
    if (!o)
        return;
    o->set.banks[bank] = l2;
    o->set.n_live++;
}

void tc_obs_bank_gone(struct tc_obs *o, unsigned bank)
{
    if (!o)
        return;
    o->set.banks[bank] = NULL;
    o->set.n_live--;
}

static size_t slot(const struct tc_obs *o, addr_t key)
{
    size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 17) & (o->cap - 1);
    while (o->keys[i] && o->keys[i] != key)
        i = (i + 1) & (o->cap - 1);
    return i;
}

static uint64_t *entry(struct tc_obs *o, addr_t line, bool create)
{
    addr_t key = line ? line : ~(addr_t)0;
    if (!o->cap) {
        if (!create)
            return NULL;
        o->cap = 1024;
        o->keys = calloc(o->cap, sizeof *o->keys);
        o->gwct = calloc(o->cap, sizeof *o->gwct);
        if (!o->keys || !o->gwct)
            panic("out of memory");
    }
    size_t i = slot(o, key);
    if (o->keys[i] || !create)
        return o->keys[i] ? &o->gwct[i] : NULL;
    if (2 * (o->n + 1) > o->cap) { /* grow (check builds only) */
        addr_t *k = o->keys;
        uint64_t *g = o->gwct;
        size_t cap = o->cap;
        o->cap *= 2;
        o->keys = calloc(o->cap, sizeof *o->keys);
        o->gwct = calloc(o->cap, sizeof *o->gwct);
        if (!o->keys || !o->gwct)
            panic("out of memory");
        for (size_t j = 0; j < cap; j++)
            if (k[j]) {
                size_t s = slot(o, k[j]);
                o->keys[s] = k[j];
                o->gwct[s] = g[j];
            }
        free(k);
        free(g);
        i = slot(o, key);
    }
    o->keys[i] = key;
    o->n++;
    return &o->gwct[i];
}

void tc_obs_write(struct tc_obs *o, addr_t line, uint64_t gwct)
{
    if (!o || !gwct)
        return;
    uint64_t *g = entry(o, line, true);
    *g = MAX(*g, gwct);
}

void tc_obs_l1(struct tc_obs *o, struct observer *obs, const char *who, enum tc_variant v,
               addr_t line, uint64_t local_ts, uint64_t now, uint32_t line_bytes,
               const uint8_t *data, const struct bytemask *mask)
{
    if (!o)
        return;
    if (local_ts >= now) {
        struct comp *bank = ctrl_bank_set_home(&o->set, line, line_bytes);
        uint64_t gts = 0;
        bool kept = bank && tc_l2_gts(bank, line, &gts);
        if (!kept || gts < local_ts)
            panic("invariant violated: %s holds line %#llx valid until %llu at cycle %llu, but "
                  "its L2 bank keeps %s%llu (lease inclusion)",
                  who, (unsigned long long)line, (unsigned long long)local_ts,
                  (unsigned long long)now, kept ? "timestamp " : "no timestamp",
                  kept ? (unsigned long long)gts : 0ull);
    }
    if (!data)
        return;
    if (v == TC_WEAK) {
        uint64_t *g = entry(o, line, false);
        if (g && now <= *g)
            return; /* a stale copy may still live: its writer's fence waits */
    }
    obs_check(obs, who, line, data, mask);
}

uint64_t tc_obs_promised(struct tc_obs *o, addr_t line)
{
    uint64_t *g = o ? entry(o, line, false) : NULL;
    return g ? *g : 0;
}
