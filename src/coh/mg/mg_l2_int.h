/*
 * mg_l2_int.h - what the three files of the multi-GPM L2 bank share:
 * mg_l2.c (the bank: message dispatch, the data array's table, construction),
 * mg_dir.c (the directory and its transitions, invalidations) and
 * mg_release.c (release completion: generations, rounds of markers, bulk
 * invalidation at acquires). Private to coh/mg.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_MG_MG_L2_INT_H
#define COH_MG_MG_L2_INT_H

#include "coh/mg/mg.h"
#include "mem/pagemap.h"

/* ---- the data array's states and events (its table: mg_l2.c) ---- */

#define MG_L2_STATES(X)                                                                            \
    X(I, "not present")                                                                            \
    X(V, "valid, clean (at the home: equal to its DRAM; elsewhere a copy of the home's)")          \
    X(M, "home only: valid, dirty (differs from DRAM)")                                            \
    X(IV, "home only: way taken, fill from DRAM outstanding; requests parked")                     \
    X(IA, "GPU home only (hmg, sw-h, mg.gpu_atomics = gpu-home): way taken, the line fetched "     \
          "from the system home for a .gpu atomic; requests parked")                               \
    X(IR, "not home: no way; a read forwarded to the home, its answer will fill here; later "      \
          "reads of the line wait in its MSHR (merged) instead of crossing the link")              \
    X(IRX, "not home: as IR, but a write, atomic or invalidation of the line (or an acquire) "     \
           "came meanwhile: the answer serves the merged reads and is not installed; later "       \
           "reads go on alone, unfilled")

#define MG_L2_EVENTS(X)                                                                            \
    X(HLoad, "home: a read from an L1 of this GPM or from another GPM's bank")                     \
    X(HWrite, "home: a write-through")                                                             \
    X(HAtomic, "home: an atomic")                                                                  \
    X(Load, "not home: a weak or .cta read from an L1 of this GPM (may hit here)")                 \
    X(LoadFar, "not home: a .gpu/.sys or volatile read (served only at the home), every read "     \
               "of no remote caching, or one another GPM passed on finding no remote-line MSHR "   \
               "free (it must not wait): forwarded, never filled")                                 \
    X(Write, "not home: a write-through from an L1 of this GPM")                                   \
    X(Atomic, "not home: an atomic from an L1 of this GPM")                                        \
    X(GAtomic, "hmg, sw-h, mg.gpu_atomics = gpu-home, a GPU home (not the system home): a "        \
               ".gpu or .cta atomic, performed here")                                              \
    X(Fill, "not home: the home's answer to the MSHR's read (installed unless raced), or to a "    \
            "GPU home's fetch")                                                                    \
    X(FillNoWay, "not home: the answer to the MSHR's read finds its set busy with home lines")     \
    X(FillOnce, "GPU home: the fetched line, met on its way by an invalidation of its region or "  \
                "a bulk invalidation (it may be stale): serves the parked atomic, not kept")       \
    X(Inv,                                                                                         \
      "not home: drop the copy (its home invalidates the region, or an acquire bulk-invalidates)") \
    X(Replace, "a miss or fill needs this line's way")                                             \
    X(MemData, "home: fill from DRAM")

#define X(n, d) ML2_##n,
enum ml2_state { MG_L2_STATES(X) ML2_NSTATES };
enum ml2_event { MG_L2_EVENTS(X) ML2_NEVENTS };
#undef X

/* What distinguishes the protocols that share this bank. */
struct mg_flavour {
    bool directory;           /* track sharers, invalidate on writes (nhcc, hmg, ideal-mg) */
    bool remote_fill;         /* non-home banks keep copies (false: no remote caching) */
    bool hier;                /* hmg: a GPU home per GPU between the GPMs and the system home */
    bool free_coherence;      /* ideal-mg: invalidations and release markers cost nothing */
    bool bug_forgets_inv;     /* hmg-noinv (test only): a write at the home invalidates no other
                                 GPM's copy (directory evictions still do) */
    bool bug_acquire_keeps;   /* sw-nh-noinv (test only): an acquire's bulk invalidation
                                 leaves this bank's copies of remote lines valid */
    bool bug_release_at_once; /* nocache-mg-norel (test only): a release is answered without
                                 its round of markers, before the writes it covers that this
                                 bank passed on have reached their homes */
};

struct mg_stats {
    uint64_t forwarded, relayed, invs_sent, invs_received, lines_invalidated;
    uint64_t merged;        /* reads served by another's outstanding read of the remote line */
    uint64_t fills_dropped; /* answers to a read not installed (raced, or no way) */
    uint64_t fills_raced;   /* ... because a write or invalidation of the line came meanwhile */
    uint64_t dir_evictions, releases, marks_sent, bulk_invalidations, bulk_dropped;
    uint64_t l1_releases, sys_rounds, release_cycles; /* where release time goes */
    uint64_t acks_received; /* counted: invalidations and forwarded writes acknowledged */
    uint64_t gpu_atomics;   /* hmg, sw-h: .gpu/.cta atomics performed at this GPU home */
    /* Fig. 5.11: invalidations a directory eviction caused (MG_F_EVICT; at a
     * GPU home also those it passes on of one from the system home), and the
     * lines they dropped here */
    uint64_t evict_invs, evict_lines_invalidated;
};

/* A release under way at this bank: for an L1 of this GPM (waiting for the
 * RELACKs of the other GPMs) or for another GPM (waiting for MARKACKs). */
struct mg_rel {
    struct msg *m; /* the REL being answered */
    unsigned left; /* acknowledgements still expected */
    bool waiting;  /* counted: also until generations up to `gen` are drained */
    uint8_t state; /* the slots' table's state (mg_slot_table, mg_slots.c) while m is set */
    uint64_t gen;
};

struct mg_l2 {
    struct ctrl base;
    struct mg_flavour f;
    unsigned gpm, n_gpms, gpms, banks; /* gpms: per GPU */
    struct cache dir;                  /* nhcc: entries with meta[0] = sharer GPMs */
    unsigned dir_lines;
    unsigned n_remote, max_remote; /* MSHRs in IR/IRX; at most (l2.mshrs / 2) */
    struct mg_rel *rel;            /* slots, doubled when all are busy (warm-up only): a
                                      marker is never refused, so markers cannot deadlock */
    unsigned n_rel;
    uint64_t *rel_used;        /* bit i set while rel[i].m is: what an acknowledgement
                                  checks (a slot grown in warm-up stays, most idle) */
    unsigned n_waiting;        /* slots with `waiting` set */
    struct msg_list rel_next;  /* L1 releases waiting for the next round of this bank */
    struct msg_list rel_round; /* ... those the round under way answers */
    bool round_busy;           /* the rounds' table's state (mg_round_table): Round */
    struct coh_cov *round_cov; /* its coverage */
    struct coh_cov *slot_cov;  /* the release slots' table's (mg_slot_table) */
    int round_started;         /* the slot of the round a step started (-1: none) */
    uint64_t round_start;      /* when the round under way began (release_cycles) */
    bool one_round;            /* mg.release = thesis or counted: one round of depth 1 to every L2
                                  in scope */
    /* mg.release = counted: what this bank sent that a release must see
     * arrive (invalidations; in a GPU home, writes and atomics it forwarded
     * to the system home), counted per generation until acknowledged. A
     * marker is answered once every generation up to its arrival is drained. */
    bool counted;
    uint64_t gen;     /* the open generation (from 1) */
    uint64_t gen_low; /* no generation below it has anything outstanding */
    uint32_t *gout;   /* outstanding per generation, at gen % n_gout */
    unsigned n_gout;
    int inv_slot;         /* release slot that invalidations sent now also count in (-1: none) */
    bool gpu_atomics;     /* hmg, sw-h, mg.gpu_atomics = gpu-home: .gpu/.cta atomics at the GPU
                             home */
    struct msg_list outq; /* messages for the sysnet that found their vnet full */
    struct mg_stats st;
};

static inline struct mg_l2 *mg_of(void *p)
{
    return p;
}

/* ---- homes ---- */

/* The line's system home (the first toucher of its page) and the home of
 * this bank's GPU: in hmg the GPM of this GPU with the system home's index
 * (spec 004b §2.1, Figure 5.6), else the system home itself. */
static inline unsigned mg_sys_home(struct mg_l2 *c, addr_t line, bool touch)
{
    if (!c->base.w.pages)
        return c->gpm;
    return touch ? pagemap_touch(c->base.w.pages, line, c->gpm)
                 : pagemap_owner(c->base.w.pages, line);
}

static inline unsigned mg_gpu_home(const struct mg_l2 *c, unsigned sys)
{
    return c->f.hier ? c->gpm / c->gpms * c->gpms + sys % c->gpms : sys;
}

/* ---- mg_l2.c: the bank ---- */

/* To bank `bank` of GPM `gpm` through the sysnet. */
void mg_sys_send(struct mg_l2 *c, struct msg *m, unsigned gpm, unsigned vnet, uint16_t type,
                 uint8_t cls, uint16_t bytes);
/* A GPU home's fetch for a .gpu atomic (IA) that an invalidation of its
 * region or a bulk invalidation meets may bring stale data: use it once. */
void mg_stale_fetch(struct mg_l2 *c, const struct cache_line *l);

/* ---- mg_dir.c: the directory (nhcc, hmg, ideal-mg) ---- */

/* Run the directory for request m at its home (once per request). */
void mg_dir_step(struct mg_l2 *c, struct msg *m, bool write);
/* An invalidation of a region from its home (MSG_MG_INV, from another GPM). */
void mg_dir_take_inv(struct mg_l2 *c, struct msg *m);

/* The bank's tables after the data array's, as its w->cov indexes them:
 * the rounds of L1 releases (mg_release.c), the release slots (mg_slots.c),
 * then, with a directory, the
 * directory's (mg_dir.c). */
enum { MG_COV_L2, MG_COV_ROUNDS, MG_COV_SLOTS, MG_COV_DIR };

/* ---- mg_slots.c: the release slots' table (nhcc.Slots) ---- */

/* What a slot is taken for: the table's Take events, in order. */
enum mg_slot_kind { MG_SLOT_ROUND, MG_SLOT_MARKER, MG_SLOT_INV, MG_SLOT_FWD, MG_SLOT_ACQ };
/* A free slot (mg_rel_slot) takes m for `kind`, with no answer outstanding. */
struct mg_rel *mg_slot_take(struct mg_l2 *c, enum mg_slot_kind kind, struct msg *m);
/* Counted: an invalidation sent now is counted in slot r (one more answer). */
void mg_slot_count(struct mg_l2 *c, struct mg_rel *r);
/* An answer m (MSG_MG_MARKACK or MSG_MG_INVACK) for slot r: one fewer. */
void mg_slot_answer(struct mg_l2 *c, struct mg_rel *r, struct msg *m);
/* Slot r is done: it answers its message and is free. True: it was a round
 * (the rounds' table answers the releases next). */
bool mg_slot_done(struct mg_l2 *c, struct mg_rel *r);

/* ---- mg_release.c: release completion, bulk invalidation ---- */

/* Counted: one more message outstanding in the open generation; its tag. */
uint64_t mg_gen_count(struct mg_l2 *c);
/* A free release slot (the slots double when all are busy). */
struct mg_rel *mg_rel_slot(struct mg_l2 *c);
/* Finish slot r if its acknowledgements are in and its generations drained. */
void mg_slot_check(struct mg_l2 *c, struct mg_rel *r);
/* Counted, at the system home: the slot that acknowledges the write or
 * atomic m a GPU home forwarded once its invalidations have arrived. */
int mg_ack_slot(struct mg_l2 *c, struct msg *m);
/* Counted: an invalidation or a forwarded write acknowledged (MSG_MG_INVACK). */
void mg_take_invack(struct mg_l2 *c, struct msg *m);
/* The slots' table takes (used) or frees slot r: its bit in rel_used. */
void mg_slot_mark_used(struct mg_l2 *c, const struct mg_rel *r, bool used);
/* An L1's release (MSG_MG_REL) or another GPM's marker (MSG_MG_MARK). False:
 * the pipeline lacks room for the answers. */
bool mg_take_rel(struct mg_l2 *c, struct msg *m);
/* Software coherence: an acquire (MSG_MG_ACQ) drops copies of remote lines.
 * False: no room in the pipeline. */
bool mg_take_acq(struct mg_l2 *c, struct msg *m);
/* Another GPM's answer to a marker or an acquire (MSG_MG_MARKACK). */
void mg_take_ack(struct mg_l2 *c, struct msg *m);

#endif
