/*
 * directed-rig.h - the rig the directed transition tests of the coherent
 * protocols share (611 gpuvi, 621 gpuvini, 631 ideal, 651 mesi, 700 tcs and
 * tcw): a tiny machine, one-line helpers for operations, the check that
 * every table cell fired, and the walk through the cells that every
 * write-through L1 (the vi family's and tc's) has.
 *
 * The machine: 4 SMs, 2 L2 banks, an L1 of one set of 2 ways (every line
 * shares it), L2 banks of 2 sets of 2 ways, merge_max 1, so that a handful of
 * lines causes replacements, merges and merge stalls. Lines A, B, C and X
 * share L2 bank 0 set 0; Y is in bank 1; Z in bank 0 set 1.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TESTS_DIRECTED_RIG_H
#define TESTS_DIRECTED_RIG_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "check/inject.h"

#define A 0x0u
#define B 0x200u
#define C 0x400u
#define X 0x10000u
#define Y 0x10080u
#define Z 0x10100u

/* The tiny machine, then `extra` settings (as --set takes them; the
 * protocol first) applied after the rig's own, so that one may override
 * them. NULL entries are skipped: a test passes an optional setting as it
 * holds it. Fails the test on a bad setting. */
static inline struct inject *rig_with(const char *const *extra, unsigned n_extra)
{
    const char *sets[16] = {"gpu.sms=4",   "l2.banks=2", "l1.size=256",   "l1.ways=2",
                            "l2.size=512", "l2.ways=2",  "l1.merge_max=1"};
    unsigned n = 7;
    for (unsigned i = 0; i < n_extra; i++) {
        if (!extra[i])
            continue;
        if (n == ARRAY_LEN(sets))
            fail_msg("rig: more than %zu settings", ARRAY_LEN(sets));
        sets[n++] = extra[i];
    }
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, n, err, sizeof err))
        fail_msg("%s", err);
    return inject_new(&cfg);
}

/* rig(protocol, settings...): the tiny machine with these settings (see
 * rig_with). */
#define rig(...)                                                                                   \
    rig_with((const char *const[]){__VA_ARGS__}, ARRAY_LEN(((const char *const[]){__VA_ARGS__})))

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
    unsigned id =
        inject_atomic(r, sm, 0, a, ATOM_ADD, ATYPE_U32, add, 0, SEM_RELAXED, SCOPE_GPU, 0);
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

static inline uint64_t stat(struct inject *r, const char *name)
{
    return inject_stat(r, name);
}

/* A statistic summed over n controllers: fmt names controller %u's. */
static inline uint64_t stat_sum(struct inject *r, const char *fmt, unsigned n)
{
    uint64_t s = 0;
    char name[128];
    for (unsigned i = 0; i < n; i++) {
        snprintf(name, sizeof name, fmt, i);
        s += inject_stat(r, name);
    }
    return s;
}

/* `n` messages of class `cls` (a string literal: "INV", "RCL") went down to
 * the L1s and as many answers came back up. A macro, so that a failure
 * names the test's line. */
#define assert_msgs_down_and_up(r, cls, n)                                                         \
    do {                                                                                           \
        assert_int_equal(stat(r, "gpu.noc.down.msgs." cls), n);                                    \
        assert_int_equal(stat(r, "gpu.noc.up.msgs." cls), n);                                      \
    } while (0)

/* The INV/DATA race on line X, which the caller has put in the L2: SM
 * `reader`'s read is served, then SM `writer`'s write (scheduled at
 * `write_at`) invalidates the reader while the fill is on its way. The fill
 * answers the load with `served`, the value before the write, but is not
 * cached; the next load sees the write. */
static inline void check_fill_raced_by_inv(struct inject *r, unsigned reader, unsigned writer,
                                           uint64_t write_at, uint64_t served)
{
    unsigned a = ld_at(r, reader, X, 0);
    st_at(r, writer, X, 12, write_at);
    inject_run(r);
    assert_int_equal(inject_value(r, a), served);
    char used_once[64];
    snprintf(used_once, sizeof used_once, "gpu.sm[%u].l1.fills_used_once", reader);
    assert_int_equal(stat(r, used_once), 1);
    assert_string_equal(inject_l1_state(r, reader, X), "I");
    assert_int_equal(ld(r, reader, X), 12);
}

/* A cell documented as unreachable, with the reason (printed by the check). */
struct unreached {
    const char *table, *state, *event, *why;
};

/* Every defined cell of every table of the rigs' protocol fired on one of
 * `rigs` (a STALL cell: was taken), except the documented ones, which must
 * indeed never fire. More than one rig serves cells that need settings of
 * their own (tc's lease 0); coverage is counted per machine, so the counts
 * are added up. The rigs run one protocol. Returns the number of cells that
 * break this, each printed. */
static inline int check_coverage_of(struct inject *const *rigs, unsigned n_rigs,
                                    const struct unreached *skip, unsigned n_skip)
{
    unsigned n;
    const struct coh_cov *cov = machine_cov(inject_machine(rigs[0]), &n);
    int bad = 0;
    for (unsigned i = 0; i < n; i++) {
        const struct coh_table *t = cov[i].t;
        char name[64];
        snprintf(name, sizeof name, "%s.%s", t->proto, t->ctrl);
        for (unsigned s = 0; s < t->n_states; s++)
            for (unsigned e = 0; e < t->n_events; e++) {
                const struct coh_trans *cell = coh_cell(t, s, e);
                if (cell->kind == COH_UNDEF)
                    continue;
                size_t k = (size_t)s * t->n_events + e;
                uint64_t hits = 0;
                for (unsigned m = 0; m < n_rigs; m++) {
                    unsigned n_m;
                    const struct coh_cov *c = machine_cov(inject_machine(rigs[m]), &n_m);
                    if (n_m != n || c[i].t != t)
                        fail_msg("check_coverage_of: the rigs run different protocols");
                    hits += cell->kind == COH_STALL ? c[i].stalls[k] : c[i].hits[k];
                }
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

/* The same over one rig. */
static inline int check_coverage(struct inject *r, const struct unreached *skip, unsigned n_skip)
{
    return check_coverage_of(&r, 1, skip, n_skip);
}

/* Drive the cells every write-through L1 has (states I, IV, V, VM, II):
 * requests in each state, merges, replacement and flash invalidation. What
 * is left is each protocol's own way to lose a line (an invalidation, a
 * lease's end). Each step says which cells it means to fire. */
static inline void write_through_l1_walk(struct inject *r)
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
    /* IV+Store, IV+Atomic (parked until the fill), IV+FlashInv */
    ld_at(r, 2, X, 0);
    st_at(r, 2, X, 7, 1);
    ld_at(r, 2, Y, 2);
    ato_at(r, 2, Y, 1, 3);
    ld_at(r, 2, Z, 4);
    launch(r, 2, 5);
    inject_run(r);
}

#endif
