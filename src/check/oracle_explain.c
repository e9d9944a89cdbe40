/*
 * oracle_explain.c - why the litmus oracle forbids a candidate: the
 * events and the path of base relations behind a cycle or a failed axiom of
 * the model, written as the outcome's explanation (oracle_opts.explain).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/oracle_int.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const sem_names[SEM_N] = {"weak",    "volatile", "relaxed", "acquire",
                                             "release", "acq_rel",  "sc"};
static const char *const scope_names[SCOPE_N] = {"cta", "gpu", "sys"};

void oracle_describe(const struct ctx *c, unsigned e, char *buf, size_t len)
{
    const struct tev *ev = &c->ev[e];
    const struct litmus_test *t = c->t;
    if (c->ev_thread[e] < 0) {
        snprintf(buf, len, "init %s=%d", t->locs[ev->root].name, (int)ev->value);
        return;
    }
    unsigned th = (unsigned)c->ev_thread[e];
    const struct litmus_instr *in = &t->th[th].ins[ev->instr];
    char q[48] = "";
    if (ev->sem != SEM_WEAK && ev->scope < SCOPE_N)
        snprintf(q, sizeof q, ".%s.%s", sem_names[ev->sem], scope_names[ev->scope]);
    else if (ev->kind != EK_BAR && !ev->pfence)
        snprintf(q, sizeof q, ".%s", sem_names[ev->sem]);
    switch (ev->kind) {
    case EK_R:
        snprintf(buf, len, "P%u %s%s %s=%d (line %d)", th, ev->rmw_instr ? "atom-read" : "ld", q,
                 t->locs[ev->loc].name, (int)ev->value, in->line);
        break;
    case EK_W:
        snprintf(buf, len, "P%u %s%s %s=%d (line %d)", th, ev->rmw_instr ? "atom-write" : "st", q,
                 t->locs[ev->loc].name, (int)ev->value, in->line);
        break;
    case EK_F:
        snprintf(buf, len, "P%u fence%s%s (line %d)", th, ev->pfence ? ".proxy" : "", q, in->line);
        break;
    default:
        snprintf(buf, len, "P%u bar.cta.%s %d id %d (line %d)", th, ev->arrive ? "arrive" : "sync",
                 (int)ev->bar_inst, (int)ev->bar_id, in->line);
        break;
    }
}

/* Name the base relation that holds a -> b, for the witness. */
static const char *base_edge(const struct ctx *c, unsigned a, unsigned b)
{
    static const int order[] = {CR_RF, CR_CO, CR_RMW, CR_PO, CR_SYNCBAR, CR_SYNC_FENCE};
    for (unsigned i = 0; i < ARRAY_LEN(order); i++)
        if (c->x.rel[order[i]][a] >> b & 1)
            return cat_rel_names[order[i]];
    /* fr = rf^-1; co */
    for (unsigned w = 0; w < c->n_ev; w++)
        if ((c->x.rel[CR_RF][w] >> a & 1) && (c->x.rel[CR_CO][w] >> b & 1))
            return "fr";
    return NULL;
}

/* A path a -> b over po, rf, rmw, syncbar, sync_fence (how a derived step
 * such as cause can arise), written "po; rf; po". */
static void base_path(const struct ctx *c, unsigned a, unsigned b, char *buf, size_t len)
{
    buf[0] = 0;
    const char *one = base_edge(c, a, b);
    if (one) {
        snprintf(buf, len, "%s", one);
        return;
    }
    static const int rels[] = {CR_PO, CR_RF, CR_RMW, CR_SYNCBAR, CR_SYNC_FENCE};
    int prev[CAT_MAX_EVENTS], via[CAT_MAX_EVENTS];
    for (unsigned i = 0; i < c->n_ev; i++)
        prev[i] = -1;
    unsigned q[CAT_MAX_EVENTS], qh = 0, qt = 0;
    q[qt++] = a;
    prev[a] = (int)a;
    while (qh < qt && prev[b] < 0) {
        unsigned u = q[qh++];
        for (unsigned k = 0; k < ARRAY_LEN(rels); k++)
            for (uint64_t s = c->x.rel[rels[k]][u]; s; s &= s - 1) {
                unsigned v = (unsigned)__builtin_ctzll(s);
                if (prev[v] < 0) {
                    prev[v] = (int)u;
                    via[v] = rels[k];
                    q[qt++] = v;
                }
            }
    }
    if (prev[b] < 0)
        return;
    const char *names[CAT_MAX_EVENTS];
    unsigned n = 0;
    for (unsigned v = b; v != a; v = (unsigned)prev[v])
        names[n++] = cat_rel_names[via[v]];
    size_t off = 0;
    while (n--) {
        int w = snprintf(buf + off, len - off, "%s%s", off ? "; " : "", names[n]);
        if (w < 0 || (size_t)w >= len - off)
            break;
        off += (size_t)w;
    }
}

void oracle_explain(struct ctx *c, const struct cat_fail *f)
{
    char *buf = malloc(4096);
    if (!buf)
        return;
    size_t off = 0;
#define ADD(...)                                                                                   \
    do {                                                                                           \
        int w_ = snprintf(buf + off, 4096 - off, __VA_ARGS__);                                     \
        if (w_ > 0)                                                                                \
            off = MIN(4095, off + (size_t)w_);                                                     \
    } while (0)
    ADD("violates %s: %s %s\n", f->axiom, f->kind, f->expr);
    char d[160], path[160];
    if (!f->n_steps) {
        oracle_describe(c, f->ev[0], d, sizeof d);
        ADD("      event %s\n", d);
    }
    for (unsigned i = 0; i < f->n_steps; i++) {
        oracle_describe(c, f->ev[i], d, sizeof d);
        base_path(c, f->ev[i], f->ev[i + 1], path, sizeof path);
        ADD("      %s\n        --%s%s%s%s-->\n", d, f->step[i], path[0] ? " [" : "", path,
            path[0] ? "]" : "");
    }
    if (f->n_steps) {
        oracle_describe(c, f->ev[f->n_steps], d, sizeof d);
        ADD("      %s\n", d);
    }
    /* the reads-from and coherence choices of this candidate */
    ADD("      with rf:");
    for (unsigned i = 0; i < c->n_reads; i++) {
        unsigned rd = c->reads[i];
        for (unsigned w = 0; w < c->n_ev; w++)
            if (c->x.rel[CR_RF][w] >> rd & 1) {
                oracle_describe(c, w, d, sizeof d);
                char rdd[160];
                oracle_describe(c, rd, rdd, sizeof rdd);
                ADD("%s {%s} -> {%s}", i ? "," : "", d, rdd);
            }
    }
    ADD("\n      with co:");
    unsigned n_co = 0;
    for (unsigned w = 0; w < c->n_ev; w++) {
        if (c->ev_thread[w] < 0)
            continue; /* the initial writes come first */
        for (uint64_t s = c->x.rel[CR_CO][w]; s; s &= s - 1) {
            char dw[160];
            oracle_describe(c, w, d, sizeof d);
            oracle_describe(c, (unsigned)__builtin_ctzll(s), dw, sizeof dw);
            ADD("%s {%s} -> {%s}", n_co++ ? "," : "", d, dw);
        }
    }
    ADD("%s\n", n_co ? "" : " initial writes first, nothing else ordered");
#undef ADD
    for (unsigned i = 0; i < c->n_cur; i++) {
        int k = c->cur[i];
        if (c->r->allowed[k] || c->r->why[k])
            continue;
        c->r->why[k] = i + 1 < c->n_cur ? strdup(buf) : buf;
        if (i + 1 == c->n_cur)
            return;
    }
    free(buf);
}
