/*
 * warptm_vu.c - WarpTM's validation unit: the holds of validated
 * transactions as a transition table, and the temporal conflict detector
 * (see warptm_vu.h and docs/transactions.md).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/warptm_vu.h"

#include <stdlib.h>

#include "base/log.h"

/* A granule some validated transaction holds; the table keeps no entry for a
 * free granule. Open addressing, linear probing, deletion by backward shift. */
struct hold {
    uint64_t key;     /* granule number + 1; 0: empty */
    uint32_t readers; /* shared holds */
    bool writer;      /* an exclusive hold */
};

struct warptm_vu {
    struct getm_params p;
    const char *name;
    struct eng *eng;
    struct coh_cov *cov;
    struct hold *holds; /* [hold_entries] */
    uint32_t n_holds;
    uint64_t *tcd; /* [tcd_entries]: last write time (ps), a maximum per slot */
    /* the validation or release being stepped, for the actions */
    struct hold *h;
    uint64_t key;
    enum warptm_verdict verdict;
    enum warptm_fail why; /* the last failure's */
    struct warptm_vu_stats st;
};

static uint32_t slot_of(uint64_t key, uint32_t n)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (n - 1);
}

static struct hold *hold_find(const struct warptm_vu *v, uint64_t key)
{
    uint32_t n = v->p.hold_entries;
    for (uint32_t i = slot_of(key, n);; i = (i + 1) & (n - 1)) {
        struct hold *h = &v->holds[i];
        if (!h->key || h->key == key)
            return h; /* the entry, or the empty slot where it would go */
    }
}

/* Backward-shift deletion keeps every entry reachable from its home slot. */
static void hold_delete(struct warptm_vu *v, struct hold *h)
{
    uint32_t n = v->p.hold_entries, i = (uint32_t)(h - v->holds);
    for (uint32_t j = (i + 1) & (n - 1); v->holds[j].key; j = (j + 1) & (n - 1)) {
        uint32_t home = slot_of(v->holds[j].key, n);
        if (((j - home) & (n - 1)) >= ((j - i) & (n - 1))) {
            v->holds[i] = v->holds[j];
            i = j;
        }
    }
    v->holds[i] = (struct hold){0};
    v->n_holds--;
}

/* ---- the table ---- */

#define WVU_STATES(X)                                                                              \
    X(Free, "no validated transaction holds the granule")                                          \
    X(Shared, "held by validated transactions that read it (readers > 0)")                         \
    X(Held, "held by the one validated transaction that writes it")
#define WVU_EVENTS(X)                                                                              \
    X(ValRead, "validation of a granule read: values match, no exclusive hold")                    \
    X(ValWrite, "validation of a granule written (and maybe read): values match, no hold")         \
    X(ValMismatch, "validation: a byte read has changed since")                                    \
    X(ValConflict, "validation: another validated transaction holds the granule against it")       \
    X(ValFull, "validation would hold a free granule but the hold table is full")                  \
    X(ValAlone, "validation by the serial token's holder: values match, nothing held")             \
    X(Release, "a reader's commit or cleanup, other readers remain")                               \
    X(ReleaseLast, "the last reader's commit or cleanup")                                          \
    X(ReleaseWrite, "the writer's commit (written) or cleanup")
#define X(n, d) WS_##n,
enum { WVU_STATES(X) WS_N };
#undef X
#define X(n, d) WE_##n,
enum { WVU_EVENTS(X) WE_N };
#undef X
COH_NAMES(WVU_STATES, WVU_EVENTS);

static struct warptm_vu *vu_of(struct coh_ctx *x)
{
    return x->ctrl;
}

static struct hold *take_entry(struct warptm_vu *v)
{
    if (!v->h->key) {
        v->h->key = v->key;
        v->n_holds++;
    }
    return v->h;
}

static void a_hold_shared(struct coh_ctx *x)
{
    struct warptm_vu *v = vu_of(x);
    take_entry(v)->readers++;
    v->verdict = WARPTM_READ_HELD;
}

static void a_hold_exclusive(struct coh_ctx *x)
{
    struct warptm_vu *v = vu_of(x);
    take_entry(v)->writer = true;
    v->verdict = WARPTM_WRITE_HELD;
}

static void a_pass(struct coh_ctx *x)
{
    vu_of(x)->verdict = WARPTM_PASSED;
}

static void a_fail_mismatch(struct coh_ctx *x)
{
    struct warptm_vu *v = vu_of(x);
    v->verdict = WARPTM_FAIL;
    v->why = WARPTM_FAIL_MISMATCH;
    v->st.mismatches++;
}

static void a_fail_conflict(struct coh_ctx *x)
{
    struct warptm_vu *v = vu_of(x);
    v->verdict = WARPTM_FAIL;
    v->why = WARPTM_FAIL_HELD;
    v->st.conflicts++;
}

static void a_fail_full(struct coh_ctx *x)
{
    struct warptm_vu *v = vu_of(x);
    v->verdict = WARPTM_FAIL;
    v->why = WARPTM_FAIL_FULL;
    v->st.full++;
}

static void a_drop_reader(struct coh_ctx *x)
{
    vu_of(x)->h->readers--;
}

static void a_drop_writer(struct coh_ctx *x)
{
    vu_of(x)->h->writer = false;
}

static void a_free_entry(struct coh_ctx *x)
{
    struct warptm_vu *v = vu_of(x);
    hold_delete(v, v->h);
    v->h = NULL;
}

static const struct coh_action_name actions[] = {
    {a_hold_shared, "hold_shared", "readers++: the granule's value is held for the commit"},
    {a_hold_exclusive, "hold_exclusive", "writer = the transaction, until its commit or cleanup"},
    {a_pass, "pass", "validation passes without a hold (the serial token isolates it)"},
    {a_fail_mismatch, "fail_mismatch", "validation fails: a value read has changed"},
    {a_fail_conflict, "fail_conflict", "validation fails: held by another transaction"},
    {a_fail_full, "fail_full", "validation fails: no room to hold the granule"},
    {a_drop_reader, "drop_reader", "readers--"},
    {a_drop_writer, "drop_writer", "the writer's hold ends"},
    {a_free_entry, "free_entry", "the granule is free: its hold entry goes"},
    {0},
};

/*  state    event              next    uses               actions                             */
static const struct coh_trans cells[WS_N][WE_N] = {
    [WS_Free][WE_ValRead] = DO(WS_Shared, TAG_RD | TAG_WR, a_hold_shared),
    [WS_Free][WE_ValWrite] = DO(WS_Held, TAG_RD | TAG_WR, a_hold_exclusive),
    [WS_Free][WE_ValMismatch] = DO(WS_Free, TAG_RD, a_fail_mismatch),
    [WS_Free][WE_ValFull] = DO(WS_Free, TAG_RD, a_fail_full),
    [WS_Free][WE_ValAlone] = DO(WS_Free, TAG_RD, a_pass),
    [WS_Shared][WE_ValRead] = DO(WS_Shared, TAG_RD | TAG_WR, a_hold_shared),
    [WS_Shared][WE_ValMismatch] = DO(WS_Shared, TAG_RD, a_fail_mismatch),
    [WS_Shared][WE_ValConflict] = DO(WS_Shared, TAG_RD, a_fail_conflict),
    [WS_Shared][WE_Release] = DO(WS_Shared, TAG_RD | TAG_WR, a_drop_reader),
    [WS_Shared][WE_ReleaseLast] = DO(WS_Free, TAG_RD | TAG_WR, a_drop_reader, a_free_entry),
    [WS_Held][WE_ValMismatch] = DO(WS_Held, TAG_RD, a_fail_mismatch),
    [WS_Held][WE_ValConflict] = DO(WS_Held, TAG_RD, a_fail_conflict),
    [WS_Held][WE_ReleaseWrite] = DO(WS_Free, TAG_RD | TAG_WR, a_drop_writer, a_free_entry),
};

static unsigned state_of(const struct hold *h)
{
    return !h || !h->key ? WS_Free : h->writer ? WS_Held : WS_Shared;
}

/* The state is a function of the hold entry; the table's next state must
 * agree with what the actions did. */
static void set_state(struct coh_ctx *x, unsigned next)
{
    struct warptm_vu *v = vu_of(x);
    if (state_of(v->h) != next)
        panic("%s: granule %#llx in state %s with %u readers%s", v->name,
              (unsigned long long)x->addr, state_names[next], v->h ? v->h->readers : 0,
              v->h && v->h->writer ? " and a writer" : "");
}

static void dump(struct coh_ctx *x, FILE *out)
{
    struct warptm_vu *v = vu_of(x);
    fprintf(out, "  granule %#llx: %u readers%s; %u of %u hold entries used\n",
            (unsigned long long)x->addr, v->h ? v->h->readers : 0,
            v->h && v->h->writer ? ", a writer" : "", v->n_holds, v->p.hold_entries);
}

const struct coh_table warptm_vu_table = COH_TABLE("warptm", "VU", cells, set_state, dump);

/* The classifier: the only place with protocol `if`s. The table stays at most
 * three quarters full so that probes stay short (and a probe for a missing
 * key always meets an empty slot, which ends it). The limit is no bar to
 * forward progress, though at hold_entries = 4 it holds three granules and
 * one lane writing a whole 128-byte line needs four: a warp that cannot
 * commit asks for the serial token (coh/getm/tx_serial.h) and validates alone,
 * which takes no hold (ValAlone), so no table size can starve it. A
 * validation alone finds every granule free (every other transaction has
 * released its holds before the token is granted); a hold would be a hole. */
static unsigned classify(const struct warptm_vu *v, const struct warptm_check *c)
{
    unsigned s = state_of(v->h);
    if (c->alone) /* outside Free an undefined cell: the hole panics */
        return c->match || s != WS_Free ? WE_ValAlone : WE_ValMismatch;
    if (!c->match)
        return WE_ValMismatch;
    if (s == WS_Held || (c->write && s == WS_Shared))
        return WE_ValConflict;
    if (s == WS_Free && (v->n_holds + 1) * 4 > v->p.hold_entries * 3)
        return WE_ValFull;
    return c->write ? WE_ValWrite : WE_ValRead;
}

static void step(struct warptm_vu *v, addr_t addr, unsigned event)
{
    struct coh_ctx x = {
        .ctrl = v,
        .ctrl_name = v->name,
        .eng = v->eng,
        .addr = addr - addr % v->p.granule,
        .state = state_of(v->h),
        .event = event,
    };
    coh_step(&warptm_vu_table, v->cov, &x);
}

enum warptm_verdict warptm_vu_validate(struct warptm_vu *v, const struct warptm_check *c)
{
    v->key = c->addr / v->p.granule + 1;
    v->h = hold_find(v, v->key);
    v->verdict = WARPTM_FAIL;
    v->st.validations++;
    step(v, c->addr, classify(v, c));
    return v->verdict;
}

enum warptm_fail warptm_vu_why(const struct warptm_vu *v)
{
    return v->why;
}

void warptm_vu_release(struct warptm_vu *v, addr_t addr, bool write)
{
    v->key = addr / v->p.granule + 1;
    v->h = hold_find(v, v->key);
    v->st.releases++;
    const struct hold *h = v->h->key ? v->h : NULL;
    /* a release of a granule not held in that way is a hole (undefined cell) */
    unsigned ev = write ? WE_ReleaseWrite : h && h->readers > 1 ? WE_Release : WE_ReleaseLast;
    step(v, addr, ev);
}

static uint64_t *tcd_slot(const struct warptm_vu *v, addr_t addr)
{
    uint64_t key = addr / v->p.granule + 1;
    return &v->tcd[slot_of(key, v->p.tcd_entries)];
}

uint64_t warptm_vu_last_write(const struct warptm_vu *v, addr_t addr, uint64_t now)
{
    const struct hold *h = hold_find(v, addr / v->p.granule + 1);
    return h->key && h->writer ? now : *tcd_slot(v, addr);
}

void warptm_vu_written(struct warptm_vu *v, addr_t addr, uint64_t now)
{
    uint64_t *t = tcd_slot(v, addr);
    *t = MAX(*t, now);
}

unsigned warptm_vu_holds(const struct warptm_vu *v, addr_t addr, bool *writer)
{
    const struct hold *h = hold_find(v, addr / v->p.granule + 1);
    *writer = h->key && h->writer;
    return h->key ? h->readers : 0;
}

uint64_t warptm_vu_tcd(const struct warptm_vu *v, addr_t addr)
{
    return *tcd_slot(v, addr);
}

const struct warptm_vu_stats *warptm_vu_stats(const struct warptm_vu *v)
{
    return &v->st;
}

struct warptm_vu *warptm_vu_new(const struct getm_params *p, struct eng *eng, const char *name,
                                struct coh_cov *cov)
{
    if (!p->granule || !p->hold_entries || (p->hold_entries & (p->hold_entries - 1)) ||
        !p->tcd_entries || (p->tcd_entries & (p->tcd_entries - 1)))
        panic("%s: WarpTM table sizes must be nonzero powers of two", name);
    struct warptm_vu *v = calloc(1, sizeof *v);
    if (!v || !(v->holds = calloc(p->hold_entries, sizeof *v->holds)) ||
        !(v->tcd = calloc(p->tcd_entries, sizeof *v->tcd)))
        panic("out of memory");
    v->p = *p;
    v->name = name;
    v->eng = eng;
    v->cov = cov;
    return v;
}

void warptm_vu_free(struct warptm_vu *v)
{
    if (!v)
        return;
    free(v->holds);
    free(v->tcd);
    free(v);
}
