/*
 * 610-vi-rig.h - the rig the directed tests of gpuvi, gpuvini and ideal
 * share (tests 610-639): a tiny machine, one-line helpers for operations, and
 * the coverage check.
 *
 * The machine: 4 SMs, 2 L2 banks, an L1 of one set of 2 ways (every line
 * shares it), L2 banks of 2 sets of 2 ways, merge_max 1. Lines A, B, C (and
 * X) share L2 bank 0 set 0; Y is in bank 1; Z in bank 0 set 1. For gpuvini
 * the directory has 2 entries of 2 ways per... see each test's settings.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "check/inject.h"

#define A 0x0u
#define B 0x200u
#define C 0x400u
#define X 0x10000u
#define Y 0x10080u
#define Z 0x10100u

static inline struct inject *rig(const char *protocol, const char *extra)
{
    const char *sets[] = {"gpu.sms=4",   "l2.banks=2", "l1.size=256",    "l1.ways=2",
                          "l2.size=512", "l2.ways=2",  "l1.merge_max=1", protocol,
                          extra ? extra : "sim.seed=1"};
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, sizeof sets / sizeof sets[0], err, sizeof err))
        fail_msg("%s", err);
    return inject_new(&cfg);
}

/* Operations that run to completion at once. */
static inline uint64_t ld(struct inject *r, unsigned sm, addr_t a)
{
    unsigned id = inject_load(r, sm, 0, a, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    return inject_value(r, id);
}

static inline void st(struct inject *r, unsigned sm, addr_t a, uint32_t v)
{
    inject_store(r, sm, 0, a, 4, v, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
}

static inline uint64_t ato(struct inject *r, unsigned sm, addr_t a, uint32_t add)
{
    unsigned id = inject_atomic(r, sm, 0, a, ATOM_ADD, ATYPE_U32, add, 0, SEM_RELAXED,
                                SCOPE_GPU, 0);
    inject_run(r);
    return inject_value(r, id);
}

/* Scheduled operations (run by the next inject_run). */
static inline unsigned ld_at(struct inject *r, unsigned sm, addr_t a, uint64_t at)
{
    return inject_load(r, sm, 0, a, 4, SEM_WEAK, SCOPE_CTA, at);
}

static inline unsigned st_at(struct inject *r, unsigned sm, addr_t a, uint32_t v, uint64_t at)
{
    return inject_store(r, sm, 0, a, 4, v, SEM_WEAK, SCOPE_CTA, at);
}

static inline unsigned ato_at(struct inject *r, unsigned sm, addr_t a, uint32_t add, uint64_t at)
{
    return inject_atomic(r, sm, 0, a, ATOM_ADD, ATYPE_U32, add, 0, SEM_RELAXED, SCOPE_GPU, at);
}

static inline void launch(struct inject *r, unsigned sm, uint64_t at)
{
    inject_order(r, sm, 0, MEM_KERNEL_BEGIN, SEM_ACQUIRE, SCOPE_GPU, at);
}

/* A cell documented as unreachable, with the reason (printed by the check). */
struct unreached {
    const char *table, *state, *event, *why;
};

/* Every defined cell of every table of the machine fired (a STALL cell: was
 * taken), except the documented ones, which must indeed never fire. Returns
 * the number of cells that break this. */
static inline int check_coverage(struct inject *r, const struct unreached *skip, unsigned n_skip)
{
    unsigned n;
    const struct coh_cov *cov = machine_cov(inject_machine(r), &n);
    int bad = 0;
    for (unsigned i = 0; i < n; i++) {
        const struct coh_table *t = cov[i].t;
        char name[64];
        snprintf(name, sizeof name, "%s.%s", t->proto, t->ctrl);
        for (unsigned s = 0; s < t->n_states; s++)
            for (unsigned e = 0; e < t->n_events; e++) {
                const struct coh_trans *cell = coh_cell(t, s, e);
                size_t k = (size_t)s * t->n_events + e;
                uint64_t hits = cell->kind == COH_STALL ? cov[i].stalls[k] : cov[i].hits[k];
                if (cell->kind == COH_UNDEF)
                    continue;
                bool skipped = false;
                for (unsigned j = 0; j < n_skip; j++)
                    if (!strcmp(skip[j].table, name) && !strcmp(skip[j].state, t->state_names[s]) &&
                        !strcmp(skip[j].event, t->event_names[e]))
                        skipped = true;
                if (!hits && !skipped) {
                    print_message("never fired: %s [%s][%s]\n", name, t->state_names[s],
                                  t->event_names[e]);
                    bad++;
                } else if (hits && skipped) {
                    print_message("documented unreachable but fired: %s [%s][%s]\n", name,
                                  t->state_names[s], t->event_names[e]);
                    bad++;
                }
            }
    }
    return bad;
}

/* Drive every cell of the L1 table (shared by the three protocols). Each step
 * says which cells it means to fire. */
static inline void l1_every_transition(struct inject *r)
{
    /* I+Load, IV+Load (merge), IV+MergeFull (stall, merge_max=1), IV+Data, V+Load */
    ld_at(r, 0, X, 0);
    ld_at(r, 0, X, 1);
    ld_at(r, 0, X, 2);
    inject_run(r);
    ld(r, 0, X);
    /* V+Store, VM+Store, VM+Load (Opt 2), VM+Rsp, VM+LastRsp */
    st_at(r, 0, X, 1, 0);
    st_at(r, 0, X, 2, 1);
    ld_at(r, 0, X, 2);
    inject_run(r);
    /* VM+Atomic, then II+Rsp, II+LastRsp */
    st_at(r, 0, X, 3, 0);
    ato_at(r, 0, X, 1, 1);
    inject_run(r);
    /* V+Atomic */
    ld(r, 0, X);
    ato(r, 0, X, 1);
    /* V+Replace: three lines through the one-set, two-way L1 */
    ld(r, 0, X);
    ld(r, 0, Y);
    ld(r, 0, Z);
    /* V+FlashInv, VM+FlashInv: Z valid, Y written, then a launch */
    ld(r, 0, Y);
    st_at(r, 0, Y, 4, 0);
    launch(r, 0, 1);
    inject_run(r);
    /* I+Store, I+Atomic, II+Load, II+Store, II+Atomic */
    st_at(r, 1, Z, 5, 0);
    ld_at(r, 1, Z, 1);
    st_at(r, 1, Z, 6, 2);
    ato_at(r, 1, Z, 1, 3);
    ato_at(r, 1, Y, 1, 4);
    inject_run(r);
    /* IV+Store, IV+Atomic, IV+FlashInv */
    ld_at(r, 2, X, 0);
    st_at(r, 2, X, 7, 1);
    ld_at(r, 2, Y, 2);
    ato_at(r, 2, Y, 1, 3);
    ld_at(r, 2, Z, 4);
    launch(r, 2, 5);
    inject_run(r);
    /* V+Inv, I+Inv (a stale sharer bit) and VM+Inv: SMs 0, 1 read X, SM 3
     * reads Y; SM 0 drops X silently (Y, Z); SM 1 writes X at once while SM 2
     * writes it: the bank invalidates SM 1's VM copy and SM 0's stale bit */
    ld(r, 0, X);
    ld(r, 1, X);
    ld(r, 0, Y);
    ld(r, 0, Z);
    st_at(r, 1, X, 8, 0);
    st_at(r, 2, X, 9, 0);
    inject_run(r);
    ld(r, 3, X);
    st(r, 2, X, 10); /* V+Inv at SM 3 */
    /* VM+Replace: SM 0 holds X and Z. Its loads of a line it is writing (Q:
     * II, so each is performed at the L2 and fills nothing) queue twelve data
     * responses from bank 0 ahead of the ack of its next write, to X;
     * meanwhile it touches Z and fills Y from bank 1, replacing the VM line */
    const addr_t Q = 0x500; /* bank 0 set 1 */
    st(r, 3, Q, 1);
    ld(r, 3, Y);
    ld(r, 0, X);
    ld(r, 0, Z);
    st_at(r, 0, Q, 2, 0);
    for (unsigned i = 1; i <= 12; i++)
        ld_at(r, 0, Q, i);
    st_at(r, 0, X, 11, 13);
    ld_at(r, 0, Z, 14);
    ld_at(r, 0, Y, 15);
    inject_run(r);
    /* IV+Inv (the fill is used once) and II+Inv: SM 0's read of X is served,
     * then SM 1's write invalidates SM 0 while the fill is on its way; SM 2
     * writes X (no copy: I->II) and SM 3's write then invalidates SM 2's stale
     * bit ... which II acks */
    ld(r, 3, X);
    ld_at(r, 0, X, 0);
    st_at(r, 1, X, 12, 30);
    inject_run(r);
    ld(r, 2, X);
    ld(r, 2, Y);
    ld(r, 2, Z);
    st_at(r, 2, X, 13, 0);
    st_at(r, 3, X, 14, 1);
    inject_run(r);
}
