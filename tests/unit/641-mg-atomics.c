/*
 * 641-mg-atomics.c - where the multi-GPM protocols perform atomics (spec
 * 004b §2.2, §2.4, docs/multi-gpu.md), values checked.
 *
 * Machine: 2 GPUs x 2 GPMs, 2 SMs and one L2 bank per GPM (SM 2g and 2g+1 on
 * GPM g; GPMs 0, 1 on GPU 0, GPMs 2, 3 on GPU 1), 4 KB pages placed by first
 * touch. Every counter is homed on GPU 1 (its system home); GPU 0's GPU home
 * for it is GPM 1.
 *
 * - A .gpu counter incremented by the four SMs of GPU 0 (both its GPMs):
 *   under hmg and sw-h with mg.gpu_atomics = gpu-home performed at GPU 0's GPU home
 *   (GPM 1), not at the system home; under hmg's default and nhcc at the
 *   system home. The old values returned are 0 .. n-1,
 *   each once (atomicity), the GPU home reads n at once, and the system
 *   home n once the write-throughs have arrived.
 * - A .sys counter incremented by all eight SMs: performed at the system
 *   home under both, old values 0 .. n-1.
 * - .gpu and .sys increments mixed on one counter by GPU 0's SMs (morally
 *   strong with each other: each scope holds the other thread): still
 *   atomic, whichever of GPU home and system home performs each.
 * - A .cta counter (homed on GPU 1) incremented by the four warps of one SM:
 *   performed in that SM's L1 under every multi-GPM protocol (one fetch,
 *   then on its copy), old values 0 .. n-1, n at the system home once the
 *   write-throughs are in; and .cta and .gpu increments mixed on one counter
 *   by one SM's warps (one CTA's: morally strong), still atomic. Every
 *   CtaAtomic cell of the L1 fires.
 * - hmg, gpu-home: a GPU home's fetch for a .gpu atomic met on its way by an
 *   invalidation of its region (a write at the system home to another line
 *   of the region, which the GPU home shares) is used once (FillOnce): the
 *   atomic is performed on it, the line is not kept, so a later .gpu load
 *   at the GPU home goes on to the system home.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "check/inject.h"

#define GCTR   0x10000u /* .gpu counter, homed at GPM 3 */
#define SCTR   0x20000u /* .sys counter, homed at GPM 2 */
#define MCTR   0x30000u /* mixed, homed at GPM 3 */
#define CCTR   0x40000u /* .cta counter, homed at GPM 3 */
#define XCTR   0x50000u /* .cta and .gpu mixed, homed at GPM 3 */
#define FCTR   0x60000u /* a fetch met by an invalidation, homed at GPM 3 */
#define PER_SM 24u

static struct inject *mg_rig(const char *protocol, const char *gpu_atomics)
{
    char proto[64], at[64];
    snprintf(proto, sizeof proto, "coherence.protocol=%s", protocol);
    snprintf(at, sizeof at, "mg.gpu_atomics=%s", gpu_atomics);
    const char *sets[] = {proto,
                          "topology.gpus=2",
                          "topology.gpms=2",
                          "topology.page_bytes=4K",
                          "gpu.sms=2",
                          "l2.banks=1",
                          at};
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, ARRAY_LEN(sets), err, sizeof err))
        fail_msg("%s", err);
    return inject_new(&cfg);
}

static uint64_t load(struct inject *r, unsigned sm, addr_t a, enum mem_scope scope)
{
    unsigned id = inject_load(r, sm, 0, a, 4, SEM_RELAXED, scope, 0);
    inject_run(r);
    return inject_value(r, id);
}

/* PER_SM increments by each of SMs [first, first + n_sms), over 4 warps
 * each, scope chosen by `scope_of(k)`; checks that the old values are 0 ..
 * total - 1, each once. Returns the total. */
static unsigned increments(struct inject *r, addr_t ctr, unsigned first, unsigned n_sms,
                           enum mem_scope (*scope_of)(unsigned k))
{
    unsigned total = n_sms * PER_SM, ids[8 * PER_SM];
    for (unsigned k = 0; k < total; k++)
        ids[k] = inject_atomic(r, first + k % n_sms, k / n_sms % 4, ctr, ATOM_ADD, ATYPE_U32, 1, 0,
                               SEM_RELAXED, scope_of(k), 0);
    inject_run(r);
    bool seen[8 * PER_SM] = {0};
    for (unsigned k = 0; k < total; k++) {
        uint64_t old = inject_value(r, ids[k]);
        if (old >= total || seen[old])
            fail_msg("counter %#x: old value %llu twice or out of range", ctr,
                     (unsigned long long)old);
        seen[old] = true;
    }
    return total;
}

static enum mem_scope gpu_scope(unsigned k)
{
    (void)k;
    return SCOPE_GPU;
}

static enum mem_scope sys_scope(unsigned k)
{
    (void)k;
    return SCOPE_SYS;
}

static enum mem_scope mixed_scope(unsigned k)
{
    return k % 3 ? SCOPE_GPU : SCOPE_SYS;
}

static enum mem_scope cta_scope(unsigned k)
{
    (void)k;
    return SCOPE_CTA;
}

static enum mem_scope cta_gpu_scope(unsigned k)
{
    return k % 3 ? SCOPE_CTA : SCOPE_GPU;
}

static void counters(const char *protocol, const char *gpu_atomics, bool at_gpu_home)
{
    struct inject *r = mg_rig(protocol, gpu_atomics);
    load(r, 6, GCTR, SCOPE_CTA); /* first touches place the pages */
    load(r, 4, SCTR, SCOPE_CTA);
    load(r, 6, MCTR, SCOPE_CTA);

    unsigned n = increments(r, GCTR, 0, 4, gpu_scope);
    uint64_t at_gh = inject_stat(r, "gpu0.gpm1.l2[0].gpu_atomics");
    uint64_t at_sh = inject_stat(r, "gpu1.gpm1.l2[0].atomics");
    assert_int_equal(at_gh, at_gpu_home ? n : 0);
    assert_int_equal(at_sh, at_gpu_home ? 0 : n);
    assert_int_equal(load(r, 1, GCTR, SCOPE_GPU), n); /* GPU 0's home */
    assert_int_equal(load(r, 6, GCTR, SCOPE_SYS), n); /* the system home */

    n = increments(r, SCTR, 0, 8, sys_scope);
    assert_int_equal(inject_stat(r, "gpu1.gpm0.l2[0].atomics"), n);
    assert_int_equal(load(r, 3, SCTR, SCOPE_SYS), n);
    assert_int_equal(load(r, 5, SCTR, SCOPE_GPU), n);

    n = increments(r, MCTR, 0, 4, mixed_scope);
    assert_int_equal(load(r, 2, MCTR, SCOPE_GPU), n);
    assert_int_equal(load(r, 7, MCTR, SCOPE_SYS), n);
    if (at_gpu_home)
        assert_true(inject_stat(r, "gpu0.gpm1.l2[0].gpu_atomics") > at_gh);
    inject_free(r);
}

static void hmg_gpu_atomics_at_the_gpu_home(void **state)
{
    (void)state;
    counters("hmg", "gpu-home", true);
}

static void swh_gpu_atomics_at_the_gpu_home(void **state)
{
    (void)state;
    counters("sw-h", "gpu-home", true);
}

/* .cta atomics of one SM's warps in its L1, alone and mixed with .gpu ones. */
static void cta_atomics_in_the_l1(void **state)
{
    (void)state;
    const char *const protocols[] = {"nhcc", "hmg", "ideal-mg", "sw-nh", "sw-h", "nocache-mg"};
    for (unsigned p = 0; p < ARRAY_LEN(protocols); p++) {
        struct inject *r = mg_rig(protocols[p], "system");
        load(r, 6, CCTR, SCOPE_CTA);
        load(r, 6, XCTR, SCOPE_CTA);
        unsigned n = increments(r, CCTR, 0, 1, cta_scope);
        assert_int_equal(inject_stat(r, "gpu0.gpm0.sm[0].l1.cta_atomics"), n);
        assert_int_equal(inject_stat(r, "gpu1.gpm1.l2[0].atomics"), 0);
        assert_int_equal(load(r, 6, CCTR, SCOPE_SYS), n);
        n = increments(r, XCTR, 0, 1, cta_gpu_scope);
        assert_int_equal(load(r, 6, XCTR, SCOPE_SYS), n);
        /* a .cta atomic behind a load's fill (it waits, then is performed here) */
        inject_load(r, 0, 0, CCTR + 0x100, 4, SEM_WEAK, SCOPE_CTA, 0);
        unsigned id = inject_atomic(r, 0, 1, CCTR + 0x100, ATOM_ADD, ATYPE_U32, 1, 0, SEM_RELAXED,
                                    SCOPE_CTA, 1);
        inject_run(r);
        assert_int_equal(inject_value(r, id), 0);
        assert_int_equal(load(r, 0, CCTR + 0x100, SCOPE_CTA), 1);
        /* every CtaAtomic cell: the miss's fetch, a stall behind a load's
         * fill, the hits, and behind an outstanding .gpu atomic (at the L2) */
        const char *const states[] = {"I", "IV", "V", "II"};
        for (unsigned s = 0; s < ARRAY_LEN(states); s++)
            if (inject_coverage(r, "rc.L1", states[s], "CtaAtomic") < 1)
                fail_msg("%s: rc.L1 [%s][CtaAtomic] never fired", protocols[p], states[s]);
        inject_free(r);
    }
}

static void stale_fetch_is_used_once(void **state)
{
    (void)state;
    struct inject *r = mg_rig("hmg", "gpu-home");
    load(r, 6, FCTR, SCOPE_CTA); /* homed at GPM 3 (GPU 1) */
    inject_store(r, 6, 0, FCTR, 4, 5, SEM_RELAXED, SCOPE_SYS, 0);
    inject_run(r);
    load(r, 2, FCTR + 128, SCOPE_CTA); /* GPU 0's home (GPM 1) shares the region */
    unsigned a = inject_atomic(r, 2, 0, FCTR, ATOM_ADD, ATYPE_U32, 1, 0, SEM_RELAXED, SCOPE_GPU,
                               0); /* GPM 1 fetches the line ... */
    inject_store(r, 6, 1, FCTR + 128, 4, 7, SEM_RELAXED, SCOPE_SYS, 0); /* ... the region's inv */
    inject_run(r);
    assert_int_equal(inject_value(r, a), 5);
    assert_int_equal(inject_coverage(r, "nhcc.L2", "IA", "FillOnce"), 1);
    assert_int_equal(inject_stat(r, "gpu0.gpm1.l2[0].gpu_atomics"), 1);
    uint64_t fwd = inject_stat(r, "gpu0.gpm1.l2[0].forwarded");
    assert_int_equal(load(r, 2, FCTR, SCOPE_GPU), 6); /* not kept: from the system home */
    assert_true(inject_stat(r, "gpu0.gpm1.l2[0].forwarded") > fwd);
    assert_int_equal(load(r, 6, FCTR, SCOPE_SYS), 6);
    inject_free(r);
}

/* The default, and nhcc (no GPU home) whatever the setting. */
static void atomics_at_the_system_home(void **state)
{
    (void)state;
    counters("hmg", "system", false);
    counters("nhcc", "gpu-home", false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hmg_gpu_atomics_at_the_gpu_home),
        cmocka_unit_test(swh_gpu_atomics_at_the_gpu_home),
        cmocka_unit_test(cta_atomics_in_the_l1),
        cmocka_unit_test(stale_fetch_is_used_once),
        cmocka_unit_test(atomics_at_the_system_home),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
