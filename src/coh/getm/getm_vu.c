/*
 * getm_vu.c - GETM's validation unit: the Fig. 4.6 flowchart as a transition
 * table, the metadata storage of Fig. 4.8 and the stall buffer of Fig. 4.9
 * (see getm_vu.h and docs/transactions.md).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/getm_vu.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"

#define WAYS    4
#define H3_BITS 64

void getm_params_default(struct getm_params *p)
{
    *p = (struct getm_params){
        .granule = 32,
        .precise_sets = 128, /* 4 ways x 128 = 512 per partition; x 6 ~ Table 4.2's 4K */
        .stash = 4,
        .max_swaps = 16,
        .overflow = 4096,
        .bloom_sets = 32, /* 4 ways x 32 = 128 per partition; x 6 ~ Table 4.2's 1K */
        .stall_lines = 4,
        .stall_entries = 4,
        .warp_bits = 10, /* up to 1024 warps GPU-wide (15 SMs x 48 warps = 720) */
        .ts_bits = 32,   /* spec 004a §9 item 30 */
        .unique_ts = true,
        .owner_seq = true,
        .wake_all = true,
        .commit_waits = true, /* measured faster here; false is the thesis's */
        .evict_oldest = true, /* the thesis does not say which entry goes */
        .seed = 0x9e7a11,
        .silent = true,
        .hold_entries = 1024,
        .tcd_entries = 512, /* x 6 ~ Table 4.5's 16 KB last-write buffer of 8-byte times */
    };
}

getm_ts getm_first_ts(const struct getm_params *p, uint32_t wid)
{
    return p->unique_ts ? wid : 0;
}

getm_ts getm_advance_ts(const struct getm_params *p, uint32_t wid, getm_ts t)
{
    if (!p->unique_ts)
        return t + 1;
    return ((t >> p->warp_bits) + 1) << p->warp_bits | wid;
}

getm_ts getm_ts_limit(const struct getm_params *p)
{
    return p->ts_bits >= 64 ? UINT64_MAX - 1 : (1ull << p->ts_bits) - 2;
}

struct slot {
    uint64_t key; /* granule number + 1; 0: empty */
    struct getm_meta m;
};

struct stall_line {
    uint64_t key; /* granule + 1; 0: free */
    uint32_t n;
    uint32_t peak;      /* the most waiting at once in this use of the line */
    struct getm_req *e; /* [stall_entries] */
};

struct getm_vu {
    struct getm_params p;
    const char *name;
    struct eng *eng;
    struct coh_cov *cov;
    uint32_t h3[2 * WAYS][H3_BITS]; /* cuckoo ways, then Bloom ways */
    struct slot *way[WAYS];
    struct slot *stash;
    struct slot *over;
    uint32_t n_over;
    struct {
        getm_ts rts, wts;
    } * bloom[WAYS];
    struct stall_line *stall;
    struct getm_req *stall_store;
    /* the access or release being stepped, for the actions */
    struct getm_meta *m;
    const struct getm_req *req;
    struct getm_result res;
    uint32_t count;
    struct getm_req *woken;
    unsigned n_woken, woken_cap;
    uint64_t cycles; /* the access being stepped: its table cycles (Fig. 4.13) */
    struct getm_vu_stats st;
};

/* ---- H3 hashing: XOR of one random word per set bit of the key ---- */

static uint32_t h3(const struct getm_vu *v, unsigned fn, uint64_t key)
{
    uint32_t h = 0;
    for (unsigned b = 0; key; b++, key >>= 1)
        if (key & 1)
            h ^= v->h3[fn][b];
    return h;
}

static struct slot *way_slot(const struct getm_vu *v, unsigned w, uint64_t key)
{
    return &v->way[w][h3(v, w, key) & (v->p.precise_sets - 1)];
}

/* ---- the recency Bloom filter: entries keep maxima; a lookup takes the
 * minimum over the ways, which is still >= the true value ---- */

static void bloom_insert(struct getm_vu *v, uint64_t key, const struct getm_meta *m)
{
    for (unsigned w = 0; w < WAYS; w++) {
        uint32_t i = h3(v, WAYS + w, key) & (v->p.bloom_sets - 1);
        v->bloom[w][i].rts = MAX(v->bloom[w][i].rts, m->rts);
        v->bloom[w][i].wts = MAX(v->bloom[w][i].wts, m->wts);
    }
}

static void bloom_lookup(const struct getm_vu *v, uint64_t key, struct getm_meta *m)
{
    memset(m, 0, sizeof *m);
    for (unsigned w = 0; w < WAYS; w++) {
        uint32_t i = h3(v, WAYS + w, key) & (v->p.bloom_sets - 1);
        m->rts = w ? MIN(m->rts, v->bloom[w][i].rts) : v->bloom[w][i].rts;
        m->wts = w ? MIN(m->wts, v->bloom[w][i].wts) : v->bloom[w][i].wts;
    }
    m->approx = (m->rts ? GETM_APPROX_RTS : 0) | (m->wts ? GETM_APPROX_WTS : 0);
}

/* ---- the precise table ---- */

/* The slot of `key`, or NULL; *searched (if not NULL) gets the overflow
 * entries it had to look at (the ways and the stash are read at once). */
static struct slot *precise_search(const struct getm_vu *v, uint64_t key, uint64_t *searched)
{
    for (unsigned w = 0; w < WAYS; w++) {
        struct slot *s = way_slot(v, w, key);
        if (s->key == key)
            return s;
    }
    for (uint32_t k = 0; k < v->p.stash; k++)
        if (v->stash[k].key == key)
            return &v->stash[k];
    for (uint32_t k = 0; k < v->n_over; k++)
        if (v->over[k].key == key) {
            if (searched)
                *searched += k + 1;
            return &v->over[k];
        }
    if (searched)
        *searched += v->n_over;
    return NULL;
}

static struct slot *precise_find(const struct getm_vu *v, uint64_t key)
{
    return precise_search(v, key, NULL);
}

static bool place_empty(struct getm_vu *v, struct slot *cur)
{
    for (unsigned w = 0; w < WAYS; w++) {
        struct slot *s = way_slot(v, w, cur->key);
        if (!s->key) {
            *s = *cur;
            return true;
        }
    }
    return false;
}

static void evict(struct getm_vu *v, struct slot *s)
{
    bloom_insert(v, s->key, &s->m);
    v->st.bloom_evictions++;
    s->key = 0;
}

/* Of the slots `key` may take, the unreserved one whose timestamps are
 * oldest (NULL: all reserved). */
static struct slot *oldest_unreserved(const struct getm_vu *v, uint64_t key)
{
    struct slot *victim = NULL;
    for (unsigned w = 0; w < WAYS; w++) {
        struct slot *s = way_slot(v, w, key);
        if (!s->m.nwrites &&
            (!victim || MAX(s->m.rts, s->m.wts) < MAX(victim->m.rts, victim->m.wts)))
            victim = s;
    }
    return victim;
}

/* Insert `key` (not present) with the Bloom filter's values. With every
 * slot it may take full, evict_oldest sends the one among them with the
 * oldest timestamps and no reservation to the Bloom filter (Fig. 4.8), so
 * the precise table keeps the granules of transactions in flight and the
 * filter takes the smallest timestamps. Otherwise, or with all of them
 * reserved, cuckoo displacement: a displaced entry that cannot move and holds
 * no reservation goes to the Bloom filter; one that holds a reservation goes
 * to the stash after max_swaps, then the overflow list (G4: a reserved entry
 * is never evicted). */
static struct slot *precise_insert(struct getm_vu *v, uint64_t key)
{
    struct slot cur = {key, {0}};
    bloom_lookup(v, key, &cur.m);
    v->st.bloom_fills++;
    if (place_empty(v, &cur))
        return precise_find(v, key);
    struct slot *victim = v->p.evict_oldest ? oldest_unreserved(v, key) : NULL;
    if (victim) {
        evict(v, victim);
        *victim = cur;
        return victim;
    }
    unsigned w = 0;
    for (uint32_t n = 0; n < v->p.max_swaps; n++, w = (w + 1) % WAYS) {
        struct slot *s = way_slot(v, w, cur.key);
        struct slot out = *s;
        *s = cur;
        cur = out;
        v->cycles++;
        if (place_empty(v, &cur))
            return precise_find(v, key);
        if (cur.key != key && cur.m.nwrites == 0) {
            evict(v, &cur);
            return precise_find(v, key);
        }
    }
    for (uint32_t k = 0; k < v->p.stash; k++)
        if (!v->stash[k].key || (v->stash[k].m.nwrites == 0 && v->stash[k].key != key)) {
            if (v->stash[k].key)
                evict(v, &v->stash[k]);
            v->stash[k] = cur;
            v->st.stashed++;
            v->cycles++;
            return precise_find(v, key);
        }
    for (uint32_t k = 0; k < v->n_over; k++)
        if (v->over[k].m.nwrites == 0 && v->over[k].key != key) {
            evict(v, &v->over[k]);
            v->over[k] = cur;
            v->st.overflowed++;
            v->cycles++;
            return precise_find(v, key);
        }
    if (v->n_over >= v->p.overflow)
        panic("%s: GETM metadata overflow list full (%u reserved granules)", v->name, v->n_over);
    v->over[v->n_over++] = cur;
    v->st.overflowed++;
    v->cycles++;
    return precise_find(v, key);
}

static struct getm_meta *meta_of(struct getm_vu *v, uint64_t key)
{
    struct slot *s = precise_search(v, key, &v->cycles);
    return s ? &s->m : &precise_insert(v, key)->m;
}

/* ---- the stall buffer ---- */

static struct stall_line *stall_line(const struct getm_vu *v, uint64_t key, bool alloc)
{
    struct stall_line *free_line = NULL;
    for (uint32_t k = 0; k < v->p.stall_lines; k++) {
        struct stall_line *s = &v->stall[k];
        if (s->key == key)
            return s;
        if (!s->key && !free_line)
            free_line = s;
    }
    return alloc ? free_line : NULL;
}

static bool stall_room(const struct getm_vu *v, uint64_t key)
{
    const struct stall_line *s = stall_line(v, key, true);
    return s && s->n < v->p.stall_entries;
}

/* ---- the table ---- */

#define VU_STATES(X)                                                                               \
    X(Free, "#writes = 0: no transaction holds a write reservation")                               \
    X(Locked, "#writes > 0: reserved by its owner until the owner's commit or cleanup")
#define VU_EVENTS(X)                                                                               \
    X(TxLd, "transactional load, warpts >= wts, not reserved")                                     \
    X(TxLdOwn, "transactional load by the owner (its value comes from the redo log)")              \
    X(TxLdLate, "transactional load with warpts < wts (the thesis's WAR)")                         \
    X(TxLdWait, "transactional load, warpts >= wts, reserved by another (RAW): wait")              \
    X(TxSt, "transactional store, warpts >= max(wts, rts), not reserved")                          \
    X(TxStOwn, "transactional store by the owner")                                                 \
    X(TxStLate, "transactional store with warpts < max(wts, rts) (WAW, RAW)")                      \
    X(TxStWait, "transactional store, warpts >= max(wts, rts), reserved by another: wait")         \
    X(WaitFull, "a load or store would wait but the stall buffer has no room")                     \
    X(Release, "commit or cleanup of some of the owner's writes, others remain")                   \
    X(ReleaseLast, "commit or cleanup of the owner's last writes")                                 \
    X(ReleaseTooMany, "commit or cleanup of more writes than #writes (a lost count)")              \
    X(WakeNext,                                                                                    \
      "printed retry policy: the woken waiter left the granule unreserved, waiters remain")
#define X(n, d) VS_##n,
enum { VU_STATES(X) VS_N };
#undef X
#define X(n, d) VE_##n,
enum { VU_EVENTS(X) VE_N };
#undef X
COH_NAMES(VU_STATES, VU_EVENTS);

static struct getm_vu *vu_of(struct coh_ctx *x)
{
    return x->ctrl;
}

static void a_read_ts(struct coh_ctx *x)
{
    struct getm_vu *v = vu_of(x);
    if (v->req->warpts > v->m->rts) {
        v->m->rts = v->req->warpts;
        v->m->approx &= ~GETM_APPROX_RTS;
    }
}

static void a_reply_ok(struct coh_ctx *x)
{
    struct getm_vu *v = vu_of(x);
    v->res.reply = GETM_OK;
}

/* An abort refused by the timestamps in `fields` (GETM_APPROX_*): counted as
 * the Bloom filter's when each of them came from it. */
static void abort_for(struct getm_vu *v, enum getm_abort_kind kind, getm_ts cause, unsigned fields)
{
    v->res.reply = GETM_ABORT;
    v->res.cause = cause;
    v->res.kind = kind;
    v->res.approx = fields && (v->m->approx & fields) == fields;
    v->st.abort_kinds[kind]++;
    v->st.abort_approx += v->res.approx;
}

static void a_abort_wts(struct coh_ctx *x)
{
    struct getm_vu *v = vu_of(x);
    abort_for(v, GETM_ABORT_LOAD_LATE, v->m->wts, GETM_APPROX_WTS);
}

static void a_abort_max(struct coh_ctx *x)
{
    struct getm_vu *v = vu_of(x);
    getm_ts t = v->req->warpts;
    bool late_write = t < v->m->wts;
    unsigned fields = (late_write ? GETM_APPROX_WTS : 0) | (t < v->m->rts ? GETM_APPROX_RTS : 0);
    abort_for(v, late_write ? GETM_ABORT_STORE_WRITE : GETM_ABORT_STORE_READ,
              MAX(v->m->wts, v->m->rts), fields);
}

static void a_abort_full(struct coh_ctx *x)
{
    struct getm_vu *v = vu_of(x);
    /* not a conflict: retry one step later */
    abort_for(v, GETM_ABORT_STALL_FULL, v->req->warpts, 0);
    v->st.stall_full++;
}

static void a_count_write(struct coh_ctx *x)
{
    vu_of(x)->m->nwrites++;
}

static void a_reserve(struct coh_ctx *x)
{
    struct getm_vu *v = vu_of(x);
    v->m->wts = v->req->warpts + 1;
    v->m->approx &= ~GETM_APPROX_WTS;
    v->m->owner = v->req->wid;
    v->m->owner_seq = v->req->seq;
    v->m->nwrites = 1;
}

static void a_queue(struct coh_ctx *x)
{
    struct getm_vu *v = vu_of(x);
    struct stall_line *s = stall_line(v, x->addr / v->p.granule + 1, true);
    if (!s->key) { /* a line's new use */
        s->peak = 0;
        v->st.stall_line_uses++;
        v->st.stall_lines_now++;
        v->st.stall_lines_max = MAX(v->st.stall_lines_max, v->st.stall_lines_now);
    }
    s->key = x->addr / v->p.granule + 1;
    s->e[s->n++] = *v->req;
    if (s->n > s->peak) { /* the peaks' sum grows by each new high */
        s->peak = s->n;
        v->st.stall_line_peaks++;
    }
    v->st.stall_now++;
    v->st.stall_max = MAX(v->st.stall_max, v->st.stall_now);
    v->res.reply = GETM_QUEUED;
    v->st.queued++;
}

static void a_release(struct coh_ctx *x)
{
    struct getm_vu *v = vu_of(x);
    v->m->nwrites -= v->count;
}

/* Waiters re-enter in ascending warpts (ties: arrival order): all of them
 * (item 23), or in the printed form only the oldest, the rest staying. */
static void a_wake(struct coh_ctx *x)
{
    struct getm_vu *v = vu_of(x);
    struct stall_line *s = stall_line(v, x->addr / v->p.granule + 1, false);
    if (!s)
        return;
    for (uint32_t i = 1; i < s->n; i++)
        for (uint32_t j = i; j > 0 && s->e[j].warpts < s->e[j - 1].warpts; j--) {
            struct getm_req t = s->e[j];
            s->e[j] = s->e[j - 1];
            s->e[j - 1] = t;
        }
    uint32_t n = v->p.wake_all ? s->n : 1;
    if (v->n_woken + n > v->woken_cap)
        panic("%s: %u waiters re-enter but the caller has room for %u", v->name, n,
              v->woken_cap - v->n_woken);
    for (uint32_t k = 0; k < n; k++)
        v->woken[v->n_woken++] = s->e[k];
    v->st.woken += n;
    v->st.stall_now -= n;
    memmove(s->e, s->e + n, (s->n - n) * sizeof *s->e);
    s->n -= n;
    if (!s->n) {
        s->key = 0;
        v->st.stall_lines_now--;
    }
}

static const struct coh_action_name actions[] = {
    {a_read_ts, "read_ts", "rts = max(rts, warpts)"},
    {a_reply_ok, "reply_ok", "success (a load's data from the LLC, or the redo log for the owner)"},
    {a_abort_wts, "abort_wts", "abort, reporting wts"},
    {a_abort_max, "abort_max", "abort, reporting max(wts, rts)"},
    {a_abort_full, "abort_full", "abort: stall buffer full, reporting the requester's warpts"},
    {a_count_write, "count_write", "#writes++"},
    {a_reserve, "reserve", "wts = warpts + 1, owner = requester, #writes = 1"},
    {a_queue, "queue", "park the request in the stall buffer"},
    {a_release, "release", "#writes -= the log entry's count"},
    {a_wake, "wake", "waiters re-enter the VU in ascending warpts"},
    {0},
};

/*  state    event              next    uses               actions                             */
static const struct coh_trans cells[VS_N][VE_N] = {
    [VS_Free][VE_TxLd] = DO(VS_Free, TAG_RD | TAG_WR, a_read_ts, a_reply_ok),
    [VS_Free][VE_TxLdLate] = DO(VS_Free, TAG_RD, a_abort_wts),
    [VS_Free][VE_TxSt] = DO(VS_Locked, TAG_RD | TAG_WR, a_reserve, a_reply_ok),
    [VS_Free][VE_TxStLate] = DO(VS_Free, TAG_RD, a_abort_max),
    [VS_Free][VE_WakeNext] = DO(VS_Free, TAG_RD, a_wake),
    [VS_Locked][VE_TxLdOwn] = DO(VS_Locked, TAG_RD | TAG_WR, a_read_ts, a_reply_ok),
    [VS_Locked][VE_TxLdLate] = DO(VS_Locked, TAG_RD, a_abort_wts),
    [VS_Locked][VE_TxLdWait] = DO(VS_Locked, TAG_RD, a_queue),
    [VS_Locked][VE_TxStOwn] = DO(VS_Locked, TAG_RD | TAG_WR, a_count_write, a_reply_ok),
    [VS_Locked][VE_TxStLate] = DO(VS_Locked, TAG_RD, a_abort_max),
    [VS_Locked][VE_TxStWait] = DO(VS_Locked, TAG_RD, a_queue),
    [VS_Locked][VE_WaitFull] = DO(VS_Locked, TAG_RD, a_abort_full),
    [VS_Locked][VE_Release] = DO(VS_Locked, TAG_RD | TAG_WR, a_release),
    [VS_Locked][VE_ReleaseLast] = DO(VS_Free, TAG_RD | TAG_WR, a_release, a_wake),
};

/* The state is a function of #writes; the table's next state must agree
 * with what the actions did (G4). */
static void set_state(struct coh_ctx *x, unsigned next)
{
    struct getm_vu *v = vu_of(x);
    if ((next == VS_Locked) != (v->m->nwrites > 0))
        panic("%s: granule %#llx in state %s with #writes %u", v->name, (unsigned long long)x->addr,
              state_names[next], v->m->nwrites);
}

static void dump(struct coh_ctx *x, FILE *out)
{
    struct getm_vu *v = vu_of(x);
    fprintf(out, "  granule %#llx: rts %llu wts %llu #writes %u owner %u seq %u\n",
            (unsigned long long)x->addr, (unsigned long long)v->m->rts,
            (unsigned long long)v->m->wts, v->m->nwrites, v->m->owner, v->m->owner_seq);
}

const struct coh_table getm_vu_table = COH_TABLE("getm", "VU", cells, set_state, dump);

/* The classifier: the only place with protocol `if`s. */
static unsigned classify(const struct getm_vu *v, const struct getm_meta *m,
                         const struct getm_req *r, uint64_t key)
{
    bool own = m->nwrites && m->owner == r->wid && (!v->p.owner_seq || m->owner_seq == r->seq);
    if (own)
        return r->store ? VE_TxStOwn : VE_TxLdOwn;
    if (r->warpts < (r->store ? MAX(m->wts, m->rts) : v->p.bug_load_ignores_wts ? 0 : m->wts))
        return r->store ? VE_TxStLate : VE_TxLdLate;
    if (m->nwrites)
        return !stall_room(v, key) ? VE_WaitFull : r->store ? VE_TxStWait : VE_TxLdWait;
    return r->store ? VE_TxSt : VE_TxLd;
}

static void step(struct getm_vu *v, addr_t granule_addr, unsigned event)
{
    struct coh_ctx x = {
        .ctrl = v,
        .ctrl_name = v->name,
        .eng = v->eng,
        .addr = granule_addr,
        .state = v->m->nwrites ? VS_Locked : VS_Free,
        .event = event,
    };
    coh_step(&getm_vu_table, v->cov, &x);
}

struct getm_result getm_vu_access(struct getm_vu *v, const struct getm_req *r)
{
    uint64_t key = r->addr / v->p.granule + 1;
    if (r->warpts > getm_ts_limit(&v->p))
        panic("%s: warp %u's warpts %llu does not fit %u-bit timestamps (no rollover)", v->name,
              r->wid, (unsigned long long)r->warpts, v->p.ts_bits);
    v->cycles = 1; /* the lookup */
    v->m = meta_of(v, key);
    v->req = r;
    v->res = (struct getm_result){0};
    v->st.accesses++;
    v->st.table_cycles += v->cycles;
    v->st.table_cycles_max = MAX(v->st.table_cycles_max, v->cycles);
    step(v, r->addr - r->addr % v->p.granule, classify(v, v->m, r, key));
    v->res.rts = v->m->rts;
    v->res.wts = v->m->wts;
    v->st.aborts += v->res.reply == GETM_ABORT;
    return v->res;
}

unsigned getm_vu_release(struct getm_vu *v, addr_t addr, uint32_t count, struct getm_req *woken,
                         unsigned cap)
{
    uint64_t key = addr / v->p.granule + 1;
    v->m = meta_of(v, key);
    v->count = count;
    v->woken = woken;
    v->woken_cap = cap;
    v->n_woken = 0;
    v->st.releases++;
    unsigned ev = count > v->m->nwrites    ? VE_ReleaseTooMany
                  : count == v->m->nwrites ? VE_ReleaseLast
                                           : VE_Release;
    step(v, addr - addr % v->p.granule, ev);
    return v->n_woken;
}

/* Under the printed retry policy (getm.wake_all = false) only the oldest
 * waiter re-enters at the last release; the thesis leaves the others' fate
 * open (spec 004a §9 item 23). If the one that re-entered did not reserve
 * the granule (a load, or an aborted store), no later release will come to
 * wake the rest, and they would wait for ever: so the next oldest re-enters
 * then, one at a time, until a waiter reserves the granule or none is left. */
unsigned getm_vu_wake_next(struct getm_vu *v, addr_t addr, struct getm_req *woken, unsigned cap)
{
    uint64_t key = addr / v->p.granule + 1;
    const struct stall_line *s = stall_line(v, key, false);
    if (v->p.wake_all || !s || !s->n)
        return 0;
    v->m = meta_of(v, key);
    if (v->m->nwrites)
        return 0;
    v->woken = woken;
    v->woken_cap = cap;
    v->n_woken = 0;
    step(v, addr - addr % v->p.granule, VE_WakeNext);
    return v->n_woken;
}

void getm_vu_rollover(struct getm_vu *v)
{
    for (uint32_t k = 0; k < v->p.stall_lines; k++)
        if (v->stall[k].n)
            panic("%s: rollover with %u requests waiting in the stall buffer", v->name,
                  v->stall[k].n);
    for (unsigned w = 0; w < WAYS; w++)
        for (uint32_t i = 0; i < v->p.precise_sets; i++)
            if (v->way[w][i].key && v->way[w][i].m.nwrites)
                panic("%s: rollover with granule %#llx reserved", v->name,
                      (unsigned long long)((v->way[w][i].key - 1) * v->p.granule));
    for (uint32_t k = 0; k < v->p.stash; k++)
        if (v->stash[k].key && v->stash[k].m.nwrites)
            panic("%s: rollover with a stashed granule reserved", v->name);
    for (uint32_t k = 0; k < v->n_over; k++)
        if (v->over[k].m.nwrites)
            panic("%s: rollover with an overflowed granule reserved", v->name);
    for (unsigned w = 0; w < WAYS; w++) {
        memset(v->way[w], 0, v->p.precise_sets * sizeof *v->way[w]);
        memset(v->bloom[w], 0, v->p.bloom_sets * sizeof *v->bloom[w]);
    }
    memset(v->stash, 0, v->p.stash * sizeof *v->stash);
    v->n_over = 0;
    v->st.rollovers++;
}

bool getm_vu_peek(const struct getm_vu *v, addr_t addr, struct getm_meta *m)
{
    uint64_t key = addr / v->p.granule + 1;
    const struct slot *s = precise_find(v, key);
    if (s) {
        *m = s->m;
        return true;
    }
    bloom_lookup(v, key, m);
    return false;
}

const struct getm_vu_stats *getm_vu_stats(const struct getm_vu *v)
{
    return &v->st;
}

unsigned getm_vu_stalled(const struct getm_vu *v, addr_t addr, const struct getm_req **e)
{
    const struct stall_line *s = stall_line(v, addr / v->p.granule + 1, false);
    *e = s ? s->e : NULL;
    return s ? s->n : 0;
}

unsigned getm_vu_waiting(const struct getm_vu *v)
{
    return (unsigned)v->st.stall_now;
}

unsigned getm_vu_waiting_lines(const struct getm_vu *v)
{
    return (unsigned)v->st.stall_lines_now;
}

void getm_vu_dump(const struct getm_vu *v, FILE *out)
{
    for (uint32_t k = 0; k < v->p.stall_lines; k++) {
        const struct stall_line *s = &v->stall[k];
        if (!s->n)
            continue;
        addr_t a = (addr_t)(s->key - 1) * v->p.granule;
        struct getm_meta m;
        bool known = getm_vu_peek(v, a, &m);
        fprintf(out,
                "  stall buffer line %u: granule %#llx, %u waiting for owner warp %u "
                "(sequence %u, %u reservations)%s\n",
                k, (unsigned long long)a, s->n, known ? m.owner : 0, known ? m.owner_seq : 0,
                known ? m.nwrites : 0, known ? "" : " (not in the precise table)");
        for (uint32_t i = 0; i < s->n; i++)
            fprintf(out, "    %s of warp %u (sequence %u) at warpts %llu\n",
                    s->e[i].store ? "store" : "load", s->e[i].wid, s->e[i].seq,
                    (unsigned long long)s->e[i].warpts);
    }
}

struct getm_vu *getm_vu_new(const struct getm_params *p, struct eng *eng, const char *name,
                            struct coh_cov *cov)
{
    if (!p->precise_sets || (p->precise_sets & (p->precise_sets - 1)) || !p->bloom_sets ||
        (p->bloom_sets & (p->bloom_sets - 1)) || !p->granule || !p->stall_lines ||
        !p->stall_entries)
        panic("%s: GETM table sizes must be nonzero powers of two", name);
    struct getm_vu *v = calloc(1, sizeof *v);
    if (!v)
        panic("out of memory");
    v->p = *p;
    v->name = name;
    v->eng = eng;
    v->cov = cov;
    struct rng r;
    rng_seed(&r, p->seed, 0x47e7);
    for (unsigned f = 0; f < 2 * WAYS; f++)
        for (unsigned b = 0; b < H3_BITS; b++)
            v->h3[f][b] = (uint32_t)rng_next(&r);
    for (unsigned w = 0; w < WAYS; w++) {
        v->way[w] = calloc(p->precise_sets, sizeof *v->way[w]);
        v->bloom[w] = calloc(p->bloom_sets, sizeof *v->bloom[w]);
        if (!v->way[w] || !v->bloom[w])
            panic("out of memory");
    }
    v->stash = calloc(p->stash + 1, sizeof *v->stash);
    v->over = calloc(p->overflow + 1, sizeof *v->over);
    v->stall = calloc(p->stall_lines, sizeof *v->stall);
    v->stall_store = calloc((size_t)p->stall_lines * p->stall_entries, sizeof *v->stall_store);
    if (!v->stash || !v->over || !v->stall || !v->stall_store)
        panic("out of memory");
    for (uint32_t k = 0; k < p->stall_lines; k++)
        v->stall[k].e = v->stall_store + (size_t)k * p->stall_entries;
    return v;
}

void getm_vu_free(struct getm_vu *v)
{
    if (!v)
        return;
    for (unsigned w = 0; w < WAYS; w++) {
        free(v->way[w]);
        free(v->bloom[w]);
    }
    free(v->stash);
    free(v->over);
    free(v->stall);
    free(v->stall_store);
    free(v);
}
