/*
 * 645-mg-slot-cells.c - every reachable cell of the multi-GPM bank's release
 * slots (the table nhcc.Slots, mg_slots.c) fires, in directed runs.
 *
 * Machine: 2 GPUs x 2 GPMs, 2 SMs and one L2 bank per GPM (SM 2g and 2g+1
 * on GPM g; GPM 0, 1 on GPU 0, GPM 2, 3 on GPU 1), 4 KB pages placed by
 * first touch. x is homed at GPM 2 (its first toucher, the system home; GPM
 * 0 is GPU 0's home of it); GPMs 0, 1 and 3 hold copies.
 *  - hmg, mg.release = counted: GPM 1's .sys release write goes to GPU 0's
 *    home, which forwards it to the system home (TakeFwd); the system home's
 *    invalidation of GPM 3's copy is counted in that slot (Fwd + Count,
 *    InvAck). GPM 3's write later reaches the system home directly, whose
 *    invalidation reaches GPU 0's home (TakeInv), which passes it on to
 *    GPM 1 (Inv + Count, InvAck). Each release runs a round (Round) whose
 *    markers take slots at the other banks (Marker, answered: Ack, Done).
 *  - nhcc, mg.release = levels: a marker of level 2 sends markers of level 1
 *    and waits for their answers (Marker + Ack).
 *  - sw-h: a .sys acquire waits for the GPU's other GPM (Acq + Ack).
 * The holes (a slot taken twice, an answer for a free slot or for a slot that
 * sent nothing of its kind) are a simulator fault, exit 3.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "640-mg-rig.h"

#define X 0x10000u /* homed at GPM 2 (its first toucher) */

/* x homed at GPM 2; copies at GPMs 0, 1 and 3. GPM 1 writes it (.sys
 * release), GPMs 0 and 1 read it again, GPM 3 writes it (.sys release), and
 * GPM 1 acquires (.sys) and reads it. */
static struct inject *write_shared(const char *protocol, const char *release)
{
    struct inject *r = mg_rig(protocol, release, NULL);
    load(r, 4, X, SEM_WEAK, SCOPE_CTA); /* first touch: GPM 2 */
    static const unsigned readers[] = {0, 2, 6};
    for (unsigned i = 0; i < ARRAY_LEN(readers); i++)
        load(r, readers[i], X, SEM_WEAK, SCOPE_CTA);
    inject_run(r);
    inject_run_until(r, inject_store(r, 2, 0, X, 4, 1, SEM_RELEASE, SCOPE_SYS, 1));
    inject_run(r);
    load(r, 0, X, SEM_ACQUIRE, SCOPE_SYS);
    load(r, 2, X, SEM_WEAK, SCOPE_CTA);
    inject_run(r);
    inject_run_until(r, inject_store(r, 6, 0, X, 4, 2, SEM_RELEASE, SCOPE_SYS, 1));
    inject_run(r);
    assert_int_equal(load(r, 2, X, SEM_ACQUIRE, SCOPE_SYS), 2);
    inject_run(r);
    return r;
}

static const char *const cells[][2] = {
    {"Free", "TakeRound"}, {"Free", "TakeMarker"}, {"Free", "TakeInv"}, {"Free", "TakeFwd"},
    {"Free", "TakeAcq"},   {"Round", "Ack"},       {"Round", "Done"},   {"Marker", "Ack"},
    {"Marker", "Done"},    {"Inv", "Count"},       {"Inv", "InvAck"},   {"Inv", "Done"},
    {"Fwd", "Count"},      {"Fwd", "InvAck"},      {"Fwd", "Done"},     {"Acq", "Ack"},
    {"Acq", "Done"},
};

static uint64_t fired[ARRAY_LEN(cells)];

static void count(struct inject *r)
{
    for (unsigned i = 0; i < ARRAY_LEN(cells); i++)
        fired[i] += inject_coverage(r, "nhcc.Slots", cells[i][0], cells[i][1]);
    inject_free(r);
}

static void every_cell(void **state)
{
    (void)state;
    count(write_shared("hmg", "counted"));
    count(write_shared("nhcc", "levels"));
    count(write_shared("sw-h", "counted"));
    unsigned never = 0;
    for (unsigned i = 0; i < ARRAY_LEN(cells); i++)
        if (!fired[i]) {
            printf("nhcc.Slots [%s][%s] never fired\n", cells[i][0], cells[i][1]);
            never++;
        }
    assert_int_equal(never, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
