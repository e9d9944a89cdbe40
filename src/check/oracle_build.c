/*
 * oracle_build.c - stage 2 of the litmus oracle: each combination of
 * one trace per thread, and for it the execution's fixed part: its events,
 * base sets and relations (po, loc, scopes, dependencies, ...), the candidate
 * writes of each read, the coherence pairs that must be ordered, and the
 * barrier pairing; then stage 3 chooses inside it (oracle_int.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/oracle_int.h"

#include <string.h>

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
                    oracle_fail_limit(c, 0, "more than %zu arrivals at one counted barrier",
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
                continue; /* only arrivals that do not wait: no edges */
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

/* The candidate's base sets: each event's kind, semantics and proxy. */
static void event_sets(struct ctx *c)
{
    unsigned n = c->n_ev;
    struct cat_exec *x = &c->x;
    for (unsigned e = 0; e < n; e++) {
        const struct tev *ev = &c->ev[e];
        uint64_t bit = 1ull << e;
        int th = c->ev_thread[e];
        x->set[CS_ALL] |= bit;
        if (th < 0)
            x->set[CS_IW] |= bit;
        switch (ev->kind) {
        case EK_R:
            x->set[CS_R] |= bit;
            break;
        case EK_W:
            x->set[CS_W] |= bit;
            break;
        case EK_F:
            x->set[CS_F] |= bit;
            break;
        default:
            x->set[CS_BAR] |= bit;
            break;
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
            static const int tag[] = {[LPROXY_GENERIC] = CS_GEN,
                                      [LPROXY_TEXTURE] = CS_TEX,
                                      [LPROXY_SURFACE] = CS_SUR,
                                      [LPROXY_CONSTANT] = CS_CON,
                                      [LPROXY_ALIAS] = CS_ALIAS};
            x->set[tag[ev->proxy]] |= bit;
        } else {
            static const int tag[] = {[LPROXY_GENERIC] = CS_GEN,
                                      [LPROXY_TEXTURE] = CS_TEX,
                                      [LPROXY_SURFACE] = CS_SUR,
                                      [LPROXY_CONSTANT] = CS_CON,
                                      [LPROXY_ALIAS] = CS_GEN};
            x->set[tag[ev->proxy]] |= bit;
        }
    }
    x->set[CS_M] = x->set[CS_R] | x->set[CS_W];
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
    event_sets(c);
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
                if (i != j && c->ev[a].proxy == c->ev[b].proxy && (x->rel[CR_VLOC][a] >> b & 1) &&
                    (c->ev_thread[a] == c->ev_thread[b] || (strong && (x->rel[CR_SR][a] >> b & 1))))
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
        oracle_quorum_edges(c, k, (1u << c->quorum[k].n) - 1, c->bar_all);
    oracle_choose_co(c, 0);
    return;
too_many:
    oracle_fail_limit(c, 0, "more than %d events in one execution; the oracle cannot enumerate it",
                      CAT_MAX_EVENTS);
}

void oracle_combine(struct ctx *c, unsigned th)
{
    if (halted(c))
        return;
    if (th == c->t->n_threads) {
        if (++c->n_combos > MAX_CANDIDATES) {
            oracle_fail_limit(c, 0,
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
        oracle_combine(c, th + 1);
    }
}
