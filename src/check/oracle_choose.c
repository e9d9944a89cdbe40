/*
 * oracle_choose.c - stage 3 of the litmus oracle: the choices inside
 * one combination of traces: coherence orders, then (skipped when the outcome
 * they give is already known to be allowed) reads-from, the fence.sc order and
 * the barrier completers; partial executions refuted early against their
 * bounds; each candidate judged by the model and its outcomes recorded
 * (oracle_int.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/oracle_int.h"

#include <stdlib.h>
#include <string.h>

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
        oracle_fail(c, 0, "out of memory");
        return -1;
    }
    memcpy(r->outcomes + (uint64_t)k * n, c->outcome, n * sizeof *no);
    r->allowed[k] = false;
    r->why[k] = NULL;
    r->n_outcomes++;
    return (int)k;
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
        oracle_fail_limit(c, 0,
                          "more than %llu candidate executions; the oracle cannot enumerate it",
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
            oracle_fail_limit(
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
            oracle_explain(c, &f);
    }
}

/* The syncbar edges of quorum k's completers `pick` (a bit mask; all of
 * them: every edge some choice has) into rel. */
void oracle_quorum_edges(const struct ctx *c, unsigned k, unsigned pick, cat_rel rel)
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
        oracle_explain(c, &f);
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
            oracle_quorum_edges(c, k, c->quorum_pick[k], c->x.rel[CR_SYNCBAR]);
        judge(c);
        return;
    }
    unsigned n = c->quorum[q].n;
    if (c->quorum[q].count && n > c->quorum[q].count) {
        /* more than one choice: the completers chosen before q, any after */
        memcpy(c->x.rel[CR_SYNCBAR], c->bar_fixed, c->n_ev * sizeof(uint64_t));
        for (unsigned k = 0; k < q; k++)
            oracle_quorum_edges(c, k, c->quorum_pick[k], c->x.rel[CR_SYNCBAR]);
        memcpy(c->x_hi.rel[CR_SYNCBAR], c->x.rel[CR_SYNCBAR], c->n_ev * sizeof(uint64_t));
        for (unsigned k = q; k < c->n_quorums; k++)
            oracle_quorum_edges(c, k, (1u << c->quorum[k].n) - 1, c->x_hi.rel[CR_SYNCBAR]);
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
            oracle_fail_limit(c, 0, "more than %d final states of one execution", MAX_VARIANTS);
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
                    oracle_describe(c, rd, d, sizeof d);
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
        oracle_choose_co(c, li + 1);
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
        oracle_choose_co(c, li + 1);
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

void oracle_choose_co(struct ctx *c, unsigned li)
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
