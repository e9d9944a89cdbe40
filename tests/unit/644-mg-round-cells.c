/*
 * 644-mg-round-cells.c - every cell of the multi-GPM bank's rounds of L1
 * releases (the table nhcc.Rounds, mg_release.c) fires, with the counts a
 * directed pair of releases must give, under every mg.release and every
 * protocol family that runs rounds (a directory: nhcc, hmg; none: sw-h).
 *
 * Machine: 2 GPMs of one GPU, 2 SMs and one L2 bank per GPM (SMs 0, 1 on
 * GPM 0). SM 0's .gpu release fence starts a round at GPM 0's bank (Idle +
 * Release); SM 1's, one cycle later, finds it under way and waits (Round +
 * Release); the first round's answer starts the second (Round +
 * AnsweredMore), whose answer leaves the bank idle (Round + Answered). On a
 * machine of one GPM a round has no neighbour to wait for and is answered
 * right after the step that started it, in a step of its own.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "check/inject.h"

static struct inject *mg_rig(const char *protocol, const char *release, unsigned gpms)
{
    char proto[64], rel[64], n[64];
    snprintf(proto, sizeof proto, "coherence.protocol=%s", protocol);
    snprintf(rel, sizeof rel, "mg.release=%s", release);
    snprintf(n, sizeof n, "topology.gpms=%u", gpms);
    const char *sets[] = {proto, rel, "topology.gpus=1", n, "gpu.sms=2", "l2.banks=1"};
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, ARRAY_LEN(sets), err, sizeof err))
        fail_msg("%s", err);
    return inject_new(&cfg);
}

/* Two release fences of GPM 0, one cycle apart: with two GPMs each cell of
 * the rounds fires once at GPM 0's bank, and nowhere else; with one, each
 * round is answered before the next release arrives (twice Idle + Release,
 * twice Round + Answered). */
static void two_releases(const char *protocol, const char *release, unsigned gpms)
{
    struct inject *r = mg_rig(protocol, release, gpms);
    unsigned a = inject_order(r, 0, 0, MEM_FENCE, SEM_RELEASE, SCOPE_GPU, 0);
    unsigned b = inject_order(r, 1, 0, MEM_FENCE, SEM_RELEASE, SCOPE_GPU, 1);
    inject_run(r);
    assert_true(inject_done(r, a) && inject_done(r, b));
    static const char *const cells[][2] = {{"Idle", "Release"},
                                           {"Round", "Release"},
                                           {"Round", "AnsweredMore"},
                                           {"Round", "Answered"}};
    static const uint64_t want[2][4] = {{2, 0, 0, 2}, {1, 1, 1, 1}};
    for (unsigned i = 0; i < ARRAY_LEN(cells); i++) {
        uint64_t n = inject_coverage(r, "nhcc.Rounds", cells[i][0], cells[i][1]);
        if (n != want[gpms > 1][i])
            fail_msg(
                "%s, mg.release = %s, %u GPMs: nhcc.Rounds [%s][%s] fired %llu times, not %llu",
                protocol, release, gpms, cells[i][0], cells[i][1], (unsigned long long)n,
                (unsigned long long)want[gpms > 1][i]);
    }
    const char *bank = gpms > 1 ? "gpu0.gpm0.l2[0]" : "gpu.l2[0]";
    char name[64];
    snprintf(name, sizeof name, "%s.releases", bank); /* rounds */
    assert_int_equal(inject_stat(r, name), 2);
    snprintf(name, sizeof name, "%s.l1_releases", bank); /* releases answered */
    assert_int_equal(inject_stat(r, name), 2);
    inject_free(r);
}

static void every_cell(void **state)
{
    (void)state;
    static const char *const protocols[] = {"nhcc", "hmg", "sw-h"};
    static const char *const releases[] = {"levels", "thesis", "counted"};
    for (unsigned p = 0; p < ARRAY_LEN(protocols); p++)
        for (unsigned k = 0; k < ARRAY_LEN(releases); k++) {
            two_releases(protocols[p], releases[k], 2);
            two_releases(protocols[p], releases[k], 1);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
