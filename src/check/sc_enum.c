/*
 * sc_enum.c - exhaustive SC interleaving search over a litmus test.
 *
 * A state is a flat vector of 32-bit words: per thread its pc and a waiting
 * flag, then the registers each thread uses, the physical locations, and per
 * barrier group its arrival mask and completion flag. States are interned in
 * an open-addressing hash set over one growing arena, and explored depth
 * first with an explicit stack, so the search allocates only when the arena
 * or the set grows. Then the strongly connected sets of states say whether a
 * fair interleaving can run forever (find_livelock), once for every
 * interleaving and, where threads are lanes of one warp, once for those in
 * the SIMT order (struct search's simt_first).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/sc_enum.h"

#include <stdlib.h>
#include <string.h>

struct layout {
    unsigned words;
    unsigned pc, wait;                                 /* offsets of the per-thread arrays */
    unsigned reg[LITMUS_MAX_THREADS][LITMUS_MAX_REGS]; /* offset of each used register */
    unsigned mem, arrived, done;
};

struct search {
    const struct litmus_test *t;
    struct layout ly;
    int32_t *arena;  /* states, ly.words each */
    uint64_t n, cap; /* states stored, capacity */
    uint32_t *slots; /* hash set: index + 1, 0 = empty */
    uint64_t n_slots;
    uint64_t *stack;
    uint64_t sp, stack_cap;
    int32_t *outs; /* outcomes found (unsorted, may repeat until the end) */
    uint64_t n_outs, outs_cap;
    bool hang;
    /* per thread: the lanes of its warp that the SIMT stack runs to their end
     * before it starts (those in later columns); 0 for a warp of its own */
    uint32_t simt_first[LITMUS_MAX_THREADS];
};

/* The SIMT order of the test's lanes: threads of one CTA naming the same
 * warp run one at a time, the later column first (litmus_ptx.c dispatches
 * them by a chain of branches whose fall-through side the PDOM stack runs
 * first, and they reconverge only at the kernel's end). Returns whether
 * any thread shares a warp. */
static bool simt_order(const struct litmus_test *t, uint32_t *first)
{
    bool shared = false;
    for (unsigned a = 0; a < t->n_threads; a++) {
        const struct litmus_thread *ta = &t->th[a];
        first[a] = 0;
        for (unsigned b = a + 1; b < t->n_threads && ta->warp >= 0 && !ta->on_cpu; b++) {
            const struct litmus_thread *tb = &t->th[b];
            if (!tb->on_cpu && tb->warp == ta->warp && tb->cta == ta->cta && tb->gpu == ta->gpu &&
                tb->gpm == ta->gpm) {
                first[a] |= 1u << b;
                shared = true;
            }
        }
    }
    return shared;
}

static void make_layout(const struct litmus_test *t, struct layout *ly)
{
    unsigned w = 0;
    ly->pc = w;
    w += t->n_threads;
    ly->wait = w;
    w += t->n_threads;
    for (unsigned th = 0; th < t->n_threads; th++)
        for (int r = 0; r < LITMUS_MAX_REGS; r++)
            ly->reg[th][r] = (t->th[th].regs_used & (1u << r)) ? w++ : UINT32_MAX;
    ly->mem = w;
    w += t->n_locs;
    ly->arrived = w;
    w += t->n_groups;
    ly->done = w;
    w += t->n_groups;
    ly->words = w;
}

static uint64_t hash(const int32_t *s, unsigned n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (unsigned i = 0; i < n; i++) {
        h ^= (uint32_t)s[i];
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h;
}

static bool grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    uint64_t nc = *cap ? *cap : 1024;
    while (nc < need)
        nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q)
        return false;
    *p = q;
    *cap = nc;
    return true;
}

static bool rehash(struct search *s)
{
    uint64_t ns = s->n_slots ? s->n_slots * 2 : 4096;
    uint32_t *sl = calloc(ns, sizeof *sl);
    if (!sl)
        return false;
    for (uint64_t i = 0; i < s->n; i++) {
        uint64_t h = hash(s->arena + i * s->ly.words, s->ly.words) & (ns - 1);
        while (sl[h])
            h = (h + 1) & (ns - 1);
        sl[h] = (uint32_t)(i + 1);
    }
    free(s->slots);
    s->slots = sl;
    s->n_slots = ns;
    return true;
}

/* Intern a state. Returns 1 when new (and pushed), 0 when seen, -1 on OOM. */
static int intern(struct search *s, const int32_t *st)
{
    unsigned w = s->ly.words;
    if ((s->n + 1) * 2 > s->n_slots && !rehash(s))
        return -1;
    uint64_t h = hash(st, w) & (s->n_slots - 1);
    while (s->slots[h]) {
        if (!memcmp(s->arena + (uint64_t)(s->slots[h] - 1) * w, st, w * sizeof *st))
            return 0;
        h = (h + 1) & (s->n_slots - 1);
    }
    if (!grow((void **)&s->arena, &s->cap, (s->n + 1) * w, sizeof *s->arena) ||
        !grow((void **)&s->stack, &s->stack_cap, s->sp + 1, sizeof *s->stack))
        return -1;
    memcpy(s->arena + s->n * w, st, w * sizeof *st);
    s->slots[h] = (uint32_t)(s->n + 1);
    s->stack[s->sp++] = s->n;
    s->n++;
    return 1;
}

/* The index of a state already interned. */
static uint64_t lookup(const struct search *s, const int32_t *st)
{
    unsigned w = s->ly.words;
    uint64_t h = hash(st, w) & (s->n_slots - 1);
    while (memcmp(s->arena + (uint64_t)(s->slots[h] - 1) * w, st, w * sizeof *st))
        h = (h + 1) & (s->n_slots - 1);
    return s->slots[h] - 1;
}

static int32_t val(const struct search *s, const int32_t *st, unsigned th,
                   const struct litmus_val *v)
{
    return v->is_reg ? st[s->ly.reg[th][v->v]] : v->v;
}

/* Completion of barrier group g after an arrival. */
static void bar_check(const struct search *s, int32_t *st, unsigned g)
{
    const struct litmus_test *t = s->t;
    const struct litmus_bar_group *bg = &t->groups[g];
    uint32_t arrived = (uint32_t)st[s->ly.arrived + g];
    bool complete;
    if (bg->count)
        complete = (unsigned)__builtin_popcount(arrived) >= (unsigned)bg->count;
    else
        complete = (arrived & bg->members) == bg->members;
    if (!complete)
        return;
    for (unsigned th = 0; th < t->n_threads; th++) {
        int32_t pc = st[s->ly.pc + th];
        if (st[s->ly.wait + th] && t->bar_group[th][pc] == (int)g) {
            st[s->ly.wait + th] = 0;
            st[s->ly.pc + th] = pc + 1;
        }
    }
    if (bg->count)
        st[s->ly.done + g] = 1;
    else
        st[s->ly.arrived + g] = 0;
}

/* Run thread th one instruction in st (a copy). */
static void step(const struct search *s, int32_t *st, unsigned th)
{
    const struct litmus_test *t = s->t;
    const struct layout *ly = &s->ly;
    int32_t pc = st[ly->pc + th];
    const struct litmus_instr *in = &t->th[th].ins[pc];
    int32_t *mem = in->loc >= 0 ? &st[ly->mem + t->locs[in->loc].root] : NULL;
    int32_t next = pc + 1;
    switch (in->op) {
    case LOP_LD:
        st[ly->reg[th][in->dst]] = *mem;
        break;
    case LOP_ST:
        *mem = val(s, st, th, &in->a);
        break;
    case LOP_ATOM:
    case LOP_RED: {
        uint32_t old = (uint32_t)*mem, a = (uint32_t)in->a.v, nw = old;
        switch (in->atom) {
        case ATOM_ADD:
            nw = old + a;
            break;
        case ATOM_SUB:
            nw = old - a;
            break;
        case ATOM_EXCH:
            nw = a;
            break;
        case ATOM_CAS:
            nw = old == a ? (uint32_t)in->b.v : old;
            break;
        default:
            break;
        }
        *mem = (int32_t)nw;
        if (in->op == LOP_ATOM)
            st[ly->reg[th][in->dst]] = (int32_t)old;
        break;
    }
    case LOP_ADD:
        st[ly->reg[th][in->dst]] =
            (int32_t)((uint32_t)val(s, st, th, &in->a) + (uint32_t)val(s, st, th, &in->b));
        break;
    case LOP_BEQ:
    case LOP_BNE: {
        bool eq = val(s, st, th, &in->a) == val(s, st, th, &in->b);
        if (eq == (in->op == LOP_BEQ))
            next = in->target;
        break;
    }
    case LOP_GOTO:
        next = in->target;
        break;
    case LOP_BAR_SYNC: {
        int g = t->bar_group[th][pc];
        if (st[ly->done + g])
            break; /* completed already: a late arrival passes */
        st[ly->arrived + g] |= (int32_t)(1u << th);
        st[ly->wait + th] = 1;
        next = pc;
        bar_check(s, st, (unsigned)g);
        return; /* bar_check moved the pc if it released us */
    }
    case LOP_BAR_ARRIVE: {
        int g = t->bar_group[th][pc];
        st[ly->pc + th] = next;
        if (!st[ly->done + g]) {
            st[ly->arrived + g] |= (int32_t)(1u << th);
            bar_check(s, st, (unsigned)g);
        }
        return;
    }
    default: /* fences: no effect under SC */
        break;
    }
    st[ly->pc + th] = next;
}

static int record_outcome(struct search *s, const int32_t *st)
{
    const struct litmus_test *t = s->t;
    if (!grow((void **)&s->outs, &s->outs_cap, (s->n_outs + 1) * t->n_obs, sizeof *s->outs))
        return -1;
    int32_t *o = s->outs + s->n_outs * t->n_obs;
    for (unsigned i = 0; i < t->n_obs; i++) {
        const struct litmus_term *ob = &t->obs[i];
        o[i] =
            ob->kind == LT_REG ? st[s->ly.reg[ob->thread][ob->index]] : st[s->ly.mem + ob->index];
    }
    s->n_outs++;
    return 0;
}

/* Threads of state v that can move (not finished, not waiting at a
 * barrier; in the SIMT order, not behind an unfinished lane of their warp).
 * `blocked` (may be NULL) gets those that could but for the SIMT order. */
static uint32_t movers(const struct search *s, uint64_t v, bool simt, uint32_t *blocked)
{
    const int32_t *cs = s->arena + v * s->ly.words;
    uint32_t m = 0, unfinished = 0, held = 0;
    for (unsigned th = 0; th < s->t->n_threads; th++)
        if (cs[s->ly.pc + th] < (int32_t)s->t->th[th].n_instrs) {
            unfinished |= 1u << th;
            if (!cs[s->ly.wait + th])
                m |= 1u << th;
        }
    for (unsigned th = 0; th < s->t->n_threads && simt; th++)
        if ((m >> th & 1) && (s->simt_first[th] & unfinished))
            held |= 1u << th;
    if (blocked)
        *blocked = held;
    return m & ~held;
}

/* The state thread th moves v to. */
static uint64_t successor(struct search *s, uint64_t v, unsigned th, int32_t *st)
{
    memcpy(st, s->arena + v * s->ly.words, s->ly.words * sizeof *st);
    step(s, st, th);
    return lookup(s, st);
}

/* What find_livelock finds. */
struct livelock {
    bool found;
    bool hang;   /* a reachable state where nobody may move though some have not finished */
    int spinner; /* a thread that moves forever in the livelock */
    int waiter;  /* a thread the SIMT order holds there, -1 none */
};

/* Whether some fair interleaving runs forever: a strongly connected set of
 * reachable states (Tarjan's algorithm, iterative) inside which every
 * thread that can move somewhere in the set moves at least once. A fair
 * scheduler (a thread that can move infinitely often does move) can then
 * cycle there forever; otherwise every fair interleaving leaves each such
 * set and ends. The spin loops of a state repeat it: a self-loop. With
 * `simt`, threads move only in the SIMT order (movers), and only the states
 * that order reaches from the initial one count: a set of states is reached
 * whole or not at all, since its states reach each other. */
static int find_livelock(struct search *s, bool simt, struct livelock *ll)
{
    const uint32_t none = UINT32_MAX;
    uint64_t n = s->n;
    uint32_t *idx = malloc(n * sizeof *idx), *low = malloc(n * sizeof *low);
    uint32_t *comp = malloc(n * sizeof *comp), *tstack = malloc(n * sizeof *tstack);
    struct frame {
        uint32_t v;
        uint8_t th;
    } *call = malloc(n * sizeof *call);
    uint32_t *moved = calloc(n, sizeof *moved), *can = calloc(n, sizeof *can);
    uint32_t *held = calloc(n, sizeof *held);
    int32_t *st = malloc(s->ly.words * sizeof *st);
    bool *on = calloc(n, sizeof *on), *reached = malloc(n * sizeof *reached);
    int rc = -1;
    if (!idx || !low || !comp || !tstack || !call || !moved || !can || !held || !st || !on ||
        !reached)
        goto out;
    /* the states the scheduler reaches: all of them without the SIMT order
     * (the search found each from the initial state); with it, a walk over
     * the SIMT order's moves (idx as the walk's stack) */
    memset(reached, !simt, n * sizeof *reached);
    if (simt) {
        uint64_t wsp = 0;
        reached[0] = true;
        idx[wsp++] = 0;
        while (wsp) {
            uint32_t v = idx[--wsp];
            uint32_t m = movers(s, v, true, NULL);
            for (unsigned th = 0; th < s->t->n_threads; th++) {
                if (!(m >> th & 1))
                    continue;
                uint64_t u = successor(s, v, th, st);
                if (!reached[u]) {
                    reached[u] = true;
                    idx[wsp++] = (uint32_t)u;
                }
            }
        }
    }
    for (uint64_t v = 0; v < n; v++)
        idx[v] = comp[v] = none;
    uint32_t next = 0, n_comp = 0, tsp = 0;
    for (uint64_t root = 0; root < n; root++) {
        if (idx[root] != none)
            continue;
        uint64_t csp = 0;
        call[csp++] = (struct frame){(uint32_t)root, 0};
        idx[root] = low[root] = next++;
        tstack[tsp++] = (uint32_t)root;
        on[root] = true;
        while (csp) {
            struct frame *f = &call[csp - 1];
            uint32_t v = f->v;
            if (f->th < s->t->n_threads) {
                unsigned th = f->th++;
                if (!(movers(s, v, simt, NULL) >> th & 1))
                    continue;
                uint64_t u = successor(s, v, th, st);
                if (idx[u] == none) {
                    idx[u] = low[u] = next++;
                    tstack[tsp++] = (uint32_t)u;
                    on[u] = true;
                    call[csp++] = (struct frame){(uint32_t)u, 0};
                } else if (on[u] && idx[u] < low[v]) {
                    low[v] = idx[u];
                }
                continue;
            }
            csp--;
            if (csp && low[v] < low[call[csp - 1].v])
                low[call[csp - 1].v] = low[v];
            if (low[v] != idx[v])
                continue;
            uint32_t u;
            do {
                u = tstack[--tsp];
                on[u] = false;
                comp[u] = n_comp;
            } while (u != v);
            n_comp++;
        }
    }
    /* per component reached: the threads that can move in it, those that
     * move without leaving it, and those the SIMT order holds there
     * (indexed by component number) */
    *ll = (struct livelock){.spinner = -1, .waiter = -1};
    for (uint64_t v = 0; v < n; v++) {
        if (!reached[v])
            continue;
        uint32_t h, m = movers(s, v, simt, &h);
        can[comp[v]] |= m;
        held[comp[v]] |= h;
        for (unsigned th = 0; th < s->t->n_threads; th++)
            if ((m >> th & 1) && comp[successor(s, v, th, st)] == comp[v])
                moved[comp[v]] |= 1u << th;
        const int32_t *cs = s->arena + v * s->ly.words;
        for (unsigned th = 0; th < s->t->n_threads && !m; th++)
            ll->hang |= cs[s->ly.pc + th] < (int32_t)s->t->th[th].n_instrs;
    }
    for (uint32_t k = 0; k < n_comp && !ll->found; k++)
        if (moved[k] && !(can[k] & ~moved[k])) {
            ll->found = true;
            ll->spinner = __builtin_ctz(moved[k]);
            ll->waiter = held[k] ? __builtin_ctz(held[k]) : -1;
        }
    rc = 0;
out:
    free(idx), free(low), free(comp), free(tstack), free(call), free(moved), free(can);
    free(held), free(st), free(on), free(reached);
    return rc;
}

static unsigned cmp_n; /* outcome width for qsort */
static int cmp_vals(const void *a, const void *b)
{
    return litmus_outcome_cmp(a, b, cmp_n);
}

int sc_enumerate(const struct litmus_test *t, struct sc_result *r, uint64_t max_states, char *err,
                 size_t errlen)
{
    if (!max_states)
        max_states = 4u << 20;
    struct search s = {.t = t};
    make_layout(t, &s.ly);
    memset(r, 0, sizeof *r);
    r->n_obs = t->n_obs;
    int32_t *st = calloc(s.ly.words, sizeof *st);
    int rc = -1;
    if (!st)
        goto oom;
    for (unsigned th = 0; th < t->n_threads; th++)
        for (int q = 0; q < LITMUS_MAX_REGS; q++)
            if (s.ly.reg[th][q] != UINT32_MAX)
                st[s.ly.reg[th][q]] = t->th[th].reg_init[q];
    for (unsigned l = 0; l < t->n_locs; l++)
        st[s.ly.mem + l] = t->locs[t->locs[l].root].init;
    if (intern(&s, st) < 0)
        goto oom;
    while (s.sp) {
        uint64_t cur = s.stack[--s.sp];
        bool moved = false, all_done = true;
        for (unsigned th = 0; th < t->n_threads; th++) {
            const int32_t *cs = s.arena + cur * s.ly.words; /* the arena may move */
            if (cs[s.ly.pc + th] >= (int32_t)t->th[th].n_instrs)
                continue;
            all_done = false;
            if (cs[s.ly.wait + th])
                continue;
            memcpy(st, cs, s.ly.words * sizeof *st);
            step(&s, st, th);
            moved = true;
            if (intern(&s, st) < 0)
                goto oom;
            if (s.n > max_states) {
                snprintf(err, errlen, "%s: more than %llu SC states; test too large to enumerate",
                         t->path, (unsigned long long)max_states);
                goto out;
            }
        }
        if (all_done) {
            if (record_outcome(&s, s.arena + cur * s.ly.words))
                goto oom;
        } else if (!moved) {
            s.hang = true;
        }
    }
    struct livelock ll;
    if (find_livelock(&s, false, &ll))
        goto oom;
    r->may_livelock = ll.found;
    r->simt_spinner = r->simt_waiter = -1;
    r->simt_ordered = simt_order(t, s.simt_first);
    if (r->simt_ordered) {
        if (find_livelock(&s, true, &ll))
            goto oom;
        r->simt_may_livelock = ll.found;
        r->simt_may_hang = ll.hang;
        r->simt_spinner = ll.spinner;
        r->simt_waiter = ll.waiter;
    }
    cmp_n = t->n_obs;
    if (s.n_outs && t->n_obs)
        qsort(s.outs, s.n_outs, t->n_obs * sizeof(int32_t), cmp_vals);
    uint64_t k = 0;
    for (uint64_t i = 0; i < s.n_outs; i++)
        if (!k || litmus_outcome_cmp(s.outs + (k - 1) * t->n_obs, s.outs + i * t->n_obs, t->n_obs))
            memmove(s.outs + (k++) * t->n_obs, s.outs + i * t->n_obs, t->n_obs * sizeof(int32_t));
    if (!t->n_obs && s.n_outs)
        k = 1;
    r->n_outcomes = (unsigned)k;
    r->outcomes = s.outs;
    s.outs = NULL;
    r->may_hang = s.hang;
    r->n_states = s.n;
    rc = 0;
    goto out;
oom:
    snprintf(err, errlen, "%s: out of memory enumerating SC states", t->path);
out:
    free(st);
    free(s.arena);
    free(s.slots);
    free(s.stack);
    free(s.outs);
    return rc;
}

void sc_result_free(struct sc_result *r)
{
    free(r->outcomes);
    memset(r, 0, sizeof *r);
}

bool sc_allows(const struct sc_result *r, const int32_t *values)
{
    return litmus_outcome_find(r->outcomes, r->n_outcomes, r->n_obs, values) >= 0;
}

bool sc_cond_reachable(const struct litmus_test *t, const struct sc_result *r, bool want)
{
    for (unsigned i = 0; i < r->n_outcomes; i++)
        if (litmus_cond_holds(t, r->outcomes + (uint64_t)i * r->n_obs) == want)
            return true;
    return false;
}
