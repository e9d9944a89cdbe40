/*
 * verify_spandex.c - Spandex in the explorer (verify_spandex.h,
 * docs/verify.md "Spandex"): the device mix of the rig's L1s, the word
 * ownership the LLC and the device L1s keep outside struct ctrl, and
 * quiescent agreement by owner.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "verify/verify_spandex.h"

#include <stdio.h>
#include <string.h>

#include "coh/ctrl.h"
#include "coh/spandex/spandex.h"
#include "system/config.h"

const struct ctrl_ops *vspx_l1_ops(const struct proto_desc *p, const struct machine_view *cfg,
                                   unsigned i, unsigned *table)
{
    *table = 0;
    if (!p->cpu_l1 || i < cfg->gpu.sms)
        return &p->l1;
    return p->cpu_l1(cfg, table);
}

bool vspx_write_atomic(const struct proto_desc *p, unsigned table)
{
    return p->tables[table] == &spx_mesi_l1_table;
}

/* The device L1s that own words keep them in a line's meta[1] (DeNovo:
 * meta[0] valid, meta[2] shared; MESI: all of them in M) and the held store
 * or atomic of a TBE in its meta[1] (denovo_l1.c, mesi_l1.c). */
static bool owns_words(const struct proto_desc *p, unsigned table)
{
    return p->tables[table] == &dn_l1_table || p->tables[table] == &spx_mesi_l1_table;
}

const char *vspx_asymmetric(const struct proto_desc *p, const unsigned *tables, unsigned n_l1)
{
    for (unsigned i = 0; i < n_l1; i++)
        for (unsigned j = i + 1; j < n_l1; j++)
            if (p->tables[tables[i]] == p->tables[tables[j]])
                return NULL;
    return "no two of its L1s are of one device (--devices): L1s of different devices run "
           "different tables";
}

bool vspx_one_device(const struct proto_desc *p, const unsigned *tables, unsigned n_l1)
{
    for (unsigned i = 1; i < n_l1; i++)
        if (p->tables[tables[i]] != p->tables[tables[0]])
            return false;
    return true;
}

bool vspx_keeps_devices(const struct proto_desc *p, const unsigned *tables, const uint8_t *perm,
                        unsigned n_l1)
{
    for (unsigned i = 0; i < n_l1; i++)
        if (p->tables[tables[perm[i]]] != p->tables[tables[i]])
            return false;
    return true;
}

/* Under symmetry: an L1's index, and an index + 1 with 0 the LLC (the owner
 * predictor's), relabelled. */
static uint16_t rel_l1(const struct vspx_out *o, unsigned i, unsigned n_l1)
{
    return o->perm && i < n_l1 ? o->perm[i] : (uint16_t)i;
}

static uint32_t rel_l1p1(const struct vspx_out *o, uint32_t v, unsigned n_l1)
{
    return v ? rel_l1(o, v - 1, n_l1) + 1u : 0;
}

void vspx_put(const struct vspx_out *o, const struct proto_desc *p, struct comp *const *l1,
              const unsigned *tables, unsigned n_l1, struct comp *llc, const addr_t *lines,
              unsigned n_lines)
{
    for (unsigned k = 0; k < n_lines; k++) {
        uint16_t ids[64] = {0};
        uint64_t owned = spx_llc_owners(llc, lines[k], ids, 64);
        o->bytes(o->s, &owned, sizeof owned);
        for (unsigned w = 0; w < 64; w++)
            if (owned >> w & 1) {
                uint16_t id = rel_l1(o, ids[w], n_l1); /* an owner names an L1 */
                o->bytes(o->s, &id, sizeof id);
            }
    }
    const struct msg_list *fwd, *rsp;
    spx_llc_passing(llc, &fwd, &rsp);
    const struct msg_list *pass[2] = {fwd, rsp};
    for (unsigned i = 0; i < 2; i++) {
        o->bytes(o->s, &pass[i]->n, sizeof pass[i]->n);
        for (const struct msg *m = pass[i]->head; m; m = m->next)
            o->msg(o->s, m);
    }
    for (unsigned slot = 0; slot < n_l1; slot++) { /* (under symmetry relabelled) */
        unsigned i = o->inv ? o->inv[slot] : slot;
        if (!owns_words(p, tables[i]))
            continue;
        struct ctrl *c = (struct ctrl *)l1[i];
        for (unsigned k = 0; k < n_lines; k++) {
            struct tbe *t = c->tbes.cap ? tbe_find(&c->tbes, lines[k]) : NULL;
            const struct msg *held = t ? (const struct msg *)(uintptr_t)t->meta[1] : NULL;
            uint8_t has = held != NULL;
            o->bytes(o->s, &has, 1);
            if (held)
                o->msg(o->s, held);
        }
        if (p->tables[tables[i]] == &dn_l1_table) {
            uint32_t pred[8] = {0};
            unsigned n = spx_dn_predictor(l1[i], pred, 8);
            for (unsigned j = 0; j < n; j++) /* the last responders: index + 1, 0 the LLC */
                pred[j] = rel_l1p1(o, pred[j], n_l1);
            o->bytes(o->s, pred, n * sizeof *pred);
        }
    }
}

static bool state_is(const struct coh_table *t, unsigned st, const char *name)
{
    return st < t->n_states && !strcmp(t->state_names[st], name);
}

bool vspx_unfilled(const struct proto_desc *p, unsigned table, const struct cache_line *l)
{
    const struct coh_table *t = p->tables[table];
    return t == &spx_mesi_l1_table && state_is(t, l->state, "IS");
}

static uint32_t word_at(const uint8_t *data, unsigned w)
{
    uint32_t v;
    memcpy(&v, data + (size_t)w * SPX_WORD_BYTES, 4);
    return v;
}

bool vspx_quiescent(const struct proto_desc *p, struct comp *const *l1, const unsigned *tables,
                    unsigned n_l1, struct comp *llc, const addr_t *lines, const unsigned *words,
                    unsigned n_lines, const uint32_t *gold, const uint32_t *dram, char *why,
                    size_t len)
{
    for (unsigned k = 0; k < n_lines; k++) {
        uint16_t ids[64] = {0};
        unsigned w = words[k];
        uint64_t owned = spx_llc_owners(llc, lines[k], ids, 64);
        struct cache_line *l = cache_find(&((struct ctrl *)llc)->cache, lines[k]);
        if (owned >> w & 1) {
            unsigned o = ids[w];
            struct cache_line *ol =
                o < n_l1 ? cache_find(&((struct ctrl *)l1[o])->cache, lines[k]) : NULL;
            if (!ol || !(ol->meta[1] >> w & 1)) {
                snprintf(why, len,
                         "quiescent: the LLC says l1[%u] owns word %u of location %u, but that L1 "
                         "does not own it",
                         o, w, k);
                return false;
            }
            if (word_at(ol->data, w) != gold[k]) {
                snprintf(why, len,
                         "quiescent: location %u's owner l1[%u] holds %u, but its value is %u", k,
                         o, word_at(ol->data, w), gold[k]);
                return false;
            }
        } else {
            uint32_t have = l ? word_at(l->data, w) : dram[k];
            if (have != gold[k]) {
                snprintf(why, len,
                         "quiescent: the %s holds location %u = %u with word %u owned by no L1, "
                         "but its value is %u",
                         l ? "LLC" : "DRAM", k, have, w, gold[k]);
                return false;
            }
        }
        /* and no other L1 says it owns the word (a MESI line in M, a DeNovo owned word) */
        for (unsigned i = 0; i < n_l1; i++) {
            struct cache_line *il = cache_find(&((struct ctrl *)l1[i])->cache, lines[k]);
            if (il && owns_words(p, tables[i]) && (il->meta[1] >> w & 1) &&
                !((owned >> w & 1) && ids[w] == i)) {
                snprintf(why, len,
                         "quiescent: l1[%u] owns word %u of location %u, but the LLC gives it to "
                         "%s",
                         i, w, k, owned >> w & 1 ? "another L1" : "no L1");
                return false;
            }
        }
    }
    return true;
}
