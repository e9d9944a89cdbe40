/*
 * 643-sysnet-switch.c - the inter-GPU link through the switch is one per
 * ordered pair of GPUs, shared by all their GPM pairs (noc/sysnet.h,
 * docs/multi-gpu.md), not one per GPM pair.
 *
 * Machine: 2 GPUs x 2 GPMs, 2 SMs and one L2 bank per GPM (SM 2g on GPM g),
 * 4 KB pages by first touch, no remote caching, the inter-GPU links slowed to
 * 1 GB/s (a 128-byte answer and its 8-byte header serialise in 136 ns, 177
 * core cycles). GPMs 2 and 3 read lines homed at GPMs 0 and 1 in the same
 * cycle: the two answers come over different GPM pairs but the same GPU
 * pair, so one waits for the other; inside a GPU, different GPM pairs have
 * links of their own.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "check/inject.h"

#define A 0x10000u /* homed at GPM 0 */
#define B 0x20000u /* homed at GPM 1 */

static struct inject *rig(void)
{
    const char *sets[] = {"coherence.protocol=nocache-mg",
                          "topology.gpus=2",
                          "topology.gpms=2",
                          "topology.page_bytes=4K",
                          "topology.gpu_link_gbs=1",
                          "topology.gpm_link_gbs=1",
                          "gpu.sms=2",
                          "l2.banks=1"};
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, ARRAY_LEN(sets), err, sizeof err))
        fail_msg("%s", err);
    struct inject *r = inject_new(&cfg);
    const addr_t lines[] = {A, B};
    const unsigned toucher[] = {0, 2};
    for (unsigned k = 0; k < ARRAY_LEN(lines); k++) {
        unsigned id = inject_load(r, toucher[k], 0, lines[k], 4, SEM_WEAK, SCOPE_CTA, 0);
        inject_run_until(r, id);
    }
    inject_run(r);
    return r;
}

/* Latency of one read of `line` from SM `sm`, alone, and of the slower of
 * two reads issued together. */
static uint64_t alone(unsigned sm, addr_t line)
{
    struct inject *r = rig();
    unsigned id = inject_load(r, sm, 0, line, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    uint64_t l = inject_latency(r, id);
    inject_free(r);
    return l;
}

static uint64_t together(unsigned sm0, addr_t l0, unsigned sm1, addr_t l1)
{
    struct inject *r = rig();
    unsigned a = inject_load(r, sm0, 0, l0, 4, SEM_WEAK, SCOPE_CTA, 0);
    unsigned b = inject_load(r, sm1, 0, l1, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    uint64_t la = inject_latency(r, a), lb = inject_latency(r, b);
    inject_free(r);
    return MAX(la, lb);
}

static void gpu_pair_shares_one_link(void **state)
{
    (void)state;
    /* GPM 2 <- GPM 0 and GPM 3 <- GPM 1: GPU 0 -> GPU 1 both */
    uint64_t one = MAX(alone(4, A), alone(6, B));
    assert_true(together(4, A, 6, B) >= one + 150);
}

static void gpm_pairs_of_one_gpu_do_not(void **state)
{
    (void)state;
    /* GPM 0 <- GPM 1 and GPM 1 <- GPM 0: two links of GPU 0 */
    uint64_t one = MAX(alone(0, B), alone(2, A));
    assert_true(together(0, B, 2, A) <= one + 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gpu_pair_shares_one_link),
        cmocka_unit_test(gpm_pairs_of_one_gpu_do_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
