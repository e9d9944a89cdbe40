/*
 * verify_mg.c - the multi-GPM bank's state outside struct ctrl, for the
 * explorer's digest (verify_mg.h, docs/verify.md "Several GPMs"). Read-only:
 * the bank's behaviour is untouched.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "verify/verify_mg.h"

#include "coh/mg/mg.h"
#include "coh/mg/mg_l2_int.h"

static void put_list(const struct msg_list *l, const struct verify_mg_sink *out)
{
    out->put(out->arg, &l->n, sizeof l->n);
    for (const struct msg *m = l->head; m; m = m->next)
        out->put_msg(out->arg, m);
}

#define PUT(v) out->put(out->arg, &(v), sizeof(v))

void verify_mg_bank(struct comp *bank, const addr_t *lines, unsigned n_lines,
                    const struct verify_mg_sink *out)
{
    struct mg_l2 *c = mg_of(bank);
    for (unsigned k = 0; k < n_lines && c->f.directory; k++) {
        /* the entry's key, as mg_dir.c's dir_key computes it */
        uint64_t li = lines[k] / c->base.line_bytes / c->banks;
        addr_t key = (li / c->dir_lines) * 16;
        struct cache_line *e = cache_find(&c->dir, key);
        uint8_t present = e != NULL;
        PUT(present);
        if (e) {
            uint64_t sharers = out->gpms ? out->gpms(out->arg, e->meta[0]) : e->meta[0];
            PUT(e->state);
            PUT(sharers);
        }
    }
    PUT(c->n_remote);
    /* release slots by index (an invalidation carries its slot + 1); the
     * trailing free ones are allocation history */
    unsigned used = 0;
    for (unsigned i = 0; i < c->n_rel; i++)
        if (c->rel[i].m)
            used = i + 1;
    PUT(used);
    for (unsigned i = 0; i < used; i++) {
        const struct mg_rel *r = &c->rel[i];
        uint8_t busy = r->m != NULL;
        PUT(busy);
        if (!busy)
            continue;
        out->put_msg(out->arg, r->m);
        PUT(r->left);
        PUT(r->waiting);
        PUT(r->gen);
    }
    put_list(&c->rel_next, out);
    put_list(&c->rel_round, out);
    PUT(c->round_busy);
    PUT(c->inv_slot);
    if (c->counted) { /* the generations still open and what each has outstanding */
        PUT(c->gen);
        PUT(c->gen_low);
        for (uint64_t g = c->gen_low; g <= c->gen; g++)
            PUT(c->gout[g % c->n_gout]);
    }
    put_list(&c->outq, out);
}

void verify_mg_l1(struct comp *l1, const struct verify_mg_sink *out)
{
    struct mg_l1_view v;
    mg_l1_view(l1, &v);
    uint8_t held = v.rel_held != NULL;
    PUT(held);
    if (held) {
        out->put_msg(out->arg, v.rel_held);
        PUT(v.rel_type);
        PUT(v.rel_sent);
        PUT(v.rel_acks);
    }
    put_list(v.acq_next, out);
    put_list(v.acq_round, out);
    if (v.acq_round->n) {
        PUT(v.acq_sent);
        PUT(v.acq_acks);
    }
}

bool verify_mg_free(struct comp *bank)
{
    return mg_of(bank)->f.free_coherence;
}

bool verify_mg_hier(struct comp *bank)
{
    return mg_of(bank)->f.hier;
}
