/*
 * oracle_trace.c - stage 1 of the litmus oracle: per thread, every
 * trace (events, final registers, dependencies) for the values its loads may
 * return, iterated until the set of values each location can hold stops
 * growing; loops unrolled to the bound, spinning iterations recognised; and
 * the locations whose RMWs form one coherence chain (oracle_int.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/oracle_int.h"

#include <stdlib.h>
#include <string.h>

static int32_t opval(const struct tstate *s, const struct litmus_val *v)
{
    return v->is_reg ? s->regs[v->v] : v->v;
}

static uint64_t opdeps(const struct tstate *s, const struct litmus_val *v)
{
    return v->is_reg ? s->rdeps[v->v] : 0;
}

static struct tev *add_ev(struct ctx *c, struct tstate *s, const struct litmus_instr *in,
                          enum ekind k)
{
    if (s->tr.n == MAX_TEV) {
        oracle_fail_limit(c, in->line,
                          "a thread runs more than %d events (accesses, fences, barriers); the "
                          "oracle cannot enumerate it",
                          MAX_TEV);
        return NULL;
    }
    struct tev *e = &s->tr.ev[s->tr.n];
    memset(e, 0, sizeof *e);
    s->tr.rmw_w[s->tr.n] = -1;
    s->tr.n++;
    e->kind = (uint8_t)k;
    e->sem = in->sem;
    e->scope = in->scope;
    e->proxy = in->proxy;
    e->loc = in->loc;
    e->root = in->loc >= 0 ? (int8_t)c->t->locs[in->loc].root : -1;
    e->instr = (int16_t)s->pc;
    e->ctrl = s->ctrl;
    return e;
}

static void record(struct ctx *c, unsigned th, struct tstate *s)
{
    struct tset *ts = &c->ts[th];
    if (s->tr.cut_line && !c->first_cut)
        c->first_cut = s->tr.cut_line;
    if (ts->n == MAX_TRACES) {
        if (c->first_cut)
            oracle_fail_limit(
                c, c->first_cut,
                "a loop takes more than %u backward jumps (the unroll bound) on some of "
                "thread P%u's more than %d paths; the oracle cannot enumerate it",
                c->unroll, th, MAX_TRACES);
        else
            oracle_fail_limit(c, 0,
                              "thread P%u has more than %d paths; the oracle cannot enumerate it",
                              th, MAX_TRACES);
        return;
    }
    if (ts->n == ts->cap) {
        unsigned nc = ts->cap ? ts->cap * 2 : 16;
        struct trace *nv = realloc(ts->v, nc * sizeof *nv);
        if (!nv) {
            oracle_fail(c, 0, "out of memory");
            return;
        }
        ts->v = nv;
        ts->cap = nc;
    }
    memcpy(s->tr.regs, s->regs, sizeof s->regs);
    ts->v[ts->n++] = s->tr;
    if (s->tr.backjumps > c->max_backjumps)
        c->max_backjumps = s->tr.backjumps;
}

static bool has_val(const struct ctx *c, unsigned root, int32_t v);

/* A path dropped as spinning still wrote what it wrote before it began to
 * spin (a hand-off that stores, then waits): another thread may read those
 * values, so they join the next round's values like a recorded trace's. */
static void keep_spun_values(struct ctx *c, unsigned th, const struct trace *tr)
{
    for (unsigned e = 0; e < tr->n; e++) {
        const struct tev *ev = &tr->ev[e];
        unsigned root = (unsigned)ev->root;
        if (ev->kind != EK_W || has_val(c, root, ev->value))
            continue;
        unsigned k = 0;
        while (k < c->n_spun_vals[root] && c->spun_vals[root][k] != ev->value)
            k++;
        if (k < c->n_spun_vals[root])
            continue;
        if (k == MAX_VALS) {
            oracle_fail_limit(
                c, c->t->th[th].ins[ev->instr].line,
                "location %s takes more than %d values (a counting loop?); the oracle "
                "cannot enumerate it",
                c->t->locs[root].name, MAX_VALS);
            return;
        }
        c->spun_vals[root][c->n_spun_vals[root]++] = ev->value;
    }
}

/* Arrival at a loop head: false when the thread is spinning: no store or
 * barrier arrival since it was last here, and the same registers, except
 * those the loop body overwrites before reading (the value a failed poll
 * loaded), which the iteration that leaves the loop writes again. */
static bool loop_head(struct ctx *c, unsigned th, struct tstate *s, int line)
{
    uint32_t live = ~c->killed[th][s->pc];
    for (unsigned i = 0; i < s->n_snaps; i++) {
        if (s->snap[i].pc != (int)s->pc)
            continue;
        bool same = true;
        for (unsigned r = 0; r < LITMUS_MAX_REGS && same; r++)
            same = !(live >> r & 1) || s->snap[i].regs[r] == s->regs[r];
        if (!same)
            continue;
        keep_spun_values(c, th, &s->tr);
        if (c->liveness) { /* kept as a thread that may spin forever */
            s->tr.end = TR_SPIN;
            s->tr.spin_reads = 0;
            for (unsigned e = s->snap[i].ev_at; e < s->tr.n; e++)
                if (s->tr.ev[e].kind == EK_R)
                    s->tr.spin_reads |= 1ull << e;
            record(c, th, s);
            s->tr.end = TR_DONE;
        }
        return false;
    }
    if (s->n_snaps == MAX_SNAPS) {
        oracle_fail_limit(c, line, "a loop runs more than %d iterations without a store",
                          MAX_SNAPS);
        return false;
    }
    s->snap[s->n_snaps].pc = (int)s->pc;
    s->snap[s->n_snaps].ev_at = s->tr.n;
    memcpy(s->snap[s->n_snaps].regs, s->regs, sizeof s->regs);
    s->n_snaps++;
    return true;
}

/* Take a jump. Past the unroll bound the trace is kept cut there: if an
 * execution with it is consistent, the bound was too small (an error);
 * otherwise the path never happens. */
static bool jump(struct ctx *c, unsigned th, struct tstate *s, const struct litmus_instr *in,
                 unsigned to)
{
    if (to <= s->pc && ++s->tr.backjumps > c->unroll) {
        s->tr.cut_line = in->line;
        record(c, th, s);
        return false;
    }
    s->pc = to;
    return true;
}

static uint32_t atom_new(const struct litmus_instr *in, uint32_t old, uint32_t a)
{
    switch (in->atom) {
    case ATOM_ADD:
        return old + a;
    case ATOM_SUB:
        return old - a;
    case ATOM_EXCH:
        return a;
    case ATOM_CAS:
        return old == a ? (uint32_t)in->b.v : old;
    default:
        return old;
    }
}

static void explore(struct ctx *c, unsigned th, struct tstate *s);

/* One value of a load (or the read of an atom), then on. */
static void read_value(struct ctx *c, unsigned th, const struct tstate *s0, int32_t v)
{
    struct tstate *s = malloc(sizeof *s);
    if (!s) {
        oracle_fail(c, 0, "out of memory");
        return;
    }
    *s = *s0;
    const struct litmus_instr *in = &c->t->th[th].ins[s->pc];
    unsigned ri = s->tr.n;
    struct tev *r = add_ev(c, s, in, EK_R);
    if (!r) {
        free(s);
        return;
    }
    r->value = v;
    if (in->op == LOP_ATOM || in->op == LOP_RED) {
        r->rmw_instr = true;
        uint32_t a = (uint32_t)opval(s, &in->a);
        bool writes = !(in->atom == ATOM_CAS && (uint32_t)v != a);
        if (writes) {
            unsigned wi = s->tr.n;
            struct tev *w = add_ev(c, s, in, EK_W);
            if (!w) {
                free(s);
                return;
            }
            w->rmw_instr = true;
            w->value = (int32_t)atom_new(in, (uint32_t)v, a);
            w->data = (1ull << ri) | opdeps(s, &in->a) | opdeps(s, &in->b);
            s->tr.rmw_w[ri] = (int8_t)wi;
            /* a copy of the value read changes nothing a later iteration
             * could tell (chain_locations): it is no store for the
             * spin rule */
            if (!(w->value == v && c->chain[r->root]))
                s->n_snaps = 0;
        }
        /* the read half acquires, the write half releases */
        bool acq = in->sem == SEM_ACQUIRE || in->sem == SEM_ACQ_REL;
        bool rel = in->sem == SEM_RELEASE || in->sem == SEM_ACQ_REL;
        s->tr.ev[ri].sem = acq ? SEM_ACQUIRE : SEM_RELAXED;
        if (writes)
            s->tr.ev[s->tr.n - 1].sem = rel ? SEM_RELEASE : SEM_RELAXED;
    }
    if (in->op != LOP_RED) {
        s->regs[in->dst] = v;
        s->rdeps[in->dst] = 1ull << ri;
    }
    s->pc++;
    explore(c, th, s);
    free(s);
}

static void explore(struct ctx *c, unsigned th, struct tstate *s)
{
    const struct litmus_thread *tt = &c->t->th[th];
    while (!c->failed) {
        if (s->pc >= tt->n_instrs) {
            record(c, th, s);
            return;
        }
        const struct litmus_instr *in = &tt->ins[s->pc];
        if (c->head[th][s->pc] && !loop_head(c, th, s, in->line))
            return;
        switch (in->op) {
        case LOP_LD:
        case LOP_ATOM:
        case LOP_RED: {
            int root = c->t->locs[in->loc].root;
            for (unsigned i = 0; i < c->n_vals[root] && !c->failed; i++)
                read_value(c, th, s, c->vals[root][i]);
            return;
        }
        case LOP_ST: {
            struct tev *w = add_ev(c, s, in, EK_W);
            if (!w)
                return;
            w->value = opval(s, &in->a);
            w->data = opdeps(s, &in->a);
            s->n_snaps = 0;
            s->pc++;
            break;
        }
        case LOP_FENCE:
        case LOP_PFENCE: {
            struct tev *f = add_ev(c, s, in, EK_F);
            if (!f)
                return;
            f->pfence = in->op == LOP_PFENCE;
            if (f->pfence)
                f->scope = SCOPE_N;
            s->pc++;
            break;
        }
        case LOP_BAR_SYNC:
        case LOP_BAR_ARRIVE: {
            struct tev *b = add_ev(c, s, in, EK_BAR);
            if (!b)
                return;
            b->scope = SCOPE_N;
            b->arrive = in->op == LOP_BAR_ARRIVE;
            b->bar_inst = opval(s, &in->a);
            b->bar_id = in->n_bar_ops >= 2 ? opval(s, &in->b) : -1;
            b->bar_count = in->n_bar_ops >= 3 ? opval(s, &in->c) : 0;
            s->n_snaps = 0; /* an arrival changes the barrier's state: not a spin */
            if (c->liveness && !b->arrive) { /* it may wait here forever */
                s->tr.end = TR_BLOCKED;
                record(c, th, s);
                s->tr.end = TR_DONE;
            }
            s->pc++;
            break;
        }
        case LOP_ADD:
            s->regs[in->dst] = (int32_t)((uint32_t)opval(s, &in->a) + (uint32_t)opval(s, &in->b));
            s->rdeps[in->dst] = opdeps(s, &in->a) | opdeps(s, &in->b);
            s->pc++;
            break;
        case LOP_BEQ:
        case LOP_BNE: {
            bool eq = opval(s, &in->a) == opval(s, &in->b);
            s->ctrl |= opdeps(s, &in->a) | opdeps(s, &in->b);
            if (eq != (in->op == LOP_BEQ))
                s->pc++;
            else if (!jump(c, th, s, in, (unsigned)in->target))
                return;
            break;
        }
        case LOP_GOTO:
            if (!jump(c, th, s, in, (unsigned)in->target))
                return;
            break;
        default:
            oracle_fail(c, in->line, "instruction not supported by the oracle");
            return;
        }
    }
}

/* The locations where a failed retry iteration's RMW may be cut when it
 * writes back the value it read: every access of the location in the test is
 * strong, generic, through the location's own name (no alias), and in the
 * scope of every other thread's access, so that every pair is morally strong.
 * Then the location's writes form one chain in co in which each RMW reads its
 * immediate predecessor, and removing the copy (re-pointing its readers at
 * what it copied) keeps every consistent execution consistent
 * (docs/oracle.md, "Retry loops of atomics"). Not under TSO, whose
 * reads-from of a thread's own writes is outside its global order. */
void oracle_chain_locations(struct ctx *c, enum oracle_model m)
{
    const struct litmus_test *t = c->t;
    for (unsigned l = 0; l < t->n_locs; l++)
        c->chain[l] = m != OM_TSO && t->locs[l].alias_of < 0;
    for (unsigned l = 0; l < t->n_locs; l++)
        if (t->locs[l].alias_of >= 0)
            c->chain[t->locs[l].root] = false;
    for (unsigned ta = 0; ta < t->n_threads; ta++)
        for (unsigned i = 0; i < t->th[ta].n_instrs; i++) {
            const struct litmus_instr *a = &t->th[ta].ins[i];
            if (a->loc < 0 || a->op == LOP_BAR_SYNC || a->op == LOP_BAR_ARRIVE)
                continue;
            unsigned root = (unsigned)t->locs[a->loc].root;
            if (a->sem == SEM_WEAK || a->scope >= SCOPE_N || a->proxy != LPROXY_GENERIC) {
                c->chain[root] = false;
                continue;
            }
            for (unsigned tb = 0; tb < t->n_threads; tb++)
                for (unsigned j = 0; j < t->th[tb].n_instrs && tb != ta; j++) {
                    const struct litmus_instr *b = &t->th[tb].ins[j];
                    if (b->loc >= 0 && b->op != LOP_BAR_SYNC && b->op != LOP_BAR_ARRIVE &&
                        (unsigned)t->locs[b->loc].root == root && b->scope < SCOPE_N &&
                        !(scope_has(t, a->scope, (int)ta, (int)tb) &&
                          scope_has(t, b->scope, (int)tb, (int)ta)))
                        c->chain[root] = false;
                }
        }
}

static bool has_val(const struct ctx *c, unsigned root, int32_t v)
{
    for (unsigned i = 0; i < c->n_vals[root]; i++)
        if (c->vals[root][i] == v)
            return true;
    return false;
}

void oracle_make_traces(struct ctx *c)
{
    const struct litmus_test *t = c->t;
    for (unsigned th = 0; th < t->n_threads; th++)
        for (unsigned i = 0; i < t->th[th].n_instrs; i++) {
            const struct litmus_instr *in = &t->th[th].ins[i];
            if ((in->op == LOP_BEQ || in->op == LOP_BNE || in->op == LOP_GOTO) &&
                in->target <= (int)i)
                c->head[th][in->target] = true;
        }
    for (unsigned th = 0; th < t->n_threads; th++)
        for (unsigned h = 0; h < t->th[th].n_instrs; h++) {
            if (!c->head[th][h])
                continue;
            uint32_t read = 0, killed = 0;
            for (unsigned i = h; i < t->th[th].n_instrs; i++) {
                const struct litmus_instr *in = &t->th[th].ins[i];
                const struct litmus_val *ops[3] = {&in->a, &in->b, &in->c};
                for (unsigned k = 0; k < 3; k++)
                    if (ops[k]->is_reg && in->op != LOP_GOTO)
                        read |= 1u << ops[k]->v;
                if (in->dst >= 0 && !(read >> in->dst & 1))
                    killed |= 1u << in->dst;
                if (in->op == LOP_BEQ || in->op == LOP_BNE || in->op == LOP_GOTO)
                    break;
            }
            c->killed[th][h] = killed;
        }
    for (unsigned l = 0; l < t->n_locs; l++)
        if (t->locs[l].alias_of < 0) {
            c->n_vals[l] = 1;
            c->vals[l][0] = t->locs[l].init;
        }
    struct tstate *s0 = malloc(sizeof *s0);
    if (!s0) {
        oracle_fail(c, 0, "out of memory");
        return;
    }
    /* a value in an execution comes from a chain of writes, each a different
     * write event: with W store instructions (times the unroll bound when a
     * loop holds one), W rounds reach every value an execution can hold */
    unsigned max_rounds = 1;
    for (unsigned th = 0; th < t->n_threads; th++) {
        const struct litmus_thread *tt = &t->th[th];
        for (unsigned i = 0; i < tt->n_instrs; i++) {
            unsigned op = tt->ins[i].op;
            if (op != LOP_ST && op != LOP_ATOM && op != LOP_RED)
                continue;
            bool in_loop = false; /* between a loop head and its backward jump */
            for (unsigned j = i; j < tt->n_instrs && !in_loop; j++) {
                const struct litmus_instr *b = &tt->ins[j];
                in_loop = (b->op == LOP_BEQ || b->op == LOP_BNE || b->op == LOP_GOTO) &&
                          b->target <= (int)i;
            }
            max_rounds += in_loop ? c->unroll : 1;
        }
    }
    for (unsigned round = 0; round < max_rounds; round++) {
        bool grew = false;
        for (unsigned th = 0; th < t->n_threads && !c->failed; th++) {
            c->ts[th].n = 0;
            memset(s0, 0, sizeof *s0);
            memcpy(s0->regs, t->th[th].reg_init, sizeof s0->regs);
            explore(c, th, s0);
        }
        for (unsigned l = 0; l < t->n_locs && !c->failed; l++) {
            for (unsigned k = 0; k < c->n_spun_vals[l]; k++) {
                if (has_val(c, l, c->spun_vals[l][k]))
                    continue;
                if (c->n_vals[l] == MAX_VALS) {
                    oracle_fail_limit(
                        c, 0,
                        "location %s takes more than %d values (a counting loop?); the "
                        "oracle cannot enumerate it",
                        t->locs[l].name, MAX_VALS);
                    break;
                }
                c->vals[l][c->n_vals[l]++] = c->spun_vals[l][k];
                grew = true;
            }
            c->n_spun_vals[l] = 0;
        }
        for (unsigned th = 0; th < t->n_threads && !c->failed; th++)
            for (unsigned k = 0; k < c->ts[th].n; k++) {
                const struct trace *tr = &c->ts[th].v[k];
                for (unsigned e = 0; e < tr->n; e++) {
                    const struct tev *ev = &tr->ev[e];
                    if (ev->kind != EK_W || has_val(c, (unsigned)ev->root, ev->value))
                        continue;
                    if (c->n_vals[ev->root] == MAX_VALS) {
                        oracle_fail_limit(
                            c, t->th[th].ins[ev->instr].line,
                            "location %s takes more than %d values (a counting loop?); the "
                            "oracle cannot enumerate it",
                            t->locs[ev->root].name, MAX_VALS);
                        break;
                    }
                    c->vals[ev->root][c->n_vals[ev->root]++] = ev->value;
                    grew = true;
                }
            }
        if (c->failed || !grew)
            break;
    }
    free(s0);
}
