/*
 * oracle.c - candidate executions of a litmus test and their judgement by a
 * cat model (see oracle.h).
 *
 * Three stages: (1) per thread, every trace (events, final registers,
 * dependencies) for the values loads may return, iterated until the set of
 * values each location can hold stops growing; (2) per combination of one
 * trace per thread, the execution's fixed relations (po, loc, scopes, ...)
 * and the barrier pairing; (3) the choices inside it: coherence orders, then
 * (skipped when the outcome they give is already known to be allowed)
 * reads-from, the fence.sc order and the barrier completers, each candidate
 * evaluated by the model.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/oracle.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"

extern const char catm_ptx_v7_5[], catm_ptx_v6_0[], catm_sc[], catm_tso[];

const char *const oracle_model_names[OM_N] = {"ptx", "ptx6", "sc", "tso"};
static const char *const model_files[OM_N] = {"litmus/models/ptx-v7.5.cat",
                                              "litmus/models/ptx-v6.0.cat",
                                              "litmus/models/sc.cat", "litmus/models/tso.cat"};

int oracle_model_find(const char *name)
{
    for (int i = 0; i < OM_N; i++)
        if (!strcmp(name, oracle_model_names[i]))
            return i;
    return -1;
}

const struct cat_model *oracle_cat(enum oracle_model m)
{
    static struct cat_model *models[OM_N];
    static const char *const texts[OM_N] = {catm_ptx_v7_5, catm_ptx_v6_0, catm_sc, catm_tso};
    if (!models[m]) {
        char err[512];
        models[m] = cat_parse(texts[m], model_files[m], err, sizeof err);
        if (!models[m])
            fatal("built-in model: %s", err); /* the build embeds checked files */
    }
    return models[m];
}

/* ---- stage 1: thread traces ---- */

#define MAX_TEV   40 /* events of one thread trace */
#define MAX_TRACES 16384 /* traces of one thread */
#define MAX_VALS  64 /* values one location can hold */
#define MAX_VARIANTS 64 /* final states of one candidate */
#define MAX_CANDIDATES 1000000ull /* candidates (and trace combinations) of one test: beyond
                                     this it is refused rather than left running for minutes */
#define MAX_SNAPS 32

enum ekind { EK_R, EK_W, EK_F, EK_BAR };

struct tev {
    uint8_t kind;     /* enum ekind */
    uint8_t sem;      /* enum mem_sem */
    uint8_t scope;    /* enum mem_scope, SCOPE_N: none */
    uint8_t proxy;    /* enum litmus_proxy */
    bool pfence;      /* fence.proxy.* */
    bool rmw_instr;   /* part of an atom/red */
    bool arrive;      /* bar.cta.arrive */
    int8_t loc, root; /* as written, physical */
    int32_t value;    /* read or written */
    int16_t instr;
    int32_t bar_inst, bar_id, bar_count;
    uint64_t data;    /* local reads the written value depends on */
    uint64_t ctrl;    /* local reads a branch before this event depends on */
};

/* How a thread trace ends (the last two only with oracle_opts.liveness). */
enum trace_end {
    TR_DONE,    /* the thread finishes */
    TR_SPIN,    /* it repeats its last iteration forever (spin_reads) */
    TR_BLOCKED, /* it waits forever at its last event, a bar.cta.sync */
};

struct trace {
    unsigned n;
    unsigned backjumps;
    int cut_line;          /* > 0: cut at the unroll bound by the jump on this line */
    uint8_t end;           /* enum trace_end */
    uint64_t spin_reads;   /* TR_SPIN: the reads of the iteration that repeats */
    int32_t regs[LITMUS_MAX_REGS];
    int8_t rmw_w[MAX_TEV]; /* read of an atom -> its write, -1 */
    struct tev ev[MAX_TEV];
};

struct tstate {
    unsigned pc;
    int32_t regs[LITMUS_MAX_REGS];
    uint64_t rdeps[LITMUS_MAX_REGS];
    uint64_t ctrl;
    unsigned n_snaps;
    struct {
        int pc;
        unsigned ev_at; /* the trace's length then: the iteration since starts there */
        int32_t regs[LITMUS_MAX_REGS];
    } snap[MAX_SNAPS];
    struct trace tr;
};

struct tset {
    unsigned n, cap;
    struct trace *v;
};

struct ctx {
    const struct litmus_test *t;
    const struct cat_model *cat;
    unsigned unroll;
    bool explain;
    bool liveness; /* oracle_opts.liveness */
    bool first_finishing; /* oracle_opts.first_finishing */
    bool found;    /* ... and a consistent execution that finishes was found: stop */
    int deferred_cut; /* ... the line of a loop cut at the unroll bound in a consistent
                         execution, a limit only if no execution is found */
    bool failed;
    bool limit;                  /* the failure is one of the oracle's limits (fail_limit) */
    bool chain[LITMUS_MAX_LOCS]; /* root -> its writes form one coherence chain, each
                                    RMW reading its immediate predecessor (chain_locations) */
    char *err;
    size_t errlen;
    /* stage 1 */
    unsigned n_vals[LITMUS_MAX_LOCS];
    int32_t vals[LITMUS_MAX_LOCS][MAX_VALS];
    unsigned n_spun_vals[LITMUS_MAX_LOCS];        /* values written on paths dropped as spinning */
    int32_t spun_vals[LITMUS_MAX_LOCS][MAX_VALS]; /* this round: another thread may read them */
    bool head[LITMUS_MAX_THREADS][LITMUS_MAX_INSTRS + 1]; /* a loop head */
    uint32_t killed[LITMUS_MAX_THREADS][LITMUS_MAX_INSTRS + 1]; /* registers a loop head's
                                    straight-line start writes before reading them */
    struct tset ts[LITMUS_MAX_THREADS];
    unsigned max_backjumps;
    int first_cut; /* line of the first jump a trace was cut at */
    uint64_t n_combos;
    /* stage 2: the chosen traces */
    const struct trace *pick[LITMUS_MAX_THREADS];
    unsigned n_ev;
    struct tev ev[CAT_MAX_EVENTS];
    int8_t ev_thread[CAT_MAX_EVENTS];
    struct cat_exec x;      /* the candidate; while choosing, the lower bound of a
                               partial execution (the choices made so far) */
    struct cat_exec x_hi;   /* ... and its upper bound: rf, co, sync_fence and syncbar
                               with every choice left too (refuted) */
    cat_rel fence_all;      /* every sync_fence edge some fence.sc order has */
    cat_rel bar_all;        /* every syncbar edge some choice of completers has */
    unsigned init_of[LITMUS_MAX_LOCS];           /* root -> its initial write */
    unsigned n_reads, reads[CAT_MAX_EVENTS];
    uint64_t rf_cand[CAT_MAX_EVENTS];            /* per read (index into reads) */
    uint64_t rf_now[CAT_MAX_EVENTS];             /* the same, narrowed by the co chosen */
    unsigned n_wlocs, wloc[LITMUS_MAX_LOCS];     /* roots with writes beyond the initial one */
    unsigned n_w[LITMUS_MAX_LOCS], w[LITMUS_MAX_LOCS][CAT_MAX_EVENTS];
    uint64_t lco[LITMUS_MAX_LOCS][CAT_MAX_EVENTS]; /* co among w[l] (local indices) */
    uint64_t must_order[LITMUS_MAX_LOCS][CAT_MAX_EVENTS]; /* pairs Coherence2 orders */
    bool partial_co;                             /* the model's co need not be total */
    unsigned n_fsc, fsc[CAT_MAX_EVENTS];
    uint64_t fsc_ms[CAT_MAX_EVENTS];             /* morally strong fence.sc pairs */
    cat_rel bar_fixed;                           /* syncbar edges without a choice */
    unsigned n_quorums;
    struct {
        unsigned n, count;
        unsigned ev[LITMUS_MAX_THREADS * 4];
    } quorum[LITMUS_MAX_GROUPS];
    unsigned quorum_pick[LITMUS_MAX_GROUPS];     /* bit mask of completers */
    int cut_line;  /* a chosen trace is cut at the unroll bound (its jump's line) */
    bool stuck;    /* a chosen trace spins: the candidates never finish */
    uint64_t spin_reads;   /* their spinning reads (event indices) */
    uint64_t blocked_bars; /* the barrier events threads wait at forever */
    int32_t outcome[LITMUS_MAX_OBS];
    unsigned n_cur;
    int cur[MAX_VARIANTS]; /* the outcomes of the candidate under way (several when
                              a location has several co-maximal writes) */
    bool registering;      /* outcomes() lists those of a pruned partial execution */
    bool variants_full;    /* ... and there were more than MAX_VARIANTS */
    struct oracle_result *r;
};

static void vfail(struct ctx *c, int line, const char *fmt, va_list ap)
{
    if (c->failed)
        return;
    c->failed = true;
    int n = line > 0 ? snprintf(c->err, c->errlen, "%s:%d: ", c->t->path, line)
                     : snprintf(c->err, c->errlen, "%s: ", c->t->path);
    if (n >= 0 && (size_t)n < c->errlen)
        vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
}

/* The test is outside what the oracle handles (an unsupported instruction). */
static void fail(struct ctx *c, int line, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void fail(struct ctx *c, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(c, line, fmt, ap);
    va_end(ap);
}

/* The test is beyond the oracle's limits (events, paths, values, candidates,
 * the unroll bound): ORACLE_LIMIT, a test that can still run unjudged. */
static void fail_limit(struct ctx *c, int line, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void fail_limit(struct ctx *c, int line, const char *fmt, ...)
{
    if (!c->failed)
        c->limit = true;
    va_list ap;
    va_start(ap, fmt);
    vfail(c, line, fmt, ap);
    va_end(ap);
}

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
        fail_limit(c, in->line,
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
            fail_limit(c, c->first_cut,
                       "a loop takes more than %u backward jumps (the unroll bound) on some of "
                       "thread P%u's more than %d paths; the oracle cannot enumerate it",
                       c->unroll, th, MAX_TRACES);
        else
            fail_limit(c, 0, "thread P%u has more than %d paths; the oracle cannot enumerate it",
                       th, MAX_TRACES);
        return;
    }
    if (ts->n == ts->cap) {
        unsigned nc = ts->cap ? ts->cap * 2 : 16;
        struct trace *nv = realloc(ts->v, nc * sizeof *nv);
        if (!nv) {
            fail(c, 0, "out of memory");
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
            fail_limit(c, c->t->th[th].ins[ev->instr].line,
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
        fail_limit(c, line, "a loop runs more than %d iterations without a store", MAX_SNAPS);
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
    case ATOM_ADD: return old + a;
    case ATOM_SUB: return old - a;
    case ATOM_EXCH: return a;
    case ATOM_CAS: return old == a ? (uint32_t)in->b.v : old;
    default: return old;
    }
}

static void explore(struct ctx *c, unsigned th, struct tstate *s);

/* One value of a load (or the read of an atom), then on. */
static void read_value(struct ctx *c, unsigned th, const struct tstate *s0, int32_t v)
{
    struct tstate *s = malloc(sizeof *s);
    if (!s) {
        fail(c, 0, "out of memory");
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
            fail(c, in->line, "instruction not supported by the oracle");
            return;
        }
    }
}

static bool scope_has(const struct litmus_test *t, unsigned scope, int a, int b)
{
    switch (scope) {
    case SCOPE_CTA:
        return t->th[a].gpu == t->th[b].gpu && t->th[a].cta == t->th[b].cta;
    case SCOPE_GPU:
        return t->th[a].gpu == t->th[b].gpu;
    case SCOPE_SYS:
        return true;
    default:
        return false;
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
static void chain_locations(struct ctx *c, enum oracle_model m)
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

static void make_traces(struct ctx *c)
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
        fail(c, 0, "out of memory");
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
                    fail_limit(c, 0,
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
                        fail_limit(c, t->th[th].ins[ev->instr].line,
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

/* ---- stage 3: choices inside one combination of traces ---- */

/* The outcome's row in the result, added if new; -1 on OOM. */
static int outcome_index(struct ctx *c)
{
    struct oracle_result *r = c->r;
    unsigned n = r->n_obs;
    for (unsigned i = 0; i < r->n_outcomes; i++)
        if (!litmus_outcome_cmp(r->outcomes + (uint64_t)i * n, c->outcome, n))
            return (int)i;
    unsigned k = r->n_outcomes;
    int32_t *no = realloc(r->outcomes, ((uint64_t)k + 1) * (n ? n : 1) * sizeof *no);
    bool *na = realloc(r->allowed, (k + 1) * sizeof *na);
    char **nw = realloc(r->why, (k + 1) * sizeof *nw);
    if (no)
        r->outcomes = no;
    if (na)
        r->allowed = na;
    if (nw)
        r->why = nw;
    if (!no || !na || !nw) {
        fail(c, 0, "out of memory");
        return -1;
    }
    memcpy(r->outcomes + (uint64_t)k * n, c->outcome, n * sizeof *no);
    r->allowed[k] = false;
    r->why[k] = NULL;
    r->n_outcomes++;
    return (int)k;
}

static const char *const sem_names[SEM_N] = {"weak", "volatile", "relaxed", "acquire",
                                             "release", "acq_rel", "sc"};
static const char *const scope_names[SCOPE_N] = {"cta", "gpu", "sys"};

static void describe(const struct ctx *c, unsigned e, char *buf, size_t len)
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
        snprintf(buf, len, "P%u %s%s %s=%d (line %d)", th, ev->rmw_instr ? "atom-write" : "st",
                 q, t->locs[ev->loc].name, (int)ev->value, in->line);
        break;
    case EK_F:
        snprintf(buf, len, "P%u fence%s%s (line %d)", th, ev->pfence ? ".proxy" : "", q,
                 in->line);
        break;
    default:
        snprintf(buf, len, "P%u bar.cta.%s %d id %d (line %d)", th,
                 ev->arrive ? "arrive" : "sync", (int)ev->bar_inst, (int)ev->bar_id, in->line);
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

static void explain(struct ctx *c, const struct cat_fail *f)
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
        describe(c, f->ev[0], d, sizeof d);
        ADD("      event %s\n", d);
    }
    for (unsigned i = 0; i < f->n_steps; i++) {
        describe(c, f->ev[i], d, sizeof d);
        base_path(c, f->ev[i], f->ev[i + 1], path, sizeof path);
        ADD("      %s\n        --%s%s%s%s-->\n", d, f->step[i], path[0] ? " [" : "", path,
            path[0] ? "]" : "");
    }
    if (f->n_steps) {
        describe(c, f->ev[f->n_steps], d, sizeof d);
        ADD("      %s\n", d);
    }
    /* the reads-from and coherence choices of this candidate */
    ADD("      with rf:");
    for (unsigned i = 0; i < c->n_reads; i++) {
        unsigned rd = c->reads[i];
        for (unsigned w = 0; w < c->n_ev; w++)
            if (c->x.rel[CR_RF][w] >> rd & 1) {
                describe(c, w, d, sizeof d);
                char rdd[160];
                describe(c, rd, rdd, sizeof rdd);
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
            describe(c, w, d, sizeof d);
            describe(c, (unsigned)__builtin_ctzll(s), dw, sizeof dw);
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

/* The enumeration is over: failed, or (first_finishing) it found what it
 * looked for. */
static bool halted(const struct ctx *c)
{
    return c->failed || c->found;
}

/* Every outcome of the candidate under way is already known to be allowed
 * (or nothing more is wanted). */
static bool settled(const struct ctx *c)
{
    if (c->found)
        return true;
    if (c->stuck)
        return c->r->may_spin;
    if (c->cut_line)
        return false;
    for (unsigned i = 0; i < c->n_cur; i++)
        if (!c->r->allowed[c->cur[i]])
            return false;
    return true;
}

/* Every read of a repeating iteration reads a write no other write is
 * co-after: a read taken forever sees what memory finally holds. */
static bool spins_read_last(const struct ctx *c)
{
    for (uint64_t s = c->spin_reads; s; s &= s - 1) {
        unsigned rd = (unsigned)__builtin_ctzll(s);
        for (unsigned w = 0; w < c->n_ev; w++)
            if ((c->x.rel[CR_RF][w] >> rd & 1) && c->x.rel[CR_CO][w])
                return false;
    }
    return true;
}

static void judge(struct ctx *c)
{
    struct oracle_result *r = c->r;
    if (++r->n_candidates > MAX_CANDIDATES) {
        fail_limit(c, 0, "more than %llu candidate executions; the oracle cannot enumerate it",
                   MAX_CANDIDATES);
        return;
    }
    static struct cat_fail f;
    if (c->stuck) {
        r->n_spin_candidates++;
        if (spins_read_last(c) && cat_consistent(c->cat, &c->x, NULL))
            r->may_spin = true;
        return;
    }
    if (c->cut_line) {
        if (!cat_consistent(c->cat, &c->x, NULL))
            return;
        if (c->first_finishing) /* a limit only if no finishing execution is found */
            c->deferred_cut = c->deferred_cut ? c->deferred_cut : c->cut_line;
        else
            fail_limit(
                c, c->cut_line,
                "a loop takes more than %u backward jumps (the unroll bound) in a consistent "
                "execution; its iterations store, so they cannot be cut as spinning",
                c->unroll);
        return;
    }
    if (cat_consistent(c->cat, &c->x, c->explain ? &f : NULL)) {
        c->found = c->first_finishing;
        for (unsigned i = 0; i < c->n_cur; i++) {
            r->allowed[c->cur[i]] = true;
            free(r->why[c->cur[i]]);
            r->why[c->cur[i]] = NULL;
        }
    } else if (c->explain) {
        bool need = false;
        for (unsigned i = 0; i < c->n_cur; i++)
            need |= !r->allowed[c->cur[i]] && !r->why[c->cur[i]];
        if (need)
            explain(c, &f);
    }
}

/* The syncbar edges of quorum k's completers `pick` (a bit mask; all of
 * them: every edge some choice has) into rel. */
static void quorum_edges(const struct ctx *c, unsigned k, unsigned pick, cat_rel rel)
{
    for (unsigned i = 0; i < c->quorum[k].n; i++) {
        if (!(pick >> i & 1))
            continue;
        unsigned a = c->quorum[k].ev[i];
        for (unsigned j = 0; j < c->quorum[k].n; j++) {
            unsigned b = c->quorum[k].ev[j];
            if (j != i && !c->ev[b].arrive)
                rel[a] |= 1ull << b;
        }
    }
}

static void outcomes(struct ctx *c, unsigned obs);

/* herd7's incremental pruning: the partial execution between c->x (the
 * choices made so far) and c->x_hi (those and every choice left; the
 * caller sets the chosen relations of both) already violates an axiom in
 * every completion (cat_consistent_between), so no candidate below it is
 * consistent. `co_stage`: co is not chosen whole yet, so the final states
 * of the candidates dropped are not known either; they are registered here
 * (a location whose co is not chosen may end with any of its writes: each
 * is co-last in some order), as their candidates would have. Explaining, it
 * says why for the outcomes not yet explained. */
static bool refuted(struct ctx *c, bool co_stage)
{
    static struct cat_fail f;
    if (cat_consistent_between(c->cat, &c->x, &c->x_hi, c->explain ? &f : NULL))
        return false;
    if (co_stage) {
        c->n_cur = 0;
        c->registering = true;
        c->variants_full = false;
        if (!c->cut_line && !c->stuck)
            outcomes(c, 0);
        c->registering = false;
        if (c->variants_full)
            return false; /* too many final states to list at once: enumerate instead */
    }
    c->r->n_partial_pruned++;
    bool need = false;
    for (unsigned k = 0; k < c->n_cur && c->explain; k++)
        need |= !c->r->allowed[c->cur[k]] && !c->r->why[c->cur[k]];
    if (need && !halted(c))
        explain(c, &f);
    return true;
}

/* The bounds' rf and co once both are chosen whole: the same in both. */
static void bound_rf_co(struct ctx *c)
{
    memcpy(c->x_hi.rel[CR_RF], c->x.rel[CR_RF], c->n_ev * sizeof(uint64_t));
    memcpy(c->x_hi.rel[CR_CO], c->x.rel[CR_CO], c->n_ev * sizeof(uint64_t));
}

static void choose_quorum(struct ctx *c, unsigned q)
{
    if (c->failed || settled(c))
        return;
    if (q == c->n_quorums) {
        memcpy(c->x.rel[CR_SYNCBAR], c->bar_fixed, c->n_ev * sizeof(uint64_t));
        for (unsigned k = 0; k < c->n_quorums; k++)
            quorum_edges(c, k, c->quorum_pick[k], c->x.rel[CR_SYNCBAR]);
        judge(c);
        return;
    }
    unsigned n = c->quorum[q].n;
    if (c->quorum[q].count && n > c->quorum[q].count) {
        /* more than one choice: the completers chosen before q, any after */
        memcpy(c->x.rel[CR_SYNCBAR], c->bar_fixed, c->n_ev * sizeof(uint64_t));
        for (unsigned k = 0; k < q; k++)
            quorum_edges(c, k, c->quorum_pick[k], c->x.rel[CR_SYNCBAR]);
        memcpy(c->x_hi.rel[CR_SYNCBAR], c->x.rel[CR_SYNCBAR], c->n_ev * sizeof(uint64_t));
        for (unsigned k = q; k < c->n_quorums; k++)
            quorum_edges(c, k, (1u << c->quorum[k].n) - 1, c->x_hi.rel[CR_SYNCBAR]);
        memcpy(c->x_hi.rel[CR_SYNC_FENCE], c->x.rel[CR_SYNC_FENCE], c->n_ev * sizeof(uint64_t));
        bound_rf_co(c);
        if (refuted(c, false))
            return;
    }
    for (unsigned m = 0; m < (1u << n); m++)
        if ((unsigned)__builtin_popcount(m) == c->quorum[q].count) {
            c->quorum_pick[q] = m;
            choose_quorum(c, q + 1);
        }
}

/* sync_fence: a total order of the fence.sc fences, on their morally strong
 * pairs. With order[0..k) placed, every completion orders the placed ones
 * so and each before every fence not yet placed, and orders the rest
 * either way (the bounds refuted checks). */
static void choose_fences(struct ctx *c, unsigned k, uint64_t used, unsigned *order)
{
    if (c->failed || settled(c))
        return;
    uint64_t *lo = c->x.rel[CR_SYNC_FENCE], *hi = c->x_hi.rel[CR_SYNC_FENCE];
    memset(lo, 0, c->n_ev * sizeof(uint64_t));
    uint64_t unplaced = 0;
    for (unsigned i = 0; i < c->n_fsc; i++)
        if (!(used >> i & 1))
            unplaced |= 1ull << c->fsc[i];
    for (unsigned i = 0; i < k; i++) {
        uint64_t later = unplaced;
        for (unsigned j = i + 1; j < k; j++)
            later |= 1ull << order[j];
        lo[order[i]] = c->fsc_ms[order[i]] & later;
    }
    if (k == c->n_fsc) {
        choose_quorum(c, 0);
        return;
    }
    if (c->n_fsc - k > 1) {
        memcpy(c->x.rel[CR_SYNCBAR], c->bar_fixed, c->n_ev * sizeof(uint64_t));
        memcpy(c->x_hi.rel[CR_SYNCBAR], c->bar_all, c->n_ev * sizeof(uint64_t));
        memcpy(hi, lo, c->n_ev * sizeof(uint64_t));
        for (uint64_t s = unplaced; s; s &= s - 1) {
            unsigned a = (unsigned)__builtin_ctzll(s);
            hi[a] |= c->fsc_ms[a] & unplaced;
        }
        bound_rf_co(c);
        if (refuted(c, false))
            return;
    }
    for (unsigned i = 0; i < c->n_fsc; i++)
        if (!(used >> i & 1)) {
            order[k] = c->fsc[i];
            choose_fences(c, k + 1, used | 1ull << i, order);
        }
}

/* Reads-from of reads[i..] still to choose: the partial execution with the
 * co chosen and rf for the reads before i, every fence.sc order and
 * completer left (refuted). */
static bool rf_refuted(struct ctx *c, unsigned i)
{
    memset(c->x.rel[CR_SYNC_FENCE], 0, c->n_ev * sizeof(uint64_t));
    memcpy(c->x.rel[CR_SYNCBAR], c->bar_fixed, c->n_ev * sizeof(uint64_t));
    memcpy(c->x_hi.rel[CR_SYNC_FENCE], c->fence_all, c->n_ev * sizeof(uint64_t));
    memcpy(c->x_hi.rel[CR_SYNCBAR], c->bar_all, c->n_ev * sizeof(uint64_t));
    bound_rf_co(c);
    for (unsigned j = i; j < c->n_reads; j++)
        for (uint64_t s = c->rf_now[j]; s; s &= s - 1)
            c->x_hi.rel[CR_RF][__builtin_ctzll(s)] |= 1ull << c->reads[j];
    return refuted(c, false);
}

static void choose_rf(struct ctx *c, unsigned i)
{
    if (c->failed || settled(c))
        return;
    if (i < c->n_reads && __builtin_popcountll(c->rf_now[i]) > 1 && rf_refuted(c, i))
        return;
    if (i == c->n_reads) {
        unsigned order[CAT_MAX_EVENTS];
        choose_fences(c, 0, 0, order);
        return;
    }
    unsigned rd = c->reads[i];
    for (uint64_t s = c->rf_now[i]; s; s &= s - 1) {
        unsigned w = (unsigned)__builtin_ctzll(s);
        c->x.rel[CR_RF][w] |= 1ull << rd;
        choose_rf(c, i + 1);
        c->x.rel[CR_RF][w] &= ~(1ull << rd);
    }
}

/* The final states of the candidate: a location's final value is that of a
 * co-maximal write (with a partial co, any of them). Fills c->cur. */
static void outcomes(struct ctx *c, unsigned obs)
{
    const struct litmus_test *t = c->t;
    if (halted(c))
        return;
    if (obs == t->n_obs) {
        if (c->n_cur == MAX_VARIANTS) {
            if (c->registering) { /* refuted's list, not one execution's */
                c->variants_full = true;
                return;
            }
            fail_limit(c, 0, "more than %d final states of one execution", MAX_VARIANTS);
            return;
        }
        int k = outcome_index(c);
        if (k >= 0)
            c->cur[c->n_cur++] = k;
        return;
    }
    const struct litmus_term *ob = &t->obs[obs];
    if (ob->kind == LT_REG) {
        c->outcome[obs] = c->pick[ob->thread]->regs[ob->index];
        outcomes(c, obs + 1);
        return;
    }
    unsigned root = (unsigned)ob->index, n = c->n_w[root];
    if (!n) {
        c->outcome[obs] = c->ev[c->init_of[root]].value;
        outcomes(c, obs + 1);
        return;
    }
    uint64_t seen_vals = 0; /* by index into vals[] */
    for (unsigned i = 0; i < n; i++) {
        if (c->lco[root][i])
            continue; /* not maximal */
        int32_t v = c->ev[c->w[root][i]].value;
        unsigned vi = 0;
        while (vi < c->n_vals[root] && c->vals[root][vi] != v)
            vi++;
        if (vi < 64 && (seen_vals >> vi & 1))
            continue;
        if (vi < 64)
            seen_vals |= 1ull << vi;
        c->outcome[obs] = v;
        outcomes(c, obs + 1);
    }
}

/* The reads-from choices the co chosen leaves: on a chain location an RMW
 * reads the immediate co-predecessor of its own write, every other choice
 * being inconsistent (docs/oracle.md, "Retry loops of atomics": reading
 * an earlier write puts the predecessor between, against Atomicity; a later
 * one makes the write cause its own co-predecessor, against Coherence). This
 * prunes those candidates before they are built; false when no candidate is
 * left (and, explaining, says why for outcomes not yet explained). */
static bool narrow_rf(struct ctx *c)
{
    const cat_rel *co = &c->x.rel[CR_CO];
    for (unsigned i = 0; i < c->n_reads; i++) {
        unsigned rd = c->reads[i];
        c->rf_now[i] = c->rf_cand[i];
        uint64_t own = c->x.rel[CR_RMW][rd];
        if (!own || !c->chain[c->ev[rd].root])
            continue;
        unsigned w = (unsigned)__builtin_ctzll(own);
        uint64_t before = 0; /* the writes co-before w */
        for (unsigned e = 0; e < c->n_ev; e++)
            if ((*co)[e] >> w & 1)
                before |= 1ull << e;
        uint64_t pred = 0;
        for (uint64_t s = before; s; s &= s - 1) {
            unsigned p = (unsigned)__builtin_ctzll(s);
            if (!((*co)[p] & before))
                pred |= 1ull << p;
        }
        c->rf_now[i] &= pred;
        if (c->rf_now[i])
            continue;
        ++c->r->n_pruned;
        if (c->explain)
            for (unsigned k = 0; k < c->n_cur; k++)
                if (!c->r->allowed[c->cur[k]] && !c->r->why[c->cur[k]]) {
                    char d[160], buf[400];
                    describe(c, rd, d, sizeof d);
                    snprintf(buf, sizeof buf,
                             "violates axiom-Atomicity or axiom-Coherence: under this "
                             "coherence order %s can read only the write just before its "
                             "own, which wrote another value\n",
                             d);
                    c->r->why[c->cur[k]] = strdup(buf);
                }
        return false;
    }
    return true;
}

/* co of every location chosen. */
static void co_done(struct ctx *c)
{
    const struct litmus_test *t = c->t;
    c->n_cur = 0;
    if (!c->cut_line && !c->stuck)
        outcomes(c, 0);
    if (halted(c) || settled(c))
        return;
    memset(c->x.rel[CR_CO], 0, c->n_ev * sizeof(uint64_t));
    for (unsigned l = 0; l < t->n_locs; l++) {
        if (t->locs[l].alias_of >= 0)
            continue;
        unsigned n = c->n_w[l];
        for (unsigned i = 0; i < n; i++) {
            c->x.rel[CR_CO][c->init_of[l]] |= 1ull << c->w[l][i];
            for (uint64_t s = c->lco[l][i]; s; s &= s - 1)
                c->x.rel[CR_CO][c->w[l][i]] |= 1ull << c->w[l][__builtin_ctzll(s)];
        }
    }
    if (!narrow_rf(c))
        return;
    memset(c->x.rel[CR_RF], 0, c->n_ev * sizeof(uint64_t));
    choose_rf(c, 0);
}

/* Total co: the writes of location l in every order. */
static void co_total(struct ctx *c, unsigned li, unsigned k, uint64_t used, unsigned *order);
static void choose_co(struct ctx *c, unsigned li);

static void co_total(struct ctx *c, unsigned li, unsigned k, uint64_t used, unsigned *order)
{
    unsigned l = c->wloc[li], n = c->n_w[l];
    if (halted(c))
        return;
    if (k == n) {
        for (unsigned i = 0; i < n; i++) {
            c->lco[l][order[i]] = 0;
            for (unsigned j = i + 1; j < n; j++)
                c->lco[l][order[i]] |= 1ull << order[j];
        }
        choose_co(c, li + 1);
        return;
    }
    for (unsigned i = 0; i < n; i++)
        if (!(used >> i & 1)) {
            order[k] = i;
            co_total(c, li, k + 1, used | 1ull << i, order);
        }
}

/* Partial co: every strict partial order of the writes of location l that
 * orders the pairs Coherence2 requires. */
static void co_partial(struct ctx *c, unsigned li, unsigned i, unsigned j)
{
    unsigned l = c->wloc[li], n = c->n_w[l];
    if (halted(c))
        return;
    if (j >= n) {
        i++;
        j = i + 1;
    }
    if (i + 1 >= n) {
        /* transitive? */
        for (unsigned a = 0; a < n; a++)
            for (uint64_t s = c->lco[l][a]; s; s &= s - 1)
                if (c->lco[l][__builtin_ctzll(s)] & ~c->lco[l][a])
                    return;
        choose_co(c, li + 1);
        return;
    }
    c->lco[l][i] |= 1ull << j;
    co_partial(c, li, i, j + 1);
    c->lco[l][i] &= ~(1ull << j);
    c->lco[l][j] |= 1ull << i;
    co_partial(c, li, i, j + 1);
    c->lco[l][j] &= ~(1ull << i);
    if (!(c->must_order[l][i] >> j & 1))
        co_partial(c, li, i, j + 1);
}

/* co of the locations before wloc[li] chosen, rf not yet: the partial
 * execution whose co holds those orders (and every initial write before the
 * other writes of its location) and no rf, between it and the one with
 * every order of the locations left and every rf candidate (refuted). */
static bool co_refuted(struct ctx *c, unsigned li)
{
    const struct litmus_test *t = c->t;
    uint64_t *lo = c->x.rel[CR_CO], *hi = c->x_hi.rel[CR_CO];
    memset(lo, 0, c->n_ev * sizeof(uint64_t));
    for (unsigned k = li; k < c->n_wlocs; k++) /* not chosen: every write may end last */
        memset(c->lco[c->wloc[k]], 0, sizeof c->lco[c->wloc[k]]);
    for (unsigned l = 0; l < t->n_locs; l++) {
        if (t->locs[l].alias_of >= 0)
            continue;
        for (unsigned i = 0; i < c->n_w[l]; i++) {
            lo[c->init_of[l]] |= 1ull << c->w[l][i];
            for (uint64_t s = c->lco[l][i]; s; s &= s - 1)
                lo[c->w[l][i]] |= 1ull << c->w[l][__builtin_ctzll(s)];
        }
    }
    memcpy(hi, lo, c->n_ev * sizeof(uint64_t));
    for (unsigned k = li; k < c->n_wlocs; k++) {
        unsigned l = c->wloc[k];
        uint64_t ws = 0;
        for (unsigned i = 0; i < c->n_w[l]; i++)
            ws |= 1ull << c->w[l][i];
        for (unsigned i = 0; i < c->n_w[l]; i++)
            hi[c->w[l][i]] |= ws & ~(1ull << c->w[l][i]);
    }
    memset(c->x.rel[CR_RF], 0, c->n_ev * sizeof(uint64_t));
    memset(c->x_hi.rel[CR_RF], 0, c->n_ev * sizeof(uint64_t));
    for (unsigned j = 0; j < c->n_reads; j++)
        for (uint64_t s = c->rf_cand[j]; s; s &= s - 1)
            c->x_hi.rel[CR_RF][__builtin_ctzll(s)] |= 1ull << c->reads[j];
    memset(c->x.rel[CR_SYNC_FENCE], 0, c->n_ev * sizeof(uint64_t));
    memcpy(c->x.rel[CR_SYNCBAR], c->bar_fixed, c->n_ev * sizeof(uint64_t));
    memcpy(c->x_hi.rel[CR_SYNC_FENCE], c->fence_all, c->n_ev * sizeof(uint64_t));
    memcpy(c->x_hi.rel[CR_SYNCBAR], c->bar_all, c->n_ev * sizeof(uint64_t));
    return refuted(c, true);
}

static void choose_co(struct ctx *c, unsigned li)
{
    if (halted(c))
        return;
    if (li == c->n_wlocs) {
        co_done(c);
        return;
    }
    /* with some co chosen and more than one order left to choose */
    bool choices_left = false;
    for (unsigned k = li; k < c->n_wlocs; k++)
        choices_left |= c->n_w[c->wloc[k]] > 1;
    if (li && choices_left && co_refuted(c, li))
        return;
    unsigned l = c->wloc[li];
    memset(c->lco[l], 0, sizeof c->lco[l]);
    if (c->partial_co) {
        co_partial(c, li, 0, 1);
    } else {
        unsigned order[CAT_MAX_EVENTS];
        co_total(c, li, 0, 0, order);
    }
}

/* ---- stage 2: one combination of traces ---- */

static bool is_member(const struct litmus_test *t, unsigned th, const struct tev *key)
{
    for (unsigned i = 0; i < t->th[th].n_instrs; i++) {
        const struct litmus_instr *in = &t->th[th].ins[i];
        if (in->op != LOP_BAR_SYNC && in->op != LOP_BAR_ARRIVE)
            continue;
        if (in->a.is_reg || in->a.v != key->bar_inst)
            continue;
        int id = -1;
        if (in->n_bar_ops >= 2) {
            if (in->b.is_reg && (t->th[th].regs_written >> in->b.v & 1))
                continue; /* decided at run time: a member only by arriving */
            id = in->b.is_reg ? t->th[th].reg_init[in->b.v] : in->b.v;
        }
        if (id == key->bar_id)
            return true;
    }
    return false;
}

/* In a candidate that never finishes, whether a barrier round that some
 * members (`absent`) never reach may stall: each absent thread spins or
 * waits elsewhere, and each arrival that waits (`waiting`) is one its thread
 * waits at forever. */
static bool round_stalls(const struct ctx *c, uint32_t absent, uint64_t waiting)
{
    if (!c->stuck || (waiting & ~c->blocked_bars))
        return false;
    for (uint32_t m = absent; m; m &= m - 1)
        if (c->pick[__builtin_ctz(m)]->end == TR_DONE)
            return false;
    return true;
}

/* Pair the barrier events: fixed edges, and the count groups whose
 * completers are a choice. False when some thread waits forever (unless
 * the candidate never finishes and that thread's trace ends waiting there). */
static bool plan_barriers(struct ctx *c)
{
    const struct litmus_test *t = c->t;
    memset(c->bar_fixed, 0, sizeof c->bar_fixed);
    c->n_quorums = 0;
    uint64_t done = 0, stalled = 0;
    for (unsigned e = 0; e < c->n_ev; e++) {
        if (c->ev[e].kind != EK_BAR || (done >> e & 1))
            continue;
        const struct tev *key = &c->ev[e];
        int kt = c->ev_thread[e];
        uint64_t grp = 0;
        bool counted = false;
        int count = 0;
        for (unsigned f = e; f < c->n_ev; f++) {
            const struct tev *o = &c->ev[f];
            int ft = c->ev_thread[f];
            if (o->kind == EK_BAR && o->bar_inst == key->bar_inst && o->bar_id == key->bar_id &&
                t->th[ft].gpu == t->th[kt].gpu && t->th[ft].cta == t->th[kt].cta) {
                grp |= 1ull << f;
                if (o->bar_count) {
                    counted = true;
                    count = o->bar_count;
                }
            }
        }
        done |= grp;
        if (counted) {
            if (c->n_quorums == LITMUS_MAX_GROUPS)
                return false;
            __typeof__(c->quorum[0]) *q = &c->quorum[c->n_quorums];
            q->n = 0;
            q->count = (unsigned)count;
            bool waits = false;
            uint64_t waiting = 0;
            for (uint64_t s = grp; s; s &= s - 1) {
                unsigned f = (unsigned)__builtin_ctzll(s);
                if (q->n == ARRAY_LEN(q->ev)) {
                    fail_limit(c, 0, "more than %zu arrivals at one counted barrier",
                               ARRAY_LEN(q->ev));
                    return false;
                }
                q->ev[q->n++] = f;
                waits |= !c->ev[f].arrive;
                waiting |= c->ev[f].arrive ? 0 : 1ull << f;
            }
            if (q->n < q->count) {
                if (waits && !round_stalls(c, 0, waiting))
                    return false; /* fewer than count ever arrive: a hang */
                stalled |= waiting;
                continue;         /* only arrivals that do not wait: no edges */
            }
            if (grp & c->blocked_bars)
                return false; /* which waiters are never released: not judged */
            c->n_quorums++;
            continue;
        }
        /* rounds: the k-th arrival of every member */
        uint32_t members = 0;
        for (unsigned th = 0; th < t->n_threads; th++)
            if (t->th[th].gpu == t->th[kt].gpu && t->th[th].cta == t->th[kt].cta &&
                is_member(t, th, key))
                members |= 1u << th;
        for (uint64_t s = grp; s; s &= s - 1)
            members |= 1u << c->ev_thread[__builtin_ctzll(s)];
        for (unsigned round = 0;; round++) {
            uint64_t in_round = 0, waiting = 0;
            uint32_t present = 0;
            bool waits = false;
            for (unsigned th = 0; th < t->n_threads; th++) {
                unsigned k = 0;
                for (uint64_t s = grp; s; s &= s - 1) {
                    unsigned f = (unsigned)__builtin_ctzll(s);
                    if (c->ev_thread[f] == (int)th && k++ == round) {
                        in_round |= 1ull << f;
                        present |= 1u << th;
                        waits |= !c->ev[f].arrive;
                        waiting |= c->ev[f].arrive ? 0 : 1ull << f;
                    }
                }
            }
            if (!in_round)
                break;
            if (present != members) {
                if (waits && !round_stalls(c, members & ~present, waiting))
                    return false;
                stalled |= waiting;
                continue;
            }
            for (uint64_t s = in_round; s; s &= s - 1) {
                unsigned a = (unsigned)__builtin_ctzll(s);
                for (uint64_t s2 = in_round; s2; s2 &= s2 - 1) {
                    unsigned b = (unsigned)__builtin_ctzll(s2);
                    if (a != b && !c->ev[b].arrive)
                        c->bar_fixed[a] |= 1ull << b;
                }
            }
        }
    }
    /* a thread said to wait forever at a barrier that completes would go on */
    return !(c->blocked_bars & ~stalled);
}

/* The generic address a location name stands for: itself, unless it is a
 * texture/surface/constant view of another location (vloc relates accesses
 * with the same generic address; a generic alias is an address of its own). */
static int generic_addr(const struct litmus_test *t, int loc)
{
    while (t->locs[loc].alias_of >= 0 && t->locs[loc].proxy != LPROXY_GENERIC)
        loc = t->locs[loc].alias_of;
    return loc;
}

static void build(struct ctx *c)
{
    const struct litmus_test *t = c->t;
    c->n_ev = 0;
    /* the initial writes */
    for (unsigned l = 0; l < t->n_locs; l++) {
        if (t->locs[l].alias_of >= 0)
            continue;
        if (c->n_ev == CAT_MAX_EVENTS)
            goto too_many;
        unsigned e = c->n_ev++;
        memset(&c->ev[e], 0, sizeof c->ev[e]);
        c->ev[e].kind = EK_W;
        c->ev[e].scope = SCOPE_N;
        c->ev[e].loc = c->ev[e].root = (int8_t)l;
        c->ev[e].value = t->locs[l].init;
        c->ev_thread[e] = -1;
        c->init_of[l] = e;
    }
    unsigned base[LITMUS_MAX_THREADS];
    for (unsigned th = 0; th < t->n_threads; th++) {
        const struct trace *tr = c->pick[th];
        base[th] = c->n_ev;
        if (c->n_ev + tr->n > CAT_MAX_EVENTS)
            goto too_many;
        for (unsigned i = 0; i < tr->n; i++) {
            c->ev[c->n_ev] = tr->ev[i];
            c->ev_thread[c->n_ev] = (int8_t)th;
            c->n_ev++;
        }
    }
    c->spin_reads = c->blocked_bars = 0;
    for (unsigned th = 0; th < t->n_threads; th++) {
        const struct trace *tr = c->pick[th];
        if (tr->end == TR_SPIN)
            c->spin_reads |= tr->spin_reads << base[th];
        else if (tr->end == TR_BLOCKED)
            c->blocked_bars |= 1ull << (base[th] + tr->n - 1);
    }
    unsigned n = c->n_ev;
    struct cat_exec *x = &c->x;
    memset(x, 0, sizeof *x);
    x->n = n;
    for (unsigned e = 0; e < n; e++) {
        const struct tev *ev = &c->ev[e];
        uint64_t bit = 1ull << e;
        int th = c->ev_thread[e];
        x->set[CS_ALL] |= bit;
        if (th < 0)
            x->set[CS_IW] |= bit;
        switch (ev->kind) {
        case EK_R: x->set[CS_R] |= bit; break;
        case EK_W: x->set[CS_W] |= bit; break;
        case EK_F: x->set[CS_F] |= bit; break;
        default: x->set[CS_BAR] |= bit; break;
        }
        if (ev->rmw_instr)
            x->set[CS_RMW_INSTR] |= bit;
        if (ev->kind == EK_R || ev->kind == EK_W) {
            if (ev->sem == SEM_RELAXED || ev->sem == SEM_VOLATILE)
                x->set[CS_RLX] |= bit;
            if (ev->sem == SEM_ACQUIRE)
                x->set[CS_ACQ] |= bit;
            if (ev->sem == SEM_RELEASE)
                x->set[CS_REL] |= bit;
        } else if (ev->kind == EK_F && !ev->pfence) {
            /* fence.sc is also an acq_rel fence */
            x->set[CS_ACQ_REL] |= bit;
            if (ev->sem == SEM_SC)
                x->set[CS_SC] |= bit;
        }
        if (ev->kind == EK_F && ev->pfence) {
            static const int tag[] = {[LPROXY_GENERIC] = CS_GEN, [LPROXY_TEXTURE] = CS_TEX,
                                      [LPROXY_SURFACE] = CS_SUR, [LPROXY_CONSTANT] = CS_CON,
                                      [LPROXY_ALIAS] = CS_ALIAS};
            x->set[tag[ev->proxy]] |= bit;
        } else {
            static const int tag[] = {[LPROXY_GENERIC] = CS_GEN, [LPROXY_TEXTURE] = CS_TEX,
                                      [LPROXY_SURFACE] = CS_SUR, [LPROXY_CONSTANT] = CS_CON,
                                      [LPROXY_ALIAS] = CS_GEN};
            x->set[tag[ev->proxy]] |= bit;
        }
    }
    x->set[CS_M] = x->set[CS_R] | x->set[CS_W];
    uint64_t mem = x->set[CS_M];
    for (unsigned a = 0; a < n; a++) {
        const struct tev *ea = &c->ev[a];
        int ta = c->ev_thread[a];
        x->rel[CR_ID][a] = 1ull << a;
        for (unsigned b = 0; b < n; b++) {
            const struct tev *eb = &c->ev[b];
            int tb = c->ev_thread[b];
            uint64_t bit = 1ull << b;
            bool both_m = (mem >> a & 1) && (mem >> b & 1);
            if (ta == tb)
                x->rel[CR_INT][a] |= bit;
            else
                x->rel[CR_EXT][a] |= bit;
            if (ta >= 0 && ta == tb && b > a)
                x->rel[CR_PO][a] |= bit;
            if (both_m && ea->root == eb->root)
                x->rel[CR_LOC][a] |= bit;
            if (both_m && generic_addr(t, ea->loc) == generic_addr(t, eb->loc))
                x->rel[CR_VLOC][a] |= bit;
            if (ta >= 0 && tb >= 0 && t->th[ta].gpu == t->th[tb].gpu &&
                t->th[ta].cta == t->th[tb].cta)
                x->rel[CR_SCTA][a] |= bit;
            if (ta >= 0 && tb >= 0 && ea->scope < SCOPE_N && eb->scope < SCOPE_N &&
                scope_has(t, ea->scope, ta, tb) && scope_has(t, eb->scope, tb, ta))
                x->rel[CR_SR][a] |= bit;
        }
        x->rel[CR_PO_LOC][a] = x->rel[CR_PO][a] & x->rel[CR_LOC][a];
    }
    /* rmw and dependencies (thread-local indices to global) */
    for (unsigned th = 0; th < t->n_threads; th++) {
        const struct trace *tr = c->pick[th];
        for (unsigned i = 0; i < tr->n; i++) {
            unsigned g = base[th] + i;
            if (tr->rmw_w[i] >= 0)
                x->rel[CR_RMW][g] |= 1ull << (base[th] + (unsigned)tr->rmw_w[i]);
            for (uint64_t s = tr->ev[i].data; s; s &= s - 1)
                x->rel[CR_DATA][base[th] + (unsigned)__builtin_ctzll(s)] |= 1ull << g;
            for (uint64_t s = tr->ev[i].ctrl; s; s &= s - 1)
                x->rel[CR_CTRL][base[th] + (unsigned)__builtin_ctzll(s)] |= 1ull << g;
        }
    }
    /* reads and their candidate writes */
    c->n_reads = 0;
    for (unsigned e = 0; e < n; e++) {
        if (c->ev[e].kind != EK_R)
            continue;
        uint64_t cand = 0;
        for (unsigned w = 0; w < n; w++)
            if (c->ev[w].kind == EK_W && c->ev[w].root == c->ev[e].root &&
                c->ev[w].value == c->ev[e].value && !(x->rel[CR_RMW][e] >> w & 1))
                cand |= 1ull << w;
        if (!cand)
            return; /* no write gives this value: not an execution */
        c->rf_cand[c->n_reads] = cand;
        c->reads[c->n_reads++] = e;
    }
    /* writes per location */
    c->n_wlocs = 0;
    for (unsigned l = 0; l < t->n_locs; l++) {
        c->n_w[l] = 0;
        if (t->locs[l].alias_of >= 0)
            continue;
        for (unsigned e = 0; e < n; e++)
            if (c->ev[e].kind == EK_W && c->ev_thread[e] >= 0 && c->ev[e].root == (int)l)
                c->w[l][c->n_w[l]++] = e;
        if (c->n_w[l])
            c->wloc[c->n_wlocs++] = l;
        /* Coherence2 orders morally strong writes: same thread, or both strong
         * and each in the other's scope */
        for (unsigned i = 0; i < c->n_w[l]; i++) {
            c->must_order[l][i] = 0;
            unsigned a = c->w[l][i];
            for (unsigned j = 0; j < c->n_w[l]; j++) {
                unsigned b = c->w[l][j];
                bool strong = c->ev[a].sem != SEM_WEAK && c->ev[b].sem != SEM_WEAK;
                if (i != j && c->ev[a].proxy == c->ev[b].proxy &&
                    (x->rel[CR_VLOC][a] >> b & 1) &&
                    (c->ev_thread[a] == c->ev_thread[b] ||
                     (strong && (x->rel[CR_SR][a] >> b & 1))))
                    c->must_order[l][i] |= 1ull << j;
            }
        }
    }
    /* fence.sc and which pairs are morally strong (po-related, or each in
     * the other's scope) */
    c->n_fsc = 0;
    for (unsigned e = 0; e < n; e++)
        if (x->set[CS_SC] >> e & 1)
            c->fsc[c->n_fsc++] = e;
    for (unsigned i = 0; i < c->n_fsc; i++) {
        unsigned a = c->fsc[i];
        c->fsc_ms[a] = 0;
        for (unsigned j = 0; j < c->n_fsc; j++) {
            unsigned b = c->fsc[j];
            if (a != b && ((x->rel[CR_PO][a] >> b & 1) || (x->rel[CR_PO][b] >> a & 1) ||
                           (x->rel[CR_SR][a] >> b & 1)))
                c->fsc_ms[a] |= 1ull << b;
        }
    }
    if (!plan_barriers(c))
        return;
    /* the bounds of the partial executions (refuted): the fixed part is the
     * candidate's, and every edge a fence.sc order or a choice of barrier
     * completers may add */
    c->x_hi.n = n;
    memcpy(c->x_hi.set, x->set, sizeof x->set);
    for (unsigned r = 0; r < CR_N; r++)
        memcpy(c->x_hi.rel[r], x->rel[r], n * sizeof(uint64_t));
    for (unsigned i = 0; i < n; i++)
        c->fence_all[i] = 0;
    for (unsigned i = 0; i < c->n_fsc; i++)
        c->fence_all[c->fsc[i]] = c->fsc_ms[c->fsc[i]];
    memcpy(c->bar_all, c->bar_fixed, n * sizeof(uint64_t));
    for (unsigned k = 0; k < c->n_quorums; k++)
        quorum_edges(c, k, (1u << c->quorum[k].n) - 1, c->bar_all);
    choose_co(c, 0);
    return;
too_many:
    fail_limit(c, 0, "more than %d events in one execution; the oracle cannot enumerate it",
               CAT_MAX_EVENTS);
}

static void combine(struct ctx *c, unsigned th)
{
    if (halted(c))
        return;
    if (th == c->t->n_threads) {
        if (++c->n_combos > MAX_CANDIDATES) {
            fail_limit(c, 0,
                       "more than %llu combinations of thread traces; the oracle cannot "
                       "enumerate it",
                       MAX_CANDIDATES);
            return;
        }
        c->cut_line = 0;
        c->stuck = false;
        bool blocked = false;
        for (unsigned k = 0; k < th; k++) {
            if (c->pick[k]->cut_line)
                c->cut_line = c->pick[k]->cut_line;
            c->stuck |= c->pick[k]->end == TR_SPIN;
            blocked |= c->pick[k]->end == TR_BLOCKED;
        }
        /* waiting forever with nobody spinning is a barrier hang (the SC
         * search finds those); a spin beside a trace cut at the unroll bound
         * is not judged */
        if ((blocked && !c->stuck) || (c->stuck && c->cut_line))
            return;
        build(c);
        return;
    }
    for (unsigned k = 0; k < c->ts[th].n && !halted(c); k++) {
        c->pick[th] = &c->ts[th].v[k];
        combine(c, th + 1);
    }
}

/* ---- results ---- */

static unsigned sort_n;
static int cmp_rows(const void *a, const void *b)
{
    return litmus_outcome_cmp(*(int32_t *const *)a, *(int32_t *const *)b, sort_n);
}

static int sort_result(struct oracle_result *r)
{
    unsigned k = r->n_outcomes, n = r->n_obs;
    if (k < 2)
        return 0;
    int32_t **rows = malloc(k * sizeof *rows);
    int32_t *vals = malloc((uint64_t)k * (n ? n : 1) * sizeof *vals);
    bool *al = malloc(k * sizeof *al);
    char **why = malloc(k * sizeof *why);
    if (!rows || !vals || !al || !why) {
        free(rows), free(vals), free(al), free(why);
        return -1;
    }
    for (unsigned i = 0; i < k; i++)
        rows[i] = r->outcomes + (uint64_t)i * n;
    sort_n = n;
    qsort(rows, k, sizeof *rows, cmp_rows);
    for (unsigned i = 0; i < k; i++) {
        unsigned from = (unsigned)((rows[i] - r->outcomes) / (n ? n : 1));
        memcpy(vals + (uint64_t)i * n, rows[i], n * sizeof *vals);
        al[i] = r->allowed[from];
        why[i] = r->why[from];
    }
    free(r->outcomes), free(r->allowed), free(r->why), free(rows);
    r->outcomes = vals;
    r->allowed = al;
    r->why = why;
    return 0;
}

int oracle_judge(const struct litmus_test *t, enum oracle_model m, const struct oracle_opts *o,
                 struct oracle_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->model = m;
    r->n_obs = t->n_obs;
    struct ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    c->t = t;
    c->cat = oracle_cat(m);
    c->unroll = o && o->unroll ? o->unroll : ORACLE_DEFAULT_UNROLL;
    c->explain = o && o->explain;
    c->liveness = o && o->liveness;
    c->first_finishing = o && o->first_finishing && !c->liveness;
    c->partial_co = m == OM_PTX || m == OM_PTX6; /* "the co in PTX is not total" */
    c->err = err;
    c->errlen = errlen;
    c->r = r;
    r->unroll = c->unroll;
    chain_locations(c, m);
    make_traces(c);
    if (!c->failed)
        combine(c, 0);
    if (!c->failed && c->first_finishing && !c->found && c->deferred_cut)
        fail_limit(c, c->deferred_cut,
                   "a loop takes more than %u backward jumps (the unroll bound) in a consistent "
                   "execution, and none within the bound finishes",
                   c->unroll);
    r->max_backjumps = c->max_backjumps;
    for (unsigned th = 0; th < LITMUS_MAX_THREADS; th++)
        free(c->ts[th].v);
    bool failed = c->failed, limit = c->limit;
    free(c);
    if (!failed && sort_result(r)) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        failed = true;
    }
    if (failed) {
        oracle_result_free(r);
        return limit ? ORACLE_LIMIT : -1;
    }
    for (unsigned i = 0; i < r->n_outcomes; i++)
        r->n_allowed += r->allowed[i];
    return 0;
}

void oracle_result_free(struct oracle_result *r)
{
    if (r->why)
        for (unsigned i = 0; i < r->n_outcomes; i++)
            free(r->why[i]);
    free(r->why);
    free(r->outcomes);
    free(r->allowed);
    memset(r, 0, sizeof *r);
}

bool oracle_allows(const struct oracle_result *r, const int32_t *values)
{
    int i = litmus_outcome_find(r->outcomes, r->n_outcomes, r->n_obs, values);
    return i >= 0 && r->allowed[i];
}

bool oracle_cond_reachable(const struct litmus_test *t, const struct oracle_result *r, bool want)
{
    for (unsigned i = 0; i < r->n_outcomes; i++)
        if (r->allowed[i] && litmus_cond_holds(t, r->outcomes + (uint64_t)i * r->n_obs) == want)
            return true;
    return false;
}

/* A constant condition's verdict from its value and whether some execution
 * finishes (any: 1, none: 0, unknown: -1); -1 when that is unknown and
 * matters. */
static int constant_verdict(enum litmus_kind kind, bool holds, int any)
{
    switch (kind) {
    case LITMUS_EXISTS:
        return !holds ? 0 : any;
    case LITMUS_NOT_EXISTS:
        return !holds ? 1 : any < 0 ? -1 : !any;
    default:
        return holds ? 1 : any < 0 ? -1 : !any;
    }
}

int oracle_verdict(const struct litmus_test *t, const struct oracle_result *r)
{
    int holds = litmus_cond_constant(t);
    if (holds >= 0)
        return constant_verdict(t->kind, holds, r->n_allowed > 0);
    switch (t->kind) {
    case LITMUS_EXISTS:
        return oracle_cond_reachable(t, r, true);
    case LITMUS_NOT_EXISTS:
        return !oracle_cond_reachable(t, r, true);
    default:
        return !oracle_cond_reachable(t, r, false);
    }
}

bool oracle_constant_verdict(const struct litmus_test *t, enum oracle_model m, unsigned unroll,
                             int *verdict, char *err, size_t errlen)
{
    int holds = litmus_cond_constant(t);
    if (holds < 0)
        return false;
    *verdict = constant_verdict(t->kind, holds, -1);
    if (*verdict >= 0)
        return true;
    struct oracle_result r;
    struct oracle_opts o = {.unroll = unroll, .first_finishing = true};
    if (!oracle_judge(t, m, &o, &r, err, errlen)) {
        *verdict = constant_verdict(t->kind, holds, r.n_allowed > 0);
        oracle_result_free(&r);
    }
    return true;
}

const char *oracle_constant_note(const struct litmus_test *t)
{
    int holds = litmus_cond_constant(t);
    if (holds < 0)
        return "";
    bool needs_any = constant_verdict(t->kind, holds, -1) < 0;
    if (holds)
        return needs_any ? "constant condition (true in every outcome): the verdict is whether "
                           "some execution finishes"
                         : "constant condition (true in every outcome): the verdict holds "
                           "whatever the executions";
    return needs_any ? "constant condition (false in every outcome): the verdict is whether "
                       "some execution finishes"
                     : "constant condition (false in every outcome): the verdict holds "
                       "whatever the executions";
}

void oracle_print(const struct litmus_test *t, const struct oracle_result *r, FILE *out)
{
    char buf[512];
    for (unsigned i = 0; i < r->n_outcomes; i++) {
        const int32_t *v = r->outcomes + (uint64_t)i * r->n_obs;
        litmus_outcome_format(t, v, buf, sizeof buf);
        fprintf(out, "  %-9s %c %s\n", r->allowed[i] ? "allowed" : "FORBIDDEN",
                litmus_cond_holds(t, v) ? '*' : ':', buf);
        if (!r->allowed[i] && r->why && r->why[i])
            fprintf(out, "    %s", r->why[i]);
    }
}
