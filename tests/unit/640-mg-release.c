/*
 * 640-mg-release.c - release completion on the multi-GPM machine (spec 004b
 * §2.7, docs/multi-gpu.md): the race a one-round release loses, directed.
 *
 * Machine: 2 GPUs x 2 GPMs, 2 SMs and one L2 bank per GPM (SM 2g and 2g+1
 * on GPM g; GPM 0, 1 on GPU 0, GPM 2, 3 on GPU 1), 4 KB pages placed by
 * first touch, the intra-GPU links narrowed to 1 GB/s so that a burst of
 * data queues on one (a congested link; latencies stay the defaults).
 *
 * Message passing, the forbidden outcome of MP-sys: GPM 0 writes x (homed at
 * GPM 2) and then sets y (homed at GPM 1) with a .sys release; GPM 3, which
 * holds a copy of x in its L2, reads y = 1 with a .sys acquire and then x.
 * The write reaches x's home in one hop, and the home's invalidation of GPM
 * 3's copy takes a second, GPM 2 -> GPM 3, where it queues behind 20 lines
 * GPM 2 is sending to GPM 3 at the same time. The thesis's one round of
 * markers (mg.release = thesis) goes straight from GPM 0 to every L2, so it
 * is answered before that invalidation arrives: the release completes, the
 * reader sees y = 1 and then the stale x = 0 in its L2, under nhcc and hmg
 * alike. Markers in levels (the default) and the counted release wait for
 * the invalidation: x = 1.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "640-mg-rig.h"

#define X     0x10000u /* homed at GPM 2 (its first toucher) */
#define Z     0x20000u /* 48 lines homed at GPM 2: the burst */
#define Y     0x30000u /* homed at GPM 1 */
#define BURST 20u

enum { WRITER = 0, FLAG_SM = 2, HOME_SM = 4, READER = 6, STREAMER = 7 };

/* One MP run; returns the reader's x once it has seen y = 1 (-1: never). */
static int64_t message_passing(const char *protocol, const char *release)
{
    struct inject *r = mg_rig(protocol, release, "topology.gpm_link_gbs=1");
    load(r, HOME_SM, X, SEM_WEAK, SCOPE_CTA); /* first touches place the pages */
    for (unsigned k = 0; k < BURST; k++)
        load(r, HOME_SM, Z + 128 * k, SEM_WEAK, SCOPE_CTA);
    load(r, FLAG_SM, Y, SEM_WEAK, SCOPE_CTA);
    load(r, READER, X, SEM_WEAK, SCOPE_CTA); /* GPM 3's L2 keeps a copy of x = 0 */
    inject_run(r);

    for (unsigned k = 0; k < BURST; k++) /* GPM 2 -> GPM 3 busy ~3,800 cycles */
        inject_load(r, STREAMER, k % 8, Z + 128 * k, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_store(r, WRITER, 0, X, 4, 1, SEM_WEAK, SCOPE_CTA, 300);
    unsigned flag = inject_store(r, WRITER, 0, Y, 4, 1, SEM_RELEASE, SCOPE_SYS, 301);
    inject_run_until(r, flag);
    int64_t x = -1;
    for (unsigned poll = 0; poll < 200 && x < 0; poll++)
        if (load(r, READER, Y, SEM_ACQUIRE, SCOPE_SYS) == 1)
            x = (int64_t)load(r, READER, X, SEM_WEAK, SCOPE_CTA);
    inject_run(r);
    load(r, READER, Y, SEM_ACQUIRE, SCOPE_SYS); /* once the invalidation is in, x = 1 */
    assert_int_equal(load(r, READER, X, SEM_WEAK, SCOPE_CTA), 1);
    inject_free(r);
    return x;
}

/* The thesis's one round lets the forbidden outcome through, under both the
 * flat and the hierarchical directory. */
static void one_round_is_unsafe(void **state)
{
    (void)state;
    assert_int_equal(message_passing("nhcc", "thesis"), 0);
    assert_int_equal(message_passing("hmg", "thesis"), 0);
}

static void levels_are_safe(void **state)
{
    (void)state;
    assert_int_equal(message_passing("nhcc", "levels"), 1);
    assert_int_equal(message_passing("hmg", "levels"), 1);
}

static void counted_is_safe(void **state)
{
    (void)state;
    assert_int_equal(message_passing("nhcc", "counted"), 1);
    assert_int_equal(message_passing("hmg", "counted"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_round_is_unsafe),
        cmocka_unit_test(levels_are_safe),
        cmocka_unit_test(counted_is_safe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
