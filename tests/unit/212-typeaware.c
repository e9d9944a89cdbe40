/*
 * 212-typeaware.c - type-aware SC (order.model = sc-typeaware) on the whole
 * machine: spec 001 §2.5.6's worked example (Fig. 1b, every location in
 * global memory) replayed on mesi and gpuvi with the paper's sizes, checking
 * the outcome, the MAC's transitions and that the synchronisation table is
 * what kept T2 from reading Z early.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "host/host.h"
#include "system/config.h"
#include "system/machine.h"

/* The statistics a test looks at, summed over components by their name's
 * suffix ("ta_bypasses" of gpu.sm[0] only where the name says so). */
struct picked {
    uint64_t sm0_bypasses, sm0_sync_wait, s_rw, p_alloc, s_alloc, invalidations, sm0_invs, sm1_invs;
};

static void pick(void *arg, const char *name, uint64_t v)
{
    struct picked *p = arg;
    if (!strcmp(name, "gpu.sm[0].ta_bypasses"))
        p->sm0_bypasses = v;
    else if (!strcmp(name, "gpu.sm[0].ta_wait_cycles.sync_conflict"))
        p->sm0_sync_wait = v;
    else if (!strcmp(name, "gpu.sm[0].ta_invalidations"))
        p->sm0_invs = v;
    else if (!strcmp(name, "gpu.sm[1].ta_invalidations"))
        p->sm1_invs = v;
    else if (strstr(name, "gpu.mac[") && strstr(name, ".to_state.S_RW"))
        p->s_rw += v;
    else if (strstr(name, "gpu.mac[") && strstr(name, ".allocs.P_R"))
        p->p_alloc += v;
    else if (strstr(name, "gpu.mac[") && strstr(name, ".allocs.S_R"))
        p->s_alloc += v;
    else if (strstr(name, "gpu.mac[") && strstr(name, ".invalidations"))
        p->invalidations += v;
}

static void fig1b_on(const char *protocol)
{
    char proto_set[64];
    snprintf(proto_set, sizeof proto_set, "coherence.protocol=%s", protocol);
    const char *sets[] = {proto_set, "order.model=sc-typeaware", "gpu.sms=2"};
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, 3, err, sizeof err))
        fail_msg("%s", err);
    struct machine *m = machine_new(&cfg);
    struct host *h = host_new(machine_launcher(m));
    char *text = file_read_text(GPUCOH_SOURCE_DIR "/tests/ptx-sm/fig1b.ptx", NULL);
    assert_non_null(text);
    host_load_ptx(h, text, "tests/ptx-sm/fig1b.ptx");
    /* X, Y, Z and out each in a sector of its own (16 KB, Table 2) */
    const size_t sector = 16384;
    addr_t base = host_malloc(h, 5 * sector);
    base = (base + sector - 1) / sector * sector;
    addr_t x = base, y = base + sector, z = base + 2 * sector, out = base + 3 * sector;
    host_memset(h, z, 0, 4);
    host_memset(h, out, 0, 4);

    struct karg warm[] = {KARG_PTR(x), KARG_PTR(y)};
    host_launch(h, "fig1b_warm", DIM1(2), DIM1(32), 0, warm, 2);
    struct picked p = {0};
    machine_stats(m, pick, &p);
    /* the first writer of each sector got it private and written; the second
     * turned it shared and written after invalidating the first */
    assert_int_equal(p.p_alloc, 2);
    assert_int_equal(p.s_alloc, 0);
    assert_int_equal(p.s_rw, 2);
    assert_int_equal(p.invalidations, 2);
    assert_int_equal(p.sm0_invs + p.sm1_invs, 2);

    struct karg args[] = {KARG_PTR(x), KARG_PTR(y), KARG_PTR(z), KARG_PTR(out), KARG_U64(2000)};
    host_launch(h, "fig1b", DIM1(2), DIM1(64), 0, args, 5);
    int32_t got = -1;
    host_memcpy_from_dev(h, &got, out, 4);
    assert_int_equal(got, 1); /* T3 saw y == 1, so it sees x == 1 */

    memset(&p, 0, sizeof p);
    machine_stats(m, pick, &p);
    /* Z and out became private (to SM 0 and SM 1); X and Y stayed unsafe,
     * and no sector turned unsafe again */
    assert_int_equal(p.p_alloc, 4);
    assert_int_equal(p.s_alloc, 0);
    assert_int_equal(p.s_rw, 2);
    assert_int_equal(p.invalidations, 2);
    /* T1's store to Z passed its pending unsafe store to X (a bypass, with a
     * table entry and a marker), and T2's loads of Z waited on that entry
     * until the store to X completed */
    assert_true(p.sm0_bypasses >= 1);
    assert_true(p.sm0_sync_wait > 0);
    host_delete(h);
    machine_free(m);
    free(text);
}

static void fig1b_mesi(void **state)
{
    (void)state;
    fig1b_on("mesi");
}

static void fig1b_gpuvi(void **state)
{
    (void)state;
    fig1b_on("gpuvi");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fig1b_mesi),
        cmocka_unit_test(fig1b_gpuvi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
