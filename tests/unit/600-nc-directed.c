/*
 * 600-nc-directed.c - directed transition tests of the non-coherent
 * baselines `nol1` and `rc` and their shared L2, on values.
 *
 * The machine is tiny so that replacements happen: 2 SMs, 2 L2 banks, an L1
 * of one set of 2 ways, an L2 bank of 2 sets of 2 ways. Lines 0x0, 0x200,
 * 0x400 share L2 bank 0 set 0; every line shares the single L1 set.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "check/inject.h"

#define X 0x10000u
#define Y 0x10080u
#define Z 0x10100u

static struct inject *rig(const char *protocol, const char *extra)
{
    const char *sets[] = {"gpu.sms=2",      "l2.banks=2",  "l1.size=256",
                          "l1.ways=2",      "l2.size=512", "l2.ways=2",
                          "l1.merge_max=1", protocol,      extra ? extra : "sim.seed=1"};
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, sizeof sets / sizeof sets[0], err, sizeof err))
        fail_msg("%s", err);
    return inject_new(&cfg);
}

/* The baseline's contract: a stale hit returns the stale value until an
 * acquire invalidates the L1. */
static void rc_stale_hit_until_acquire(void **state)
{
    (void)state;
    struct inject *r = rig("coherence.protocol=rc", NULL);
    unsigned a = inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    assert_int_equal(inject_value(r, a), 0);
    assert_string_equal(inject_l1_state(r, 0, X), "V");

    unsigned w = inject_store(r, 1, 0, X, 4, 7, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    assert_true(inject_done(r, w));

    unsigned b = inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    assert_int_equal(inject_value(r, b), 0); /* stale: SM 0 still holds the old line */
    /* a hit costs exactly l1.hit_cycles, plus one cycle on each core<->L1 port */
    assert_int_equal(inject_latency(r, b), 20 + 2);

    inject_order(r, 0, 0, MEM_FENCE, SEM_ACQ_REL, SCOPE_GPU, 0);
    inject_run(r);
    assert_string_equal(inject_l1_state(r, 0, X), "I");
    unsigned c = inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    assert_int_equal(inject_value(r, c), 7);
    inject_free(r);
}

/* A .cta fence is not an acquire at .gpu scope: the stale copy stays. A
 * .gpu-scoped relaxed load bypasses the L1 and sees the L2. */
static void rc_scopes(void **state)
{
    (void)state;
    struct inject *r = rig("coherence.protocol=rc", NULL);
    inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    inject_store(r, 1, 0, X, 4, 9, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    inject_order(r, 0, 0, MEM_FENCE, SEM_ACQ_REL, SCOPE_CTA, 0);
    inject_run(r);
    unsigned weak = inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    assert_int_equal(inject_value(r, weak), 0);
    unsigned strong = inject_load(r, 0, 0, X, 4, SEM_RELAXED, SCOPE_GPU, 0);
    inject_run(r);
    assert_int_equal(inject_value(r, strong), 9);
    inject_free(r);
}

static void nol1_every_load_sees_l2(void **state)
{
    (void)state;
    struct inject *r = rig("coherence.protocol=nol1", NULL);
    unsigned a = inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    inject_store(r, 1, 0, X, 4, 7, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    unsigned b = inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    assert_int_equal(inject_value(r, a), 0);
    assert_int_equal(inject_value(r, b), 7);
    assert_string_equal(inject_l1_state(r, 0, X), "I");
    inject_free(r);
}

/* Spec 002 §3.1: NO-L1 does not merge loads of different warps; rc does. */
static void merging(void **state)
{
    (void)state;
    struct inject *n = rig("coherence.protocol=nol1", NULL);
    inject_load(n, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_load(n, 0, 1, X + 4, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(n);
    assert_int_equal(inject_stat(n, "gpu.noc.up.msgs.REQ"), 2);
    inject_free(n);

    struct inject *r = rig("coherence.protocol=rc", NULL);
    inject_store(r, 1, 0, X + 4, 4, 5, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    unsigned a = inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    unsigned b = inject_load(r, 0, 1, X + 4, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    assert_int_equal(inject_stat(r, "gpu.noc.up.msgs.REQ"), 1); /* one GETS */
    assert_int_equal(inject_stat(r, "gpu.sm[0].l1.load_merged"), 1);
    assert_int_equal(inject_value(r, a), 0);
    assert_int_equal(inject_value(r, b), 5);
    inject_free(r);
}

/* Atomics are performed at the L2 bank, serialised there, in lane order. */
static void atomics_at_l2(void **state)
{
    (void)state;
    for (int p = 0; p < 2; p++) {
        struct inject *r = rig(p ? "coherence.protocol=rc" : "coherence.protocol=nol1", NULL);
        unsigned ids[6];
        for (unsigned i = 0; i < 6; i++)
            ids[i] =
                inject_atomic(r, i % 2, i, Y, ATOM_ADD, ATYPE_U32, 3, 0, SEM_RELAXED, SCOPE_GPU, i);
        inject_run(r);
        uint64_t seen = 0;
        for (unsigned i = 0; i < 6; i++) {
            uint64_t v = inject_value(r, ids[i]);
            assert_int_equal(v % 3, 0);
            seen |= 1ull << (v / 3);
        }
        assert_int_equal(seen, 0x3f); /* old values 0,3,...,15: each exactly once */
        unsigned l = inject_load(r, 0, 0, Y, 4, SEM_RELAXED, SCOPE_GPU, 0);
        unsigned c =
            inject_atomic(r, 1, 0, Y, ATOM_CAS, ATYPE_U32, 18, 100, SEM_RELAXED, SCOPE_GPU, 0);
        inject_run(r);
        assert_int_equal(inject_value(r, l), 18);
        assert_int_equal(inject_value(r, c), 18);
        unsigned d = inject_load(r, 0, 0, Y, 4, SEM_RELAXED, SCOPE_GPU, 0);
        inject_run(r);
        assert_int_equal(inject_value(r, d), 100);
        inject_free(r);
    }
}

/* A write-back L2: dirty data survives eviction through DRAM. */
static void l2_evicts_through_dram(void **state)
{
    (void)state;
    struct inject *r = rig("coherence.protocol=nol1", NULL);
    inject_store(r, 0, 0, 0x0, 4, 11, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    assert_string_equal(inject_l2_state(r, 0x0), "M");
    inject_load(r, 0, 0, 0x200, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_load(r, 0, 0, 0x400, 4, SEM_WEAK, SCOPE_CTA, 100);
    inject_run(r);
    assert_string_equal(inject_l2_state(r, 0x0), "I"); /* evicted, written back */
    assert_int_equal(inject_stat(r, "gpu.dram[0].writes"), 1);
    unsigned b = inject_load(r, 1, 0, 0x0, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    assert_int_equal(inject_value(r, b), 11);
    inject_free(r);
}

/* Every transition of rc's L1 and the baseline L2 fires (coverage). */
static void rc_every_transition(void **state)
{
    (void)state;
    struct inject *r = rig("coherence.protocol=rc", NULL);
    /* I+Load, IV+Load (merge), IV+MergeFull (stall, merge_max=1), IV+Data, V+Load */
    inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_load(r, 0, 1, X, 4, SEM_WEAK, SCOPE_CTA, 1);
    inject_load(r, 0, 2, X, 4, SEM_WEAK, SCOPE_CTA, 2);
    inject_run(r);
    /* V+LoadL2 (an acquire: then V+FlashInv of nothing else) */
    inject_load(r, 0, 0, X, 4, SEM_ACQUIRE, SCOPE_GPU, 0);
    inject_run(r);
    /* I+LoadL2 */
    inject_load(r, 0, 0, Y, 4, SEM_RELAXED, SCOPE_SYS, 0);
    /* I+Store, I+Atomic */
    inject_store(r, 0, 0, Z, 4, 1, SEM_WEAK, SCOPE_CTA, 0);
    inject_atomic(r, 0, 0, Z + 0x1000, ATOM_ADD, ATYPE_U32, 1, 0, SEM_RELAXED, SCOPE_GPU, 0);
    inject_run(r);
    /* V+Store, V+Atomic */
    inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_load(r, 0, 0, Y, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    inject_store(r, 0, 0, X, 4, 2, SEM_WEAK, SCOPE_CTA, 0);
    inject_atomic(r, 0, 0, Y, ATOM_ADD, ATYPE_U32, 1, 0, SEM_RELAXED, SCOPE_GPU, 0);
    inject_run(r);
    /* V+Replace: three lines through a one-set, two-way L1 */
    inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    inject_load(r, 0, 0, Y, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    inject_load(r, 0, 0, Z, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    /* V+FlashInv */
    inject_order(r, 0, 0, MEM_FENCE, SEM_SC, SCOPE_GPU, 0);
    inject_run(r);
    /* IV+LoadL2, IV+Store, IV+Atomic, IV+FlashInv */
    inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_load(r, 0, 0, X, 4, SEM_RELAXED, SCOPE_GPU, 1);
    inject_load(r, 0, 0, Y, 4, SEM_WEAK, SCOPE_CTA, 2);
    inject_store(r, 0, 0, Y, 4, 3, SEM_WEAK, SCOPE_CTA, 3);
    inject_load(r, 0, 0, Z, 4, SEM_WEAK, SCOPE_CTA, 4);
    inject_atomic(r, 0, 0, Z, ATOM_ADD, ATYPE_U32, 1, 0, SEM_RELAXED, SCOPE_GPU, 5);
    inject_load(r, 1, 0, X, 4, SEM_WEAK, SCOPE_CTA, 6);
    inject_order(r, 1, 0, MEM_KERNEL_BEGIN, SEM_ACQUIRE, SCOPE_GPU, 7);
    inject_run(r);
    /* II+Load, II+LoadL2, II+Store, II+Atomic, II+Rsp, II+LastRsp */
    inject_store(r, 1, 0, Z, 4, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_load(r, 1, 0, Z, 4, SEM_WEAK, SCOPE_CTA, 1);
    inject_load(r, 1, 0, Z, 4, SEM_VOLATILE, SCOPE_SYS, 2);
    inject_store(r, 1, 0, Z, 4, 5, SEM_WEAK, SCOPE_CTA, 3);
    inject_atomic(r, 1, 0, Z, ATOM_ADD, ATYPE_U32, 1, 0, SEM_RELAXED, SCOPE_GPU, 4);
    inject_order(r, 1, 0, MEM_FENCE, SEM_ACQ_REL, SCOPE_SYS, 5);
    inject_run(r);
    /* the L2: IV stalls (two SMs miss on one line at once), V/M+Replace */
    inject_load(r, 0, 0, 0x400, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_load(r, 1, 0, 0x400, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_store(r, 1, 1, 0x400, 4, 1, SEM_WEAK, SCOPE_CTA, 1);
    inject_atomic(r, 0, 1, 0x400, ATOM_ADD, ATYPE_U32, 1, 0, SEM_RELAXED, SCOPE_GPU, 2);
    inject_run(r);
    inject_load(r, 0, 0, 0x0, 4, SEM_RELAXED, SCOPE_GPU, 0);
    inject_run(r);
    inject_load(r, 0, 0, 0x200, 4, SEM_RELAXED, SCOPE_GPU, 0); /* evicts 0x400 (M) */
    inject_run(r);
    inject_load(r, 0, 0, 0x400, 4, SEM_RELAXED, SCOPE_GPU, 0); /* evicts 0x0 (V) */
    inject_run(r);
    /* M+GetS, M+Write, M+Atomic */
    inject_store(r, 0, 0, 0x800, 4, 1, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    inject_load(r, 0, 0, 0x800, 4, SEM_RELAXED, SCOPE_GPU, 0);
    inject_store(r, 0, 0, 0x800, 4, 2, SEM_WEAK, SCOPE_CTA, 1);
    inject_atomic(r, 0, 0, 0x800, ATOM_ADD, ATYPE_U32, 1, 0, SEM_RELAXED, SCOPE_GPU, 2);
    /* V+GetS, V+Write */
    inject_load(r, 1, 0, 0x880, 4, SEM_RELAXED, SCOPE_GPU, 3);
    inject_run(r);
    inject_load(r, 1, 0, 0x880, 4, SEM_RELAXED, SCOPE_GPU, 0);
    inject_store(r, 1, 0, 0x880, 4, 1, SEM_WEAK, SCOPE_CTA, 1);
    inject_load(r, 1, 0, 0x900, 4, SEM_RELAXED, SCOPE_GPU, 2);
    inject_run(r);
    inject_atomic(r, 1, 0, 0x900, ATOM_ADD, ATYPE_U32, 1, 0, SEM_RELAXED, SCOPE_GPU, 0);
    inject_run(r);

    unsigned n;
    const struct coh_cov *cov = machine_cov(inject_machine(r), &n);
    int missing = 0;
    for (unsigned i = 0; i < n; i++) {
        const struct coh_table *t = cov[i].t;
        for (unsigned s = 0; s < t->n_states; s++)
            for (unsigned e = 0; e < t->n_events; e++) {
                const struct coh_trans *cell = coh_cell(t, s, e);
                size_t k = (size_t)s * t->n_events + e;
                uint64_t hits = cell->kind == COH_STALL ? cov[i].stalls[k] : cov[i].hits[k];
                /* l2.write_ack = arrival's cells: writes_acknowledged_on_arrival;
                 * the multi-GPM L1's .cta atomics: 641-mg-atomics.c */
                if (!strcmp(t->event_names[e], "WriteOnArrival") ||
                    !strcmp(t->event_names[e], "MemDataW") ||
                    !strcmp(t->event_names[e], "CtaAtomic"))
                    continue;
                if (cell->kind != COH_UNDEF && !hits) {
                    print_message("never fired: %s.%s [%s][%s]\n", t->proto, t->ctrl,
                                  t->state_names[s], t->event_names[e]);
                    missing++;
                }
            }
    }
    assert_int_equal(missing, 0);
    inject_free(r);
}

/* l2.write_ack = arrival: a write is acknowledged as soon as the bank takes
 * it, a miss merged into the allocated line whose fill keeps the written
 * bytes; later requests still see every write in arrival order. */
static void writes_acknowledged_on_arrival(void **state)
{
    (void)state;
    uint64_t lat[2];
    for (unsigned arrival = 0; arrival < 2; arrival++) {
        struct inject *r = rig("coherence.protocol=rc",
                               arrival ? "l2.write_ack=arrival" : "l2.write_ack=performed");
        /* word 1 of line 0x0 holds 9 in DRAM only: written, then evicted */
        inject_store(r, 0, 0, 0x4, 4, 9, SEM_WEAK, SCOPE_CTA, 0);
        inject_run(r);
        inject_load(r, 0, 0, 0x200, 4, SEM_RELAXED, SCOPE_GPU, 0);
        inject_load(r, 0, 0, 0x400, 4, SEM_RELAXED, SCOPE_GPU, 100);
        inject_run(r);
        assert_string_equal(inject_l2_state(r, 0x0), "I");
        /* I+WriteOnArrival, then IV+WriteOnArrival (nothing parked), IV+MemDataW */
        unsigned w = inject_store(r, 0, 0, 0x0, 4, 5, SEM_WEAK, SCOPE_CTA, 0);
        inject_store(r, 1, 0, 0x8, 4, 6, SEM_WEAK, SCOPE_CTA, 1);
        inject_run(r);
        lat[arrival] = inject_latency(r, w);
        unsigned a = inject_load(r, 1, 0, 0x0, 4, SEM_RELAXED, SCOPE_GPU, 0);
        unsigned b = inject_load(r, 1, 0, 0x4, 4, SEM_RELAXED, SCOPE_GPU, 1);
        unsigned c = inject_load(r, 1, 0, 0x8, 4, SEM_RELAXED, SCOPE_GPU, 2);
        /* M+WriteOnArrival: the fill has come, the line is dirty */
        inject_store(r, 0, 0, 0x0, 4, 7, SEM_WEAK, SCOPE_CTA, 3);
        inject_run(r);
        assert_int_equal(inject_value(r, a), 5);
        assert_int_equal(inject_value(r, b), 9);
        assert_int_equal(inject_value(r, c), 6);
        assert_string_equal(inject_l2_state(r, 0x0), "M");
        if (arrival) {
            assert_true(inject_coverage(r, "nc.L2", "I", "WriteOnArrival") >= 1);
            assert_true(inject_coverage(r, "nc.L2", "IV", "WriteOnArrival") >= 1);
            assert_true(inject_coverage(r, "nc.L2", "IV", "MemDataW") >= 1);
            assert_true(inject_coverage(r, "nc.L2", "M", "WriteOnArrival") >= 1);
            /* V+WriteOnArrival: a line only read so far */
            inject_load(r, 0, 0, 0x880, 4, SEM_RELAXED, SCOPE_GPU, 0);
            inject_run(r);
            inject_store(r, 0, 0, 0x880, 4, 1, SEM_WEAK, SCOPE_CTA, 0);
            inject_run(r);
            assert_true(inject_coverage(r, "nc.L2", "V", "WriteOnArrival") >= 1);
            unsigned d = inject_load(r, 1, 0, 0x880, 4, SEM_RELAXED, SCOPE_GPU, 0);
            inject_run(r);
            assert_int_equal(inject_value(r, d), 1);
        } else {
            assert_int_equal(inject_coverage(r, "nc.L2", "I", "WriteOnArrival"), 0);
        }
        inject_free(r);
    }
    /* the miss's acknowledgement waited for DRAM and the bank's pipeline;
     * on arrival it needs only the trip to the bank and back */
    assert_true(lat[1] + 100 < lat[0]);
}

static void nol1_every_transition(void **state)
{
    (void)state;
    struct inject *r = rig("coherence.protocol=nol1", NULL);
    inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_store(r, 0, 0, X, 4, 1, SEM_WEAK, SCOPE_CTA, 1);
    inject_atomic(r, 0, 0, X, ATOM_ADD, ATYPE_U32, 1, 0, SEM_RELAXED, SCOPE_GPU, 2);
    inject_run(r);
    assert_true(inject_coverage(r, "nol1.L1", "I", "Load") == 1);
    assert_true(inject_coverage(r, "nol1.L1", "I", "Store") == 1);
    assert_true(inject_coverage(r, "nol1.L1", "I", "Atomic") == 1);
    assert_true(inject_coverage(r, "nol1.L1", "I", "Rsp") == 3);
    inject_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rc_stale_hit_until_acquire),
        cmocka_unit_test(rc_scopes),
        cmocka_unit_test(nol1_every_load_sees_l2),
        cmocka_unit_test(merging),
        cmocka_unit_test(atomics_at_l2),
        cmocka_unit_test(l2_evicts_through_dram),
        cmocka_unit_test(rc_every_transition),
        cmocka_unit_test(writes_acknowledged_on_arrival),
        cmocka_unit_test(nol1_every_transition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
