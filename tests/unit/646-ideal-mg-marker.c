/*
 * 646-ideal-mg-marker.c - ideal-mg's release markers cost nothing but keep
 * their link's order (noc/sysnet.h SYSNET_F_AFTER, docs/verify.md "Several
 * GPMs"): a marker asks whether everything its bank sent before it has
 * arrived, so it must not overtake the writes its release covers.
 *
 * Found by gpucoh verify (ideal-mg --ops 3 --values 1 --no-atomics: a free
 * marker delivered past a forwarded write still on its link, the release
 * completed, a load at the home read the old value). Here directed, in the
 * simulator: 1 GPU x 3 GPMs, 2 SMs and one L2 bank per GPM (SM 2g and 2g+1
 * on GPM g), 4 KB pages by first touch, the links between GPMs narrowed to
 * 1 GB/s so that a burst of answers GPM 0 sends GPM 2 keeps that link busy
 * (a 128-byte line and its header serialise in 136 ns).
 *
 * Message passing: GPM 0 writes x (homed at GPM 2; the write queues on the
 * busy link 0 -> 2) and then sets y (homed at GPM 1) with a .gpu release;
 * GPM 1 reads y = 1 with a .gpu acquire and then x, at x's home over the
 * idle link 1 -> 2. A marker that skipped the link's FIFO came back at once,
 * the release completed with the write still queued, and the reader saw
 * x = 0 (the forbidden outcome); one that keeps the link's order arrives
 * after the write: x = 1. nhcc (markers that cost) is the control.
 * Measured with the order dropped (SYSNET_F_AFTER unset): the reader saw
 * x = 0, the release completing in 686 cycles; with it, in 4 861 (nhcc:
 * 4 913), and x = 1.
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
#define Z     0x20000u /* lines homed at GPM 0: the burst GPM 2 reads */
#define Y     0x30000u /* homed at GPM 1 */
#define BURST 40u

enum { WRITER = 0, Z_OWNER = 1, READER = 2, HOME_SM = 4, STREAMER = 5 };

static struct inject *mg_rig_1x3(const char *protocol)
{
    char proto[64];
    snprintf(proto, sizeof proto, "coherence.protocol=%s", protocol);
    const char *sets[] = {
        proto,       "topology.gpus=1", "topology.gpms=3",        "topology.page_bytes=4K",
        "gpu.sms=2", "l2.banks=1",      "topology.gpm_link_gbs=1"};
    return mg_machine(sets, ARRAY_LEN(sets));
}

/* One MP run; returns the reader's x once it has seen y = 1 (-1: never). */
static int64_t message_passing(const char *protocol)
{
    struct inject *r = mg_rig_1x3(protocol);
    load(r, HOME_SM, X, SEM_WEAK, SCOPE_CTA); /* first touches place the pages */
    for (unsigned k = 0; k < BURST; k++)
        load(r, Z_OWNER, Z + 128 * k, SEM_WEAK, SCOPE_CTA);
    load(r, READER, Y, SEM_WEAK, SCOPE_CTA);
    inject_run(r);

    /* GPM 0 -> GPM 2 busy ~7,000 cycles from when the reads have crossed */
    for (unsigned k = 0; k < BURST; k++)
        inject_load(r, STREAMER, k % 8, Z + 128 * k, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_store(r, WRITER, 0, X, 4, 1, SEM_WEAK, SCOPE_CTA, 600);
    unsigned flag = inject_store(r, WRITER, 0, Y, 4, 1, SEM_RELEASE, SCOPE_GPU, 601);
    inject_run_until(r, flag);
    int64_t x = -1;
    for (unsigned poll = 0; poll < 200 && x < 0; poll++)
        if (load(r, READER, Y, SEM_ACQUIRE, SCOPE_GPU) == 1)
            x = (int64_t)load(r, READER, X, SEM_WEAK, SCOPE_CTA);
    inject_run(r);
    load(r, READER, Y, SEM_ACQUIRE, SCOPE_GPU); /* once the write is in, x = 1 */
    assert_int_equal(load(r, READER, X, SEM_WEAK, SCOPE_CTA), 1);
    inject_free(r);
    return x;
}

static void free_marker_keeps_link_order(void **state)
{
    (void)state;
    assert_int_equal(message_passing("ideal-mg"), 1);
}

static void costed_marker_control(void **state)
{
    (void)state;
    assert_int_equal(message_passing("nhcc"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(free_marker_keeps_link_order),
        cmocka_unit_test(costed_marker_control),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
