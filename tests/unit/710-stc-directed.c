/*
 * 710-stc-directed.c - spatiotemporal coherence's worked examples (spec 000
 * §2.12: Fig. 2 and Fig. 7) as directed tests on the stc-gcn machine, the
 * multi-band grant of §4.7, the host's writes between kernels, and the
 * invariant observers (golden memory, I-ER1/2, ER3) on throughout.
 *
 * Bands: SEB 12, 16 epochs, so band = address bits [15:12]; every CU starts
 * in epoch 0.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "check/inject.h"

static struct inject *gcn(const char *protocol, const char *extra)
{
    const char *sets[] = {protocol, extra ? extra : "sim.seed=1"};
    struct config cfg;
    char err[256];
    if (config_load(&cfg, GPUCOH_SOURCE_DIR "/configs/stc-gcn.ini", sets, 2, err, sizeof err))
        fail_msg("%s", err);
    return inject_new(&cfg);
}

static uint64_t ld(struct inject *r, unsigned sm, addr_t a, enum mem_sem sem)
{
    unsigned id = inject_load(r, sm, 0, a, 4, sem, sem == SEM_WEAK ? SCOPE_CTA : SCOPE_GPU, 0);
    inject_run(r);
    return inject_value(r, id);
}

static void st(struct inject *r, unsigned sm, addr_t a, uint32_t v)
{
    inject_store(r, sm, 0, a, 4, v, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
}

static uint64_t stat_of(struct inject *r, unsigned sm, const char *what)
{
    char name[96];
    snprintf(name, sizeof name, "gpu.sm[%u].l1.%s", sm, what);
    return inject_stat(r, name);
}

/* Fig. 2: PC1 and PC2 in epoch A. Loads of band A are not cached; loads of
 * band B are (V); a store to A issues at once, one to B blocks (state B);
 * the transition to epoch B invalidates B1 and B2 and issues B3. */
static void fig2_epoch_a_then_b(void **state)
{
    (void)state;
    const addr_t A1 = 0x0000, A2 = 0x0040, A3 = 0x0080; /* band 0 = epoch A */
    const addr_t B1 = 0x1000, B2 = 0x1040, B3 = 0x1080; /* band 1 = epoch B */
    struct inject *r = gcn("coherence.protocol=stc-es", NULL);
    const unsigned PC1 = 0, PC2 = 1;
    ld(r, PC1, A1, SEM_WEAK);
    ld(r, PC2, A2, SEM_WEAK);
    assert_string_equal(inject_l1_state(r, PC1, A1), "I"); /* Load_U: never cached */
    assert_string_equal(inject_l1_state(r, PC2, A2), "I");
    assert_int_equal(stat_of(r, PC1, "loads_uncached") + stat_of(r, PC2, "loads_uncached"), 2);
    ld(r, PC1, B1, SEM_WEAK);
    ld(r, PC2, B2, SEM_WEAK);
    assert_string_equal(inject_l1_state(r, PC1, B1), "V");
    assert_string_equal(inject_l1_state(r, PC2, B2), "V");
    st(r, PC1, A3, 3);
    assert_int_equal(stat_of(r, PC1, "stores_blocked"), 0);
    assert_int_equal(inject_stat(r, "gpu.emu.transitions"), 0);
    /* B3 waits in PC2's BSQ (state B) until epoch B */
    unsigned b3 = inject_store(r, PC2, 0, B3, 4, 33, SEM_WEAK, SCOPE_CTA, 0);
    unsigned peek = inject_load(r, PC1, 0, A1, 4, SEM_WEAK, SCOPE_CTA, 50);
    inject_run(r);
    assert_true(inject_done(r, b3) && inject_done(r, peek));
    assert_int_equal(stat_of(r, PC2, "stores_blocked"), 1);
    assert_int_equal(stat_of(r, PC2, "demands"), 1);
    assert_int_equal(inject_stat(r, "gpu.emu.transitions"), 1);
    /* epoch B: B1 and B2 are gone (scrubbed at the first touch of their sets)
     * and loads of band B are uncached; B3 reached the L2 */
    assert_int_equal(ld(r, PC1, B1, SEM_WEAK), 0);
    assert_int_equal(ld(r, PC2, B2, SEM_WEAK), 0);
    assert_int_equal(stat_of(r, PC1, "lines_scrubbed") + stat_of(r, PC2, "lines_scrubbed"), 2);
    assert_string_equal(inject_l1_state(r, PC1, B1), "I");
    assert_int_equal(ld(r, PC1, B3, SEM_WEAK), 33);
    assert_int_equal(stat_of(r, PC1, "load_hits"), 0);
    /* band A is cacheable again */
    assert_int_equal(ld(r, PC1, A3, SEM_WEAK), 3);
    assert_string_equal(inject_l1_state(r, PC1, A3), "V");
    inject_free(r);
}

/* Fig. 7: thread 0 stores U, V, W (blocked), then, once all three are
 * acknowledged (the release), X. Thread 1 has U, V, W and X cached as 0,
 * spins on X and then reads U, V, W: (1, 1, 1), with no invalidation by the
 * acquire - with `sem` weak as well as acquire. */
static void fig7_run(const char *protocol, enum mem_sem sem, uint64_t expect_transitions_max)
{
    const addr_t U = 0x1000, V = 0x2000, W = 0x3000, X = 0x4000; /* bands 1..4; Z = 0 */
    struct inject *r = gcn(protocol, NULL);
    for (addr_t a = U; a <= X; a += 0x1000)
        assert_int_equal(ld(r, 1, a, SEM_WEAK), 0);
    for (addr_t a = U; a <= X; a += 0x1000)
        assert_string_equal(inject_l1_state(r, 1, a), "V");
    inject_store(r, 0, 0, U, 4, 1, SEM_WEAK, SCOPE_CTA, 0);
    inject_store(r, 0, 0, V, 4, 1, SEM_WEAK, SCOPE_CTA, 0);
    inject_store(r, 0, 0, W, 4, 1, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r); /* the release: every older store acknowledged */
    inject_store(r, 0, 0, X, 4, 1, SEM_RELEASE, SCOPE_GPU, 0);
    inject_run(r);
    uint64_t x;
    do
        x = ld(r, 1, X, sem);
    while (x != 1);
    assert_int_equal(ld(r, 1, U, SEM_WEAK), 1);
    assert_int_equal(ld(r, 1, V, SEM_WEAK), 1);
    assert_int_equal(ld(r, 1, W, SEM_WEAK), 1);
    assert_int_equal(stat_of(r, 1, "load_hits"), 0); /* every cached 0 was invalidated */
    uint64_t t = inject_stat(r, "gpu.emu.transitions");
    print_message("%s: %llu transitions, %llu bands granted\n", protocol, (unsigned long long)t,
                  (unsigned long long)inject_stat(r, "gpu.emu.bands_granted"));
    assert_in_range(t, 2, expect_transitions_max);
    inject_free(r);
}

static void fig7_message_passing(void **state)
{
    (void)state;
    fig7_run("coherence.protocol=stc-es", SEM_ACQUIRE, 4);
    fig7_run("coherence.protocol=stc-es", SEM_WEAK, 4);
    fig7_run("coherence.protocol=stc-ab", SEM_WEAK, 4);
    fig7_run("coherence.protocol=stc-nv", SEM_WEAK, 64);
    /* §4.7: MB grants U, V and W together (one transition), then X */
    fig7_run("coherence.protocol=stc-mb", SEM_WEAK, 2);
}

/* The software baseline without its acquire returns the stale 0 that STC
 * cannot: the example is a real test of the protocol. */
static void fig7_baseline_needs_acquire(void **state)
{
    (void)state;
    struct inject *r = gcn("coherence.protocol=rc", NULL);
    assert_int_equal(ld(r, 1, 0x1000, SEM_WEAK), 0);
    st(r, 0, 0x1000, 1);
    st(r, 0, 0x4000, 1);
    assert_int_equal(ld(r, 1, 0x4000, SEM_WEAK), 1);
    assert_int_equal(ld(r, 1, 0x1000, SEM_WEAK), 0); /* stale hit */
    inject_free(r);
}

/* A kernel launch keeps the L1 (no invalidation): read-only data hits across
 * kernels, which is STC's gain over the baseline. */
static void launch_keeps_l1(void **state)
{
    (void)state;
    struct inject *r = gcn("coherence.protocol=stc-mb", NULL);
    ld(r, 0, 0x1000, SEM_WEAK);
    inject_order(r, 0, 0, MEM_KERNEL_END, SEM_RELEASE, SCOPE_SYS, 0);
    inject_order(r, 0, 0, MEM_KERNEL_BEGIN, SEM_ACQUIRE, SCOPE_SYS, 0);
    inject_run(r);
    ld(r, 0, 0x1000, SEM_ACQUIRE);
    assert_int_equal(stat_of(r, 0, "load_hits"), 1);
    inject_free(r);
}

/* An atomic to another band blocks like a store; its result is never
 * cached (it returns through I_I). */
static void atomic_blocks_and_is_not_cached(void **state)
{
    (void)state;
    struct inject *r = gcn("coherence.protocol=stc-es", NULL);
    unsigned id =
        inject_atomic(r, 0, 0, 0x5000, ATOM_ADD, ATYPE_U32, 5, 0, SEM_RELAXED, SCOPE_GPU, 0);
    inject_run(r);
    assert_int_equal(inject_value(r, id), 0);
    assert_int_equal(stat_of(r, 0, "stores_blocked"), 1);
    assert_string_equal(inject_l1_state(r, 0, 0x5000), "I");
    assert_int_equal(ld(r, 1, 0x5000, SEM_WEAK), 5);
    inject_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fig2_epoch_a_then_b),
        cmocka_unit_test(fig7_message_passing),
        cmocka_unit_test(fig7_baseline_needs_acquire),
        cmocka_unit_test(launch_keeps_l1),
        cmocka_unit_test(atomic_blocks_and_is_not_cached),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
