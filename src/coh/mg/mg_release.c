/*
 * mg_release.c - release completion in the multi-GPM L2 bank (spec 004b
 * §2.7; docs/multi-gpu.md) and, for software coherence (sw-nh, sw-h), the
 * bulk invalidation an acquire runs (§2.8).
 *
 * An L1's release reaches every bank of its GPM; a bank runs a round of
 * markers to its neighbour banks (the same bank index in other GPMs). The
 * sysnet keeps order per GPM pair and vnet, so a marker arrives after
 * everything its sender sent before it. mg.release = counted (the default,
 * option 3): one round to every bank in scope, each (the releasing one too)
 * answering once what it sent before the marker arrived is acknowledged: its
 * invalidations (a GPU home acknowledges one from the system home once its
 * GPMs have it) and, at a GPU home, the writes and atomics it passed on to
 * the system home (acknowledged there once their invalidations are), counted
 * per generation. levels (option 1): markers in as many levels as a write
 * and its invalidation take hops, each level proving one more hop
 * delivered. Both cover the writes the releaser only observed (cumulative).
 * thesis: one round answered at once, which an invalidation two hops away
 * may arrive after (unsafe; kept to measure, tests/unit/640-mg-release.c
 * shows the race). A release slot (struct mg_rel) follows each round, each
 * marker taken from another GPM, each invalidation a GPU home passes on and
 * each forwarded write the system home acknowledges.
 * Software coherence has no directory: an acquire has the banks drop their
 * copies of remote lines (in sw-h a .sys one those of every GPM of the GPU).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coh/mg/mg_l2_int.h"

/* ---- counted release completion: generations ---- */

/* One more message outstanding in the open generation; its tag. */
uint64_t mg_gen_count(struct mg_l2 *c)
{
    c->gout[c->gen % c->n_gout]++;
    return c->gen;
}

/* Every generation up to g has nothing outstanding. */
static bool gen_drained(struct mg_l2 *c, uint64_t g)
{
    while (c->gen_low < c->gen && !c->gout[c->gen_low % c->n_gout])
        c->gen_low++;
    for (uint64_t x = c->gen_low; x <= g; x++)
        if (c->gout[x % c->n_gout])
            return false;
    return true;
}

/* Close the open generation for a waiter: the generation it waits for.
 * The ring doubles when every slot holds a generation still outstanding
 * (warm-up only, like the release slots). */
static uint64_t gen_close(struct mg_l2 *c)
{
    if (!c->gout[c->gen % c->n_gout])
        return c->gen - 1; /* nothing sent in it yet: the older ones suffice */
    gen_drained(c, 0);     /* moves gen_low on */
    if (c->gen + 1 - c->gen_low >= c->n_gout) {
        unsigned n = 2 * c->n_gout;
        uint32_t *g = calloc(n, sizeof *g);
        if (!g)
            panic("out of memory");
        for (uint64_t x = c->gen_low; x <= c->gen; x++)
            g[x % n] = c->gout[x % c->n_gout];
        free(c->gout);
        c->gout = g;
        c->n_gout = n;
    }
    return c->gen++;
}

/* ---- release completion ---- */

static size_t used_words(unsigned n_slots)
{
    return (n_slots + 63) / 64;
}

struct mg_rel *mg_rel_slot(struct mg_l2 *c)
{
    for (unsigned i = 0; i < c->n_rel; i++)
        if (!c->rel[i].m)
            return &c->rel[i];
    unsigned old = c->n_rel, n = old ? 2 * old : 16;
    struct mg_rel *r = realloc(c->rel, n * sizeof *r);
    uint64_t *used = realloc(c->rel_used, used_words(n) * sizeof *used);
    if (!r || !used)
        panic("out of memory");
    memset(r + old, 0, (n - old) * sizeof *r);
    memset(used + used_words(old), 0, (used_words(n) - used_words(old)) * sizeof *used);
    c->rel = r;
    c->rel_used = used;
    c->n_rel = n;
    return &c->rel[old];
}

void mg_slot_mark_used(struct mg_l2 *c, const struct mg_rel *r, bool used)
{
    size_t i = (size_t)(r - c->rel);
    if (used)
        c->rel_used[i >> 6] |= 1ull << (i & 63);
    else
        c->rel_used[i >> 6] &= ~(1ull << (i & 63));
}

/* The first slot at or after `from` in use, or n_rel: read afresh at each
 * step, since checking a slot may free it or take others. */
static unsigned next_used(const struct mg_l2 *c, unsigned from)
{
    for (unsigned w = from >> 6; w < used_words(c->n_rel); w++) {
        uint64_t bits = c->rel_used[w];
        if (w == from >> 6)
            bits &= ~0ull << (from & 63);
        if (bits)
            return (w << 6) | (unsigned)__builtin_ctzll(bits);
    }
    return c->n_rel;
}

/* The banks a release marker of `scope` goes to from this one: every other
 * GPM's in flat protocols; in hmg the GPMs this bank exchanges messages with
 * (its GPU's, and for .sys the same GPM index in every other GPU: GPU homes
 * and system homes), the M + N - 2 of spec 004b §2.1. */
static bool neighbour(const struct mg_l2 *c, unsigned g, unsigned scope)
{
    if (g == c->gpm)
        return false;
    if (!c->f.hier || (c->one_round && scope >= SCOPE_SYS))
        return true; /* thesis: a .sys release goes to every L2 of the system */
    return g / c->gpms == c->gpm / c->gpms ||
           (scope >= SCOPE_SYS && g % c->gpms == c->gpm % c->gpms);
}

/* Levels of markers a release needs: each level proves that what a bank
 * sent before it has arrived, so a chain of k hops needs k levels. A write
 * reaches its home in one hop and the home's invalidations the sharers in a
 * second (2); in hmg a .sys write takes GPM -> GPU home -> system home, whose
 * invalidation takes system home -> GPU home -> GPMs (4); without
 * invalidations only the writes (1). mg.release = thesis: one level to every
 * L2 in scope (§5.5: "propagated through the local L2 to all remote L2s"),
 * which a write's invalidation, two or more hops away, may arrive after;
 * counted: the same one level, whose banks answer only once what they sent
 * before is acknowledged (slot_wait). */
static unsigned rel_depth(const struct mg_l2 *c, unsigned scope)
{
    if (c->one_round)
        return 1;
    if (!c->f.directory) /* sw-h: GPM -> GPU home -> system home */
        return c->f.hier && scope >= SCOPE_SYS ? 2 : 1;
    return c->f.hier && scope >= SCOPE_SYS ? 4 : 2;
}

/* Send the markers of a round of depth `level` at `scope` for slot r. */
static void send_markers(struct mg_l2 *c, struct mg_rel *r, unsigned scope, unsigned level)
{
    r->left = 0;
    for (unsigned g = 0; level && g < c->n_gpms; g++) {
        if (!neighbour(c, g, scope))
            continue;
        struct msg *k = msg_new(c->base.w.msgs, MSG_MG_MARK, r->m->addr, c->base.comp.eng->now);
        k->req = r->m->req;
        k->req.scope = (uint8_t)scope;
        k->ts = level - 1;
        k->sharer = (uint32_t)(r - c->rel);
        mg_sys_send(c, k, g, NC_VNET_REQ, MSG_MG_MARK, TRAFFIC_REQ, 0);
        r->left++;
        c->st.marks_sent++;
    }
}

static void rel_done(struct mg_l2 *c, struct mg_rel *r);

/* A slot is done when its acknowledgements are in and, counted, the
 * generations it waits for are drained. */
void mg_slot_check(struct mg_l2 *c, struct mg_rel *r)
{
    if (r->waiting && gen_drained(c, r->gen)) {
        r->waiting = false;
        c->n_waiting--;
    }
    if (r->m && !r->left && !r->waiting)
        rel_done(c, r);
}

/* Counted: wait also for everything this bank sent so far. */
static void slot_wait(struct mg_l2 *c, struct mg_rel *r)
{
    if (c->counted) {
        r->waiting = true;
        c->n_waiting++;
        r->gen = gen_close(c);
    }
}

/* Counted, at the system home: a write or atomic a GPU home forwarded (m)
 * is acknowledged to it once the invalidations it causes have arrived; they
 * count in the slot returned (inv_slot while the directory steps). */
int mg_ack_slot(struct mg_l2 *c, struct msg *m)
{
    struct msg *k = msg_new(c->base.w.msgs, MSG_MG_INVACK, m->addr, c->base.comp.eng->now);
    k->ts = (uint32_t)m->acks;       /* the GPU home's generation */
    k->ts2 = m->src / c->banks + 1u; /* + 1, as a passed-on request's (forward): 0 names no GPM */
    struct mg_rel *r = mg_slot_take(c, MG_SLOT_FWD, k);
    m->flags &= (uint16_t)~MG_F_ACKME; /* once, also if the request is parked and replayed */
    c->inv_slot = (int)(r - c->rel);
    return c->inv_slot;
}

/* Counted: an invalidation or a forwarded write is acknowledged (m->ts its
 * generation here, m->sharer its slot + 1 or 0). */
void mg_take_invack(struct mg_l2 *c, struct msg *m)
{
    uint64_t g = c->gen - (uint32_t)((uint32_t)c->gen - (uint32_t)m->ts);
    panic_if(!c->gout[g % c->n_gout], "%s: acknowledgement for nothing outstanding",
             c->base.w.name);
    c->gout[g % c->n_gout]--;
    c->st.acks_received++;
    struct mg_rel *answered = NULL;
    if (m->sharer) {
        panic_if(m->sharer > c->n_rel, "%s: invalidation acknowledgement for no slot",
                 c->base.w.name);
        answered = &c->rel[m->sharer - 1];
        mg_slot_answer(c, answered, m);
    }
    msg_free(c->base.w.msgs, m);
    /* Every waiting slot has been checked since the last acknowledgement, and
     * only generation g's count fell: with no slot waiting, or while some
     * generation up to g still has messages out, none drains, and only the
     * slot answered can be done. (gen_drained moves gen_low on only where a
     * waiting slot's check would have: gpucoh verify's states hold it.) */
    if (!c->n_waiting || !gen_drained(c, g)) {
        if (answered)
            mg_slot_check(c, answered);
        return;
    }
    /* A free slot is never waiting (it is freed only once done), so only
     * those in use can change; in index order, as a scan of all of them. */
    for (unsigned i = next_used(c, 0); i < c->n_rel; i = next_used(c, i + 1))
        mg_slot_check(c, &c->rel[i]);
}

/* ---- the rounds of L1 releases: a table (nhcc.Rounds) ----
 * A round for every L1 release waiting at this bank: one set of markers at
 * the widest scope among them answers them all. Releases that arrive while
 * a round is under way wait for the next (they must be covered from their
 * own arrival on), so a burst of them (every SM's kernel end) costs two
 * rounds, not one each. The round's slot is checked after the step that
 * started it (a round with nothing to wait for ends at once, in a step of
 * its own). */

#define ROUND_STATES(X)                                                                            \
    X(Idle, "no round under way")                                                                  \
    X(Round, "a round of markers under way; L1 releases that arrive wait for the next")
#define ROUND_EVENTS(X)                                                                            \
    X(Release, "an L1 of this GPM releases (its kernel end, a release fence or store)")            \
    X(Answered, "the round is answered: every marker's answer is in (counted: and what the bank "  \
                "sent before it is acknowledged); no release waits")                               \
    X(AnsweredMore, "the round is answered, and releases wait for the next")

#define X(n, d) RND_##n,
enum round_state { ROUND_STATES(X) RND_NSTATES };
enum round_event { ROUND_EVENTS(X) RND_NEVENTS };
#undef X
COH_NAMES(ROUND_STATES, ROUND_EVENTS);

static void queue_release(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    msg_list_push(&c->rel_next, x->msg);
}

static void start_round(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    unsigned scope = SCOPE_CTA;
    for (struct msg *m = c->rel_next.head; m; m = m->next)
        scope = MAX(scope, (unsigned)m->req.scope);
    c->rel_round = c->rel_next;
    c->rel_next = (struct msg_list){0};
    struct mg_rel *r = mg_slot_take(c, MG_SLOT_ROUND, c->rel_round.head);
    c->round_start = comp_cycle(&c->base.comp);
    c->st.releases++;
    c->st.sys_rounds += scope >= SCOPE_SYS;
    /* nocache-mg-norel (test only): no markers, so the round is answered at once */
    send_markers(c, r, scope, c->f.bug_release_at_once ? 0 : rel_depth(c, scope));
    slot_wait(c, r);
    c->round_started = (int)(r - c->rel);
}

static void answer_releases(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct msg *m;
    c->st.release_cycles += comp_cycle(&c->base.comp) - c->round_start;
    while ((m = msg_list_pop(&c->rel_round))) {
        c->st.l1_releases++;
        ctrl_l2_respond(&c->base, m, MSG_MG_RELACK, NC_VNET_RSP, TRAFFIC_REQ, 0);
    }
}

static const struct coh_action_name actions[] = {
    {queue_release, "queue_release", "the release waits for the next round"},
    {start_round, "start_round",
     "markers to every neighbour bank at the widest scope of the waiting releases, in as many "
     "levels as that scope's writes take hops (mg.release = thesis, counted: one); counted: the "
     "slot also waits for the open generation"},
    {answer_releases, "answer_releases", "RELACK to every release the round answers"},
    {0},
};

/*  state        event               next        uses  actions                                  */
static const struct coh_trans round_cells[RND_NSTATES][RND_NEVENTS] = {
    [RND_Idle][RND_Release] = DO(RND_Round, 0, queue_release, start_round),
    [RND_Round][RND_Release] = DO(RND_Round, 0, queue_release),
    [RND_Round][RND_Answered] = DO(RND_Idle, 0, answer_releases),
    [RND_Round][RND_AnsweredMore] = DO(RND_Round, 0, answer_releases, start_round),
    /* every cell not listed is a hole: a round answered while none is under way */
};

static void round_set_state(struct coh_ctx *x, unsigned next)
{
    mg_of(x->ctrl)->round_busy = next == RND_Round;
}

static void round_dump(struct coh_ctx *x, FILE *out)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    fprintf(out, "  rounds: %s, %u releases in the round, %u waiting for the next\n",
            c->round_busy ? "under way" : "none", c->rel_round.n, c->rel_next.n);
}

const struct coh_table mg_round_table =
    COH_TABLE("nhcc", "Rounds", round_cells, round_set_state, round_dump);

/* Run `event` of the rounds' table (m: the release, NULL for an answer at
 * `addr`), then check the slot of a round it started. */
static void round_step(struct mg_l2 *c, struct msg *m, addr_t addr, unsigned event)
{
    struct coh_ctx x = {
        .ctrl = c,
        .ctrl_name = c->base.w.name,
        .eng = c->base.comp.eng,
        .addr = addr,
        .msg = m,
        .state = c->round_busy ? RND_Round : RND_Idle,
        .event = event,
    };
    c->round_started = -1;
    coh_step(&mg_round_table, c->round_cov, &x);
    int started = c->round_started;
    if (started >= 0)
        mg_slot_check(c, &c->rel[started]);
}

/* Slot r answers its message (nhcc.Slots' Done); a round's end is then
 * the rounds' table's step. */
static void rel_done(struct mg_l2 *c, struct mg_rel *r)
{
    addr_t addr = r->m->addr;
    if (mg_slot_done(c, r))
        round_step(c, NULL, addr, c->rel_next.n ? RND_AnsweredMore : RND_Answered);
}

/* A release from an L1 of this GPM (it joins the next round) or a marker
 * from another GPM's bank (its level in m->ts): markers of the next level
 * down to every neighbour, answered once all of theirs are back; level 0 is
 * answered at once. False: the pipeline lacks room for the answers. */
bool mg_take_rel(struct mg_l2 *c, struct msg *m)
{
    if (!port_has_room(&c->base.pipe, c->base.w.n_sms + 1u)) {
        c->base.st.resource_stalls++;
        return false;
    }
    if (!(m->flags & MG_F_SYS)) {
        round_step(c, m, m->addr, RND_Release);
        return true;
    }
    struct mg_rel *r = mg_slot_take(c, MG_SLOT_MARKER, m);
    send_markers(c, r, m->req.scope, (unsigned)m->ts);
    slot_wait(c, r);
    mg_slot_check(c, r);
    return true;
}

/* ---- software coherence: bulk invalidation at acquires ---- */

struct drop {
    struct mg_l2 *c;
    unsigned scope;
};

static void drop_if_remote(struct cache_line *l, void *arg)
{
    struct drop *d = arg;
    struct mg_l2 *c = d->c;
    mg_stale_fetch(c, l);
    if (l->state != ML2_V)
        return;
    unsigned sys = mg_sys_home(c, l->addr, false);
    bool keep = sys == c->gpm || (d->scope < SCOPE_SYS && mg_gpu_home(c, sys) == c->gpm);
    if (!keep) {
        c->st.bulk_dropped++;
        ctrl_fire(&c->base, l->addr, NULL, ML2_Inv);
    }
}

/* Spec 004b §2.8: an acquire at scope S invalidates every cache between the
 * SM and S's home: this bank's copies of lines homed elsewhere (for .gpu in
 * sw-h, not those this bank is the GPU home of); in sw-h a .sys acquire also
 * has every other GPM of the GPU drop theirs. Reads out now are not
 * installed, and later ones do not merge on them (IRX). */
bool mg_take_acq(struct mg_l2 *c, struct msg *m)
{
    if (!port_has_room(&c->base.pipe, 1)) {
        c->base.st.resource_stalls++;
        return false;
    }
    struct drop d = {c, m->req.scope};
    c->st.bulk_invalidations++;
    if (!c->f.bug_acquire_keeps) /* sw-nh-noinv (test only) keeps the stale copies */
        cache_for_each(&c->base.cache, drop_if_remote, &d);
    for (uint32_t i = 0; i < c->base.tbes.cap; i++) { /* reads out now may be older */
        struct tbe *t = &c->base.tbes.e[i];
        if (t->used && t->state == ML2_IR)
            ctrl_fire(&c->base, t->addr, NULL, ML2_Inv);
    }
    if (m->flags & MG_F_SYS) { /* m->sharer: the asking bank's slot */
        mg_sys_send(c, m, m->src / c->banks, NC_VNET_RSP, MSG_MG_MARKACK, TRAFFIC_REQ, 0);
        return true;
    }
    struct mg_rel *r = mg_slot_take(c, MG_SLOT_ACQ, m);
    for (unsigned g = 0; c->f.hier && m->req.scope >= SCOPE_SYS && g < c->n_gpms; g++) {
        if (g == c->gpm || g / c->gpms != c->gpm / c->gpms)
            continue;
        struct msg *k = msg_new(c->base.w.msgs, MSG_MG_ACQ, m->addr, c->base.comp.eng->now);
        k->req = m->req;
        k->sharer = (uint32_t)(r - c->rel);
        mg_sys_send(c, k, g, NC_VNET_REQ, MSG_MG_ACQ, TRAFFIC_REQ, 0);
        r->left++;
    }
    if (!r->left)
        rel_done(c, r);
    return true;
}

void mg_take_ack(struct mg_l2 *c, struct msg *m)
{
    panic_if(m->sharer >= c->n_rel, "%s: acknowledgement for no release", c->base.w.name);
    struct mg_rel *r = &c->rel[m->sharer];
    mg_slot_answer(c, r, m); /* a free slot's is a hole */
    msg_free(c->base.w.msgs, m);
    mg_slot_check(c, r);
}
