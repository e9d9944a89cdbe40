/*
 * fcs_select.c - the offline request-type selector of fine-grain coherence
 * specialization (spec 003 §2.9, Algorithms 1-7, and §2.10), over a
 * sequentially consistent trace of a workload (fcs_select.h).
 *
 * The trace is a list of word accesses in the order the SMs issue them
 * under order.model = sc (each warp's access waits for its previous one):
 * one entry per word a lane touches (a load or store touching a word from
 * several lanes is one access; every lane of an atomic is one), with its
 * SM (the paper's core: one private cache), kind, static instruction, and
 * the counts of acquires and releases its SM had seen (kernel boundaries
 * count as both, .gpu fences by their semantics, atomics by theirs), from
 * which SyncSep is read.
 * Then, per word access: Algorithm 5 (OwnershipBeneficial), 6
 * (SharedStateBeneficial: CPU loads only, and only on hardware whose CPU
 * L1s hold Shared lines, opts.shared; cores from opts.cpu_from on are the
 * CPU cores), 7 (OwnerPredBeneficial) choose by Algorithms 1-3; §2.10's
 * conversions apply for hardware without forwarding or prediction; the word
 * accesses of a static instruction vote on its type, weighted by
 * Criticality (one level of voting: the paper's word -> dynamic access ->
 * instruction voting with a plurality rule gives the same result when
 * every dynamic access touches as many words, as a warp's coalesced accesses
 * mostly do), question by question in the order of Algorithms 1-3 (own?
 * share? predict?), so that types answering one the same way do not split
 * their vote; ties go the DeNovo device's own type's way (ReqV, ReqO,
 * ReqO+data).
 * Simplifications (docs/spandex-fcs.md): ReusePossible bounds the unique
 * bytes between two accesses of a core by 4 bytes per word access between
 * them (an upper bound: it says "no reuse" sooner than an exact count);
 * Algorithm 5's walk stops after 4096 steps of the same word. Algorithm 4's
 * masks are chosen for ownership requests and predicted reads (ReqV fills
 * the line), as one of three shapes per instruction (the words accessed,
 * the rest of the line, the whole line: fcs.h), voted for by the word
 * accesses whose masks they come closest to. Algorithm 7 follows the
 * printed algorithm (phase 4, +-1) with the text's condition that the
 * predicted core is remote; Algorithm 3's
 * prediction branch is ReqWTo+data (spec 003 §7.2 erratum 1).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/spandex/fcs_select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coh/spandex/fcs.h"
#include "ptx/ir.h"
#include "ptx/ptx.h"
#include "sim/req.h"

enum { K_LD, K_ST, K_RMW };

struct acc {
    uint64_t word; /* word address (bytes / 4) */
    uint32_t pc;   /* static instruction (index in the module) */
    uint32_t seq;  /* its index among its core's accesses */
    uint32_t acq;  /* acquires its core had seen (kernel boundaries included) */
    uint32_t rel;  /* releases likewise */
    uint32_t op;   /* the dynamic operation it belongs to (its words share a request) */
    uint16_t core;
    uint8_t kind;    /* K_LD, K_ST, K_RMW */
    uint8_t release; /* an RMW with release semantics */
};

#define MAX_CORES 1024

struct fcs_trace {
    struct acc *a;
    size_t n, cap;
    const struct ptx_module *mod;
    bool several_modules;
    uint32_t kernels; /* kernel boundaries so far */
    uint32_t ops;     /* dynamic operations so far */
    uint32_t acq[MAX_CORES], rel[MAX_CORES], seq[MAX_CORES];
    unsigned n_cores;
};

struct fcs_trace *fcs_trace_new(void)
{
    struct fcs_trace *t = calloc(1, sizeof *t);
    if (!t)
        panic("out of memory");
    return t;
}

void fcs_trace_free(struct fcs_trace *t)
{
    if (t)
        free(t->a);
    free(t);
}

void fcs_trace_kernel(struct fcs_trace *t, const struct ptx_module *m)
{
    if (t->mod && t->mod != m)
        t->several_modules = true;
    t->mod = m;
    t->kernels++;
}

static void push(struct fcs_trace *t, unsigned core, unsigned kind, bool release, uint64_t word,
                 uint32_t pc)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 4096;
        t->a = realloc(t->a, t->cap * sizeof *t->a);
        if (!t->a)
            panic("out of memory");
    }
    t->a[t->n++] = (struct acc){.word = word,
                                .pc = pc,
                                .seq = t->seq[core]++,
                                .acq = t->acq[core] + t->kernels,
                                .rel = t->rel[core] + t->kernels,
                                .op = t->ops,
                                .core = (uint16_t)core,
                                .kind = (uint8_t)kind,
                                .release = release};
}

static bool has_acquire(unsigned sem)
{
    return sem == SEM_ACQUIRE || sem == SEM_ACQ_REL || sem == SEM_SC;
}

static bool has_release(unsigned sem)
{
    return sem == SEM_RELEASE || sem == SEM_ACQ_REL || sem == SEM_SC;
}

void fcs_trace_step(struct fcs_trace *t, unsigned core, const struct ptx_memop *op)
{
    if (core >= MAX_CORES)
        fatal("spandex select: more than %u SMs", MAX_CORES);
    if (core >= t->n_cores)
        t->n_cores = core + 1;
    if (op->op == MEM_FENCE) {
        t->acq[core] += has_acquire(op->sem);
        t->rel[core] += has_release(op->sem);
        return;
    }
    unsigned kind = op->op == MEM_LOAD ? K_LD : op->op == MEM_STORE ? K_ST : K_RMW;
    /* a store-release or release atomic releases before its access, a
     * load-acquire or acquire atomic acquires after it */
    if (kind != K_LD && has_release(op->sem))
        t->rel[core]++;
    uint64_t seen[128];
    unsigned n_seen = 0;
    for (uint32_t lanes = op->mask; lanes; lanes &= lanes - 1) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        uint64_t first = op->addr[l] / 4, last = (op->addr[l] + op->size - 1) / 4;
        for (uint64_t w = first; w <= last; w++) {
            bool dup = false;
            for (unsigned k = 0; k < n_seen && kind != K_RMW; k++)
                dup |= seen[k] == w;
            if (dup)
                continue;
            if (n_seen < 128)
                seen[n_seen++] = w;
            push(t, core, kind, kind == K_RMW && has_release(op->sem), w, op->tag);
        }
    }
    t->ops++;
    if (kind != K_ST && has_acquire(op->sem))
        t->acq[core]++;
}

size_t fcs_trace_len(const struct fcs_trace *t)
{
    return t->n;
}

/* ---- the selector ---- */

#define NONE UINT32_MAX

struct sel {
    const struct fcs_trace *t;
    const struct fcs_select_opts *o;
    uint32_t *next_conf, *prev_conf, *prev_same;
    uint32_t *next_block; /* NextBlockConflict (Algorithms 4 and 6) */
    unsigned block_words; /* words a block (a line) */
    double reuse_words;   /* ReusePossible: fewer word accesses between than this */
};

/* For each access, the next and the previous access to its word (any core):
 * NextConflict and PrevConf; with `shift`, to its block of 2^shift words
 * (NextBlockConflict). Walks the trace with a hash table of the last index
 * per word. */
static void link_by_word(const struct fcs_trace *t, unsigned shift, uint32_t *next, uint32_t *prev)
{
    size_t cap = 1;
    while (cap < 2 * t->n + 2)
        cap <<= 1;
    uint64_t *keys = malloc(cap * sizeof *keys);
    uint32_t *last = malloc(cap * sizeof *last);
    if (!keys || !last)
        panic("out of memory");
    for (size_t i = 0; i < cap; i++)
        last[i] = NONE;
    for (size_t i = 0; i < t->n; i++) {
        uint64_t k = t->a[i].word >> shift;
        size_t h = (size_t)((k * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
        while (last[h] != NONE && keys[h] != k)
            h = (h + 1) & (cap - 1);
        uint32_t p = last[h];
        prev[i] = p;
        next[i] = NONE;
        if (p != NONE)
            next[p] = (uint32_t)i;
        keys[h] = k;
        last[h] = (uint32_t)i;
    }
    free(keys);
    free(last);
}

/* The previous access by the same core of the same kind (Algorithm 7's
 * PrevAcc restricted to sameCore and sameType, which is all it uses). */
static void link_same(const struct fcs_trace *t, uint32_t *prev)
{
    uint32_t *last = malloc((size_t)MAX_CORES * 3 * sizeof *last);
    if (!last)
        panic("out of memory");
    for (size_t i = 0; i < (size_t)MAX_CORES * 3; i++)
        last[i] = NONE;
    for (size_t i = 0; i < t->n; i++) {
        uint32_t *l = &last[t->a[i].core * 3u + t->a[i].kind];
        prev[i] = *l;
        *l = (uint32_t)i;
    }
    free(last);
}

/* SyncSep(x, y): the same core, and a synchronisation between them that
 * orders them: either is an atomic, or x is a load and an acquire came
 * between, or x is a store and a release did (x before y). */
static bool sync_sep(const struct acc *x, const struct acc *y)
{
    if (x->core != y->core)
        return false;
    if ((x->kind == K_RMW || y->kind == K_RMW) && (x->acq != y->acq || x->rel != y->rel))
        return true;
    if (x->kind == K_LD && y->acq > x->acq)
        return true;
    return x->kind == K_ST && y->rel > x->rel;
}

static bool reuse_possible(const struct sel *s, const struct acc *x, const struct acc *y)
{
    return (double)(y->seq - x->seq) < s->reuse_words;
}

static bool from_cpu(const struct sel *s, const struct acc *a)
{
    return s->o->cpu_from && a->core >= s->o->cpu_from;
}

/* Loads and atomics without release: 6 on a CPU core, 2 on a GPU CU;
 * stores and release atomics 1; all 1 without forwarding (§2.10). */
static double criticality(const struct sel *s, const struct acc *a)
{
    if (!s->o->fwd)
        return 1;
    if (a->kind == K_LD || (a->kind == K_RMW && !a->release))
        return from_cpu(s, a) ? 6 : 2;
    return 1;
}

/* Algorithm 5. */
static bool ownership_beneficial(const struct sel *s, uint32_t xi)
{
    const struct acc *a = s->t->a, *x = &a[xi];
    int phase = 5;
    double score = 0;
    uint64_t prev[MAX_CORES / 64] = {0};
    prev[x->core / 64] |= 1ull << (x->core % 64);
    const struct acc *yprev = x;
    unsigned steps = 0;
    for (uint32_t yi = s->next_conf[xi]; yi != NONE && steps < 4096;
         yi = s->next_conf[yi], steps++) {
        const struct acc *y = &a[yi];
        if (yprev->core != y->core || sync_sep(yprev, y)) {
            if (--phase < 0 || (x->core == y->core && !reuse_possible(s, x, y)))
                break;
            bool seen = prev[y->core / 64] >> (y->core % 64) & 1;
            double yval = (seen ? 2.0 : 0.5) * criticality(s, y);
            if (x->core == y->core) {
                score += yval;
            } else {
                score -= yval;
                prev[y->core / 64] |= 1ull << (y->core % 64);
            }
        }
        yprev = y;
    }
    return score > 0;
}

/* Algorithm 6: a CPU load gains from Shared state when, walking the later
 * accesses to its block, a load of its own core at a phase change (another
 * core than the access before, or a synchronisation between them) comes
 * before another core's store or atomic at a phase change. SyncSep(Yprev, Y)
 * as spec 003 §2.9 reads the printed SyncSep(Y, Yprev) (Y follows Yprev). */
static bool shared_state_beneficial(const struct sel *s, uint32_t xi)
{
    const struct acc *a = s->t->a, *x = &a[xi];
    if (!s->o->shared || !from_cpu(s, x))
        return false;
    const struct acc *yprev = x;
    for (uint32_t yi = s->next_block[xi]; yi != NONE; yi = s->next_block[yi]) {
        const struct acc *y = &a[yi];
        if (y->core != yprev->core || sync_sep(yprev, y)) {
            if (y->kind == K_LD && y->core == x->core)
                return true;
            if (y->kind != K_LD && y->core != x->core)
                return false; /* a remote store (or atomic) would invalidate the copy */
        }
        yprev = y;
    }
    return false;
}

/* Algorithm 7 (phase 4, +-1 as printed; the predicted core must be remote
 * as the text says). */
static bool owner_pred_beneficial(const struct sel *s, uint32_t xi)
{
    if (!s->o->pred)
        return false;
    const struct acc *a = s->t->a, *x = &a[xi];
    int score = 0, phase = 4;
    uint32_t xprev = s->prev_conf[xi];
    for (uint32_t yi = s->prev_same[xi]; yi != NONE; yi = s->prev_same[yi]) {
        if (--phase < 0)
            break;
        uint32_t yprev = s->prev_conf[yi];
        if (yprev != NONE && xprev != NONE && a[yprev].core == a[xprev].core &&
            a[xprev].core != x->core)
            score++;
        else
            score--;
    }
    return score > 0;
}

/* Algorithms 1-3. */
static unsigned select_word(const struct sel *s, uint32_t xi)
{
    const struct acc *x = &s->t->a[xi];
    bool own = ownership_beneficial(s, xi);
    switch (x->kind) {
    case K_LD:
        return own                              ? SPXK_O_DATA
               : shared_state_beneficial(s, xi) ? SPXK_S
               : owner_pred_beneficial(s, xi)   ? SPXK_VO
                                                : SPXK_V;
    case K_ST:
        return own ? SPXK_O : owner_pred_beneficial(s, xi) ? SPXK_WTO : SPXK_WTFWD;
    default:
        return own ? SPXK_O_DATA : owner_pred_beneficial(s, xi) ? SPXK_WTO_DATA : SPXK_WTFWD_DATA;
    }
}

static bool owning(unsigned k)
{
    return k == SPXK_O || k == SPXK_O_DATA;
}

/* The bit of a word in its block. */
static uint64_t block_bit(const struct sel *s, const struct acc *a)
{
    return 1ull << (a->word & (s->block_words - 1));
}

/* Requested(X) for every access: the words of its block that its dynamic
 * operation touches (an operation's word accesses are consecutive). */
static void requested_words(const struct sel *s, uint64_t *req)
{
    const struct acc *a = s->t->a;
    for (size_t i = 0, j; i < s->t->n; i = j) {
        for (j = i; j < s->t->n && a[j].op == a[i].op; j++)
            ;
        for (size_t k = i; k < j; k++) {
            uint64_t m = 0;
            for (size_t l = i; l < j; l++)
                if (a[l].word / s->block_words == a[k].word / s->block_words)
                    m |= block_bit(s, &a[l]);
            req[k] = m;
        }
    }
}

/* Algorithm 4's masks of access x. Of an ownership request (returned): from
 * a store or atomic, InterSynchStoreReuse | Requested (the words of the
 * block it stores again after a synchronisation, reuse possible); from a
 * load typed ReqO+data, where the paper gives no mask, the words whose next
 * access by the core, reuse possible and before any other core's, is itself
 * typed to own (the core would ask to own them anyway). Of a read (*read):
 * IntraSynchLoadReuse | Requested (the words it loads again before a
 * synchronisation separates them, reuse possible), which a ReqVo asks its
 * predicted owner for (a ReqV asks for the line). *foreign: the words
 * another core touches before this one does again. The walk over the
 * block's later accesses stops where reuse is no longer possible, or after
 * 1024 steps. */
static uint64_t alg4_masks(const struct sel *s, uint32_t xi, uint64_t req, const uint8_t *kind,
                           uint64_t *read, uint64_t *foreign)
{
    const struct acc *a = s->t->a, *x = &a[xi];
    uint64_t o = req, v = req, self_seen = req, other_first = 0;
    unsigned steps = 0;
    for (uint32_t yi = s->next_block[xi]; yi != NONE && steps < 1024;
         yi = s->next_block[yi], steps++) {
        const struct acc *y = &a[yi];
        uint64_t bit = block_bit(s, y);
        if (y->core != x->core) {
            other_first |= bit & ~self_seen;
            continue;
        }
        if (!reuse_possible(s, x, y))
            break;
        if (y->kind == K_LD && !sync_sep(x, y))
            v |= bit;
        if (x->kind != K_LD) {
            if (y->kind == K_ST && sync_sep(x, y))
                o |= bit;
        } else if (!(self_seen & bit) && !(other_first & bit) && owning(kind[yi])) {
            o |= bit;
        }
        self_seen |= bit;
    }
    *read = v;
    *foreign = other_first;
    return o;
}

/* Access x's vote for the shapes (words, rest of the line, whole line)
 * that cost least against its mask m, counting what each wrong word costs
 * in messages: a word of m left out is asked for again later (2), a foreign
 * word taken is taken from the core about to use it, which takes it back
 * (8: a forward now and a round trip later, for both), and a word nobody
 * needs soon costs its data and write-back (1). Every cheapest shape gets
 * the weight, so that shapes which ask for the same words here (the rest of
 * a line from its first word is all of it) do not split the vote. A shape
 * is the instruction's for all its accesses, so an access where it would
 * take another core's words (a line shared at a boundary) votes against it
 * as strongly as that costs. */
static void vote_shape(const struct sel *s, uint64_t req, uint64_t m, uint64_t foreign,
                       double weight, double votes[SPXM_N])
{
    unsigned cost[SPXM_N], best = ~0u;
    for (unsigned h = SPXM_WORDS; h < SPXM_N; h++) {
        uint64_t w = spx_shape_words(h, req, s->block_words), extra = w & ~m;
        cost[h] = 2 * (unsigned)__builtin_popcountll(m & ~w) +
                  8 * (unsigned)__builtin_popcountll(extra & foreign) +
                  (unsigned)__builtin_popcountll(extra & ~foreign);
        if (cost[h] < best)
            best = cost[h];
    }
    for (unsigned h = SPXM_WORDS; h < SPXM_N; h++)
        if (cost[h] == best)
            votes[h] += weight;
}

/* Whether kind k belongs to group g of the decisions below. */
static bool in_group(unsigned k, unsigned g)
{
    static const uint16_t groups[] = {
        1u << SPXK_O | 1u << SPXK_O_DATA,                     /* own (Algorithm 5) */
        1u << SPXK_S,                                         /* share (Algorithm 6) */
        1u << SPXK_VO | 1u << SPXK_WTO | 1u << SPXK_WTO_DATA, /* predict (Algorithm 7) */
    };
    return groups[g] >> k & 1;
}

unsigned fcs_elect(const double *votes, unsigned dflt)
{
    bool left[SPXK_N]; /* still electable */
    for (unsigned k = 0; k < SPXK_N; k++)
        left[k] = k != SPXK_NONE;
    for (unsigned g = 0; g < 3; g++) {
        double yes = 0, no = 0;
        for (unsigned k = 1; k < SPXK_N; k++)
            if (left[k])
                *(in_group(k, g) ? &yes : &no) += votes[k];
        bool take = yes > no || (yes == no && in_group(dflt, g));
        for (unsigned k = 1; k < SPXK_N; k++)
            left[k] = left[k] && in_group(k, g) == take;
        if (take)
            break;
    }
    unsigned best = SPXK_NONE;
    for (unsigned k = 1; k < SPXK_N; k++)
        if (left[k] &&
            (best == SPXK_NONE || votes[k] > votes[best] || (votes[k] == votes[best] && k == dflt)))
            best = k;
    return best;
}

int fcs_select(const struct fcs_trace *t, const struct fcs_select_opts *o, FILE *out, char *err,
               size_t errlen)
{
    if (t->several_modules) {
        snprintf(err, errlen,
                 "the workload's kernels come from several PTX modules; a "
                 "request-type table names the lines of one");
        return -1;
    }
    if (!t->mod || !t->n) {
        snprintf(err, errlen, "the workload made no global memory access");
        return -1;
    }
    struct sel s = {.t = t, .o = o, .reuse_words = 0.75 * (double)o->l1_bytes / 4.0};
    s.block_words = (o->line_bytes ? o->line_bytes : 64) / 4;
    if (s.block_words > 64 || (s.block_words & (s.block_words - 1)))
        s.block_words = 16;
    s.next_conf = malloc(t->n * sizeof *s.next_conf);
    s.prev_conf = malloc(t->n * sizeof *s.prev_conf);
    s.prev_same = malloc(t->n * sizeof *s.prev_same);
    uint8_t *kind = malloc(t->n);
    const struct ptx_module *m = t->mod;
    double(*votes)[SPXK_N] = calloc(m->n_ins, sizeof *votes);
    /* Algorithm 4's masks, as shapes: [0] of a predicted read, [1] of an
     * ownership request */
    double(*shape_votes)[2][SPXM_N] = calloc(m->n_ins, sizeof *shape_votes);
    uint64_t *count = calloc(m->n_ins, sizeof *count);
    uint64_t *req = malloc(t->n * sizeof *req);
    uint32_t *prev_block = malloc(t->n * sizeof *prev_block);
    s.next_block = malloc(t->n * sizeof *s.next_block);
    if (!s.next_conf || !s.prev_conf || !s.prev_same || !kind || !votes || !shape_votes || !count ||
        !req || !prev_block || !s.next_block)
        panic("out of memory");
    link_by_word(t, 0, s.next_conf, s.prev_conf);
    link_same(t, s.prev_same);
    link_by_word(t, (unsigned)__builtin_ctz(s.block_words), s.next_block, prev_block);
    free(prev_block);
    requested_words(&s, req);
    for (size_t i = 0; i < t->n; i++)
        kind[i] = (uint8_t)select_word(&s, (uint32_t)i);
    for (size_t i = 0; i < t->n; i++) {
        unsigned k = kind[i];
        if (!o->fwd) { /* §2.10 */
            if (k == SPXK_WTFWD || k == SPXK_WTO) {
                k = SPXK_WT;
            } else if (k == SPXK_WTFWD_DATA || k == SPXK_WTO_DATA) {
                uint32_t p = s.prev_conf[i], n = s.next_conf[i];
                k = p != NONE && n != NONE && owning(kind[p]) && owning(kind[n]) ? SPXK_O_DATA
                                                                                 : SPXK_WT_DATA;
            }
        }
        k = spx_req_kind_supported(k, o->fwd, o->pred);
        if (o->line_state && k == SPXK_O) /* §2.10: the line's other words need data */
            k = SPXK_O_DATA;
        double weight = criticality(&s, &t->a[i]);
        votes[t->a[i].pc][k] += weight;
        count[t->a[i].pc]++;
        uint64_t read, foreign, own = alg4_masks(&s, (uint32_t)i, req[i], kind, &read, &foreign);
        vote_shape(&s, req[i], read, foreign, weight, shape_votes[t->a[i].pc][0]);
        vote_shape(&s, req[i], own, foreign, weight, shape_votes[t->a[i].pc][1]);
    }
    fprintf(out,
            "# request types per static instruction (gpucoh spandex select, spec 003 §2.9)\n"
            "# workload %s; hardware: forwarding %s, owner prediction %s, %s state; L1 %u "
            "bytes\n"
            "# SC trace: %zu word accesses by %u SMs in %u kernel(s); votes weighted by "
            "criticality\n"
            "# LINE TYPE MASK  # instruction: word accesses, votes (type; mask)\n",
            o->title, o->fwd ? "on" : "off", o->pred ? "on" : "off",
            o->line_state ? "line" : "word", o->l1_bytes, t->n, t->n_cores, t->kernels);
    static const uint8_t defaults[] = {[K_LD] = SPXK_V, [K_ST] = SPXK_O, [K_RMW] = SPXK_O_DATA};
    for (uint32_t pc = 0; pc < m->n_ins; pc++) {
        if (!count[pc])
            continue;
        const struct px_inst *in = &m->ins[pc];
        unsigned op = in->op == PX_LD ? K_LD : in->op == PX_ST ? K_ST : K_RMW;
        unsigned best = fcs_elect(votes[pc], defaults[op]);
        const char *shape = "";
        const double *sv = shape_votes[pc][best != SPXK_VO];
        if (spx_kind_has_shape(best)) {
            unsigned h = SPXM_WORDS; /* the DeNovo device's own */
            for (unsigned g = SPXM_WORDS; g < SPXM_N; g++)
                if (sv[g] > sv[h])
                    h = g;
            if (o->line_state) /* §2.10: FullBlockMask */
                h = SPXM_LINE;
            shape = spx_mask_shape_names[h];
        }
        fprintf(out, "%-6u %-14s %-5s # %s: %llu accesses,", in->line, spx_req_kind_names[best],
                shape,
                op == K_LD   ? "load"
                : op == K_ST ? "store"
                             : "atomic",
                (unsigned long long)count[pc]);
        for (unsigned k = 1; k < SPXK_N; k++)
            if (votes[pc][k] > 0)
                fprintf(out, " %s %.1f", spx_req_kind_names[k], votes[pc][k]);
        if (*shape) {
            fputc(';', out);
            for (unsigned g = SPXM_WORDS; g < SPXM_N; g++)
                if (sv[g] > 0)
                    fprintf(out, " %s %.1f", spx_mask_shape_names[g], sv[g]);
        }
        fputc('\n', out);
    }
    free(s.next_conf);
    free(s.prev_conf);
    free(s.prev_same);
    free(s.next_block);
    free(kind);
    free(req);
    free(shape_votes);
    free(votes);
    free(count);
    return 0;
}
