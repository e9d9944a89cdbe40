/*
 * 802-sc-enum.c - the SC oracle against known answers: MP, SB, LB, IRIW,
 * atomicity, spin loops (ticket lock), fair livelocks (forward progress),
 * barriers with and without counts, hangs; lanes of one warp in the SIMT
 * order; and the PTX verdict rules.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "check/litmus_ref.h"
#include "check/sc_enum.h"

static struct litmus_test T;
static struct sc_result R;
static char err[1024];

static void load_suite(const char *rel)
{
    char dir[512], p[1024];
    assert_int_equal(litmus_suite_dir(dir, sizeof dir), 0);
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    if (litmus_parse_file(p, &T, err, sizeof err))
        fail_msg("%s", err);
    sc_result_free(&R);
    if (sc_enumerate(&T, &R, 0, err, sizeof err))
        fail_msg("%s", err);
}

static void load_text(const char *text)
{
    if (litmus_parse(text, "inline.litmus", &T, err, sizeof err))
        fail_msg("%s", err);
    sc_result_free(&R);
    if (sc_enumerate(&T, &R, 0, err, sizeof err))
        fail_msg("%s", err);
}

/* Outcome values in obs order; obs are the condition's registers first. */
static bool allows(int32_t a, int32_t b)
{
    int32_t v[LITMUS_MAX_OBS];
    for (unsigned i = 0; i < R.n_outcomes; i++) {
        memcpy(v, R.outcomes + (size_t)i * R.n_obs, R.n_obs * sizeof *v);
        if (v[0] == a && v[1] == b)
            return true;
    }
    return false;
}

static void mp_forbids_flag_without_data(void **state)
{
    (void)state;
    load_suite("Manual/MP-gpu.litmus"); /* obs: P1:r1 (flag), P1:r2 (data) */
    assert_true(allows(0, 0));
    assert_true(allows(0, 1));
    assert_true(allows(1, 1));
    assert_false(allows(1, 0));
    assert_false(sc_cond_reachable(&T, &R, true));
    assert_false(R.may_hang);
}

static void sb_forbids_both_zero(void **state)
{
    (void)state;
    load_suite("Manual/SB-weak.litmus");
    assert_true(allows(1, 1));
    assert_true(allows(0, 1));
    assert_true(allows(1, 0));
    assert_false(allows(0, 0));
    assert_int_equal(R.n_outcomes, 3);
    assert_false(sc_cond_reachable(&T, &R, true)); /* PTX allows it (verdict 1); SC not */
}

static void lb_and_iriw(void **state)
{
    (void)state;
    load_text("PTX LB\n{ x=0; y=0; }\n"
              " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
              " ld.weak r0, x  | ld.weak r1, y  ;\n"
              " st.weak y, 1   | st.weak x, 1   ;\n"
              "exists (P0:r0 == 1 /\\ P1:r1 == 1)");
    assert_false(allows(1, 1));
    assert_true(allows(1, 0));
    assert_int_equal(R.n_outcomes, 3);
    load_text("PTX IRIW\n{ x=0; y=0; }\n"
              " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n"
              " st.weak x, 1   | st.weak y, 1   | ld.weak r0, x  | ld.weak r0, y  ;\n"
              "                |                | ld.weak r1, y  | ld.weak r1, x  ;\n"
              "exists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)");
    assert_false(sc_cond_reachable(&T, &R, true));
    /* each reader alone can see either order */
    assert_int_equal(R.n_outcomes, 15); /* 16 reader combinations minus the IRIW one */
}

static void atomics_are_atomic(void **state)
{
    (void)state;
    load_suite("Manual/Atom-plus-location_.litmus"); /* forall (x == 2) */
    assert_false(sc_cond_reachable(&T, &R, false));
    assert_true(sc_cond_reachable(&T, &R, true));
    load_suite("Manual/SL-cas-minus.litmus"); /* spin-free lock: CAS then read */
    assert_false(sc_cond_reachable(&T, &R, true));
}

static void spin_loops_terminate_the_search(void **state)
{
    (void)state;
    load_suite("Manual/Ticketlock-same-gpu.litmus");
    /* mutual exclusion: both reading x == 0 inside the lock is impossible */
    assert_false(sc_cond_reachable(&T, &R, true));
    assert_true(R.n_outcomes > 0);
    load_suite("Manual/XF-Barrier-rlx.litmus");
    assert_false(sc_cond_reachable(&T, &R, true));
    load_suite("Manual/MICRO24-Fig4b-correct.litmus"); /* a loop around an RMW */
    assert_false(sc_cond_reachable(&T, &R, true));
}

/* Forward progress under a fair scheduler: the ticket lock and issue 41's
 * hand-off end in every fair interleaving; a poll that can miss the only
 * moment its value is there, and a lock never released, need not. */
static void fair_livelock(void **state)
{
    (void)state;
    load_suite("Manual/Ticketlock-same-gpu.litmus");
    assert_false(R.may_livelock);
    static const char handoff[] =
        "PTX handoff\n{ tok=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " L0: | L1: ;\n"
        " atom.relaxed.gpu.exch r0, tok, 0 | atom.relaxed.gpu.exch r1, tok, 1 ;\n"
        " bne r0, 1, L0 | bne r1, 0, L1 ;\n"
        "exists (P0:r0 == 1)\n";
    load_text(handoff);
    assert_false(R.may_livelock);
    assert_false(R.may_hang);
    static const char window[] = "PTX window\n{ x=0; }\n"
                                 " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                                 " L0: | st.relaxed.gpu x, 1 ;\n"
                                 " ld.relaxed.gpu r0, x | st.relaxed.gpu x, 0 ;\n"
                                 " bne r0, 1, L0 | ;\n"
                                 "exists (P0:r0 == 1)\n";
    load_text(window);
    assert_true(R.may_livelock); /* P1 done, x = 0, P0 polling forever */
    assert_true(R.n_outcomes > 0);
    static const char unreleased[] =
        "PTX unreleased\n{ m=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " L0: | L1: ;\n"
        " atom.relaxed.gpu.exch r0, m, 1 | atom.relaxed.gpu.exch r1, m, 1 ;\n"
        " bne r0, 0, L0 | bne r1, 0, L1 ;\n"
        "exists (P0:r0 == 0)\n";
    if (litmus_parse(unreleased, "inline.litmus", &T, err, sizeof err))
        fail_msg("%s", err);
    sc_result_free(&R);
    if (sc_enumerate(&T, &R, 0, err, sizeof err))
        fail_msg("%s", err);
    assert_true(R.may_livelock);
    assert_int_equal(R.n_outcomes, 0); /* the loser spins on the winner's 1 */
}

/* Lanes of one warp run in the SIMT order: the later column first, each to
 * its end. The hand-off terminates whichever way round the waiter is under
 * a fair scheduler, but in that order only when the waiter is the earlier
 * column; a wait through another warp on a later-run lane hangs too. */
static void simt_order(void **state)
{
    (void)state;
    static const char waiter_first[] =
        "PTX w\n{ tok=0; }\n"
        " P0@cta 0,gpu 0,warp 0 | P1@cta 0,gpu 0,warp 0 ;\n"
        " L0: | L1: ;\n"
        " atom.relaxed.gpu.exch r0, tok, 1 | atom.relaxed.gpu.exch r1, tok, 0 ;\n"
        " bne r0, 0, L0 | bne r1, 1, L1 ;\n"
        "exists (P1:r1 == 1)\n";
    load_text(waiter_first);
    assert_false(R.may_livelock); /* fair: P0 moves, P1 reads its 1 */
    assert_true(R.simt_ordered);
    assert_true(R.simt_may_livelock); /* P1 runs first and spins; P0 never starts */
    assert_int_equal(R.simt_spinner, 1);
    assert_int_equal(R.simt_waiter, 0);
    static const char waiter_last[] =
        "PTX h\n{ tok=0; }\n"
        " P0@cta 0,gpu 0,warp 0 | P1@cta 0,gpu 0,warp 0 ;\n"
        " L0: | L1: ;\n"
        " atom.relaxed.gpu.exch r0, tok, 0 | atom.relaxed.gpu.exch r1, tok, 1 ;\n"
        " bne r0, 1, L0 | bne r1, 0, L1 ;\n"
        "exists (P0:r0 == 1)\n";
    load_text(waiter_last);
    assert_true(R.simt_ordered);
    assert_false(R.simt_may_livelock); /* P1 leaves at once, then P0 reads its 1 */
    assert_false(R.simt_may_hang);
    assert_int_equal(R.simt_waiter, -1);
    load_suite("../../tests/litmus/warp/WAIT-chain-warp.litmus");
    assert_false(R.may_livelock);
    assert_true(R.simt_may_livelock); /* P1 waits for P2, P2 for P0, P0 for P1 */
    assert_int_equal(R.simt_waiter, 0);
    load_suite("../../tests/litmus/warp/WAIT-other-warp.litmus");
    assert_false(R.simt_may_livelock); /* P2 runs beside P1 */
    /* threads in warps of their own: no SIMT order */
    load_suite("Manual/Ticketlock-same-gpu.litmus");
    assert_false(R.simt_ordered);
}

static void barriers(void **state)
{
    (void)state;
    /* count 2 of 3: P1 and P2 can pass without P0, so P1 may miss its store */
    load_suite("Barrier/quorum1-pass.litmus");
    assert_true(sc_cond_reachable(&T, &R, true));
    assert_false(R.may_hang);
    load_suite("Barrier/quorum1-fail.litmus"); /* count 3: everyone takes part */
    assert_false(sc_cond_reachable(&T, &R, true));
    load_suite("Barrier/quorum2-hang.litmus"); /* count 4 with 3 threads */
    assert_true(R.may_hang);
    assert_int_equal(R.n_outcomes, 0);
    load_suite("Manual/SB+bar-const-equal.litmus");
    assert_false(R.may_hang);
    load_suite("Manual/SB+twice-bars.litmus"); /* forall: every load sees the store */
    assert_false(sc_cond_reachable(&T, &R, false));
    load_suite("Manual/SB+named-bar-reg-diff.litmus"); /* ids 1 and 2: no rendezvous */
    assert_false(R.may_hang);
    assert_true(allows(0, 1) || allows(1, 0));
    load_suite("Manual/PC-bar-sync-arrive.litmus"); /* arrive does not block P1 */
    assert_true(sc_cond_reachable(&T, &R, true));
    load_suite("Barrier/barrier-not-inscope.litmus"); /* different CTAs: no sync */
    assert_true(sc_cond_reachable(&T, &R, false));
}

static void ptx_verdict_rules(void **state)
{
    (void)state;
    assert_int_equal(litmus_ptx_check(LITMUS_EXISTS, 1), LCHK_ALLOW_C);
    assert_int_equal(litmus_ptx_check(LITMUS_EXISTS, 0), LCHK_FORBID_C);
    assert_int_equal(litmus_ptx_check(LITMUS_NOT_EXISTS, 1), LCHK_FORBID_C);
    assert_int_equal(litmus_ptx_check(LITMUS_FORALL, 1), LCHK_FORBID_NOT_C);
    assert_int_equal(litmus_ptx_check(LITMUS_FORALL, 0), LCHK_ALLOW_NOT_C);
    assert_int_equal(litmus_ptx_check(LITMUS_FORALL, -1), LCHK_NONE);
    char e[256];
    struct litmus_refs *refs = litmus_refs_load(e, sizeof e);
    if (!refs)
        fail_msg("%s", e);
    char dir[512], p[1024];
    struct litmus_ref ref;
    assert_int_equal(litmus_suite_dir(dir, sizeof dir), 0);
    snprintf(p, sizeof p, "%s/Manual/MP-gpu.litmus", dir);
    assert_true(litmus_refs_lookup(refs, p, &ref));
    assert_string_equal(ref.rel, "Manual/MP-gpu.litmus");
    assert_int_equal(ref.verdict, 1);
    assert_int_equal(ref.core, 1);
    snprintf(p, sizeof p, "%s/Barrier/quorum1-hang.litmus", dir);
    assert_true(litmus_refs_lookup(refs, p, &ref));
    assert_int_equal(ref.verdict, 0);
    assert_int_equal(ref.liveness, 0);
    snprintf(p, sizeof p, "%s/Manual/MICRO24-Fig4b-correct.litmus", dir);
    assert_true(litmus_refs_lookup(refs, p, &ref));
    assert_int_equal(ref.verdict, -1);
    snprintf(p, sizeof p, "%s/Nvidia/proxy/../../Manual/SB-weak.litmus", dir);
    assert_true(litmus_refs_lookup(refs, p, &ref));
    assert_string_equal(ref.rel, "Manual/SB-weak.litmus");
    assert_false(litmus_refs_lookup(refs, "/etc/hostname", &ref));
    assert_int_equal(ref.verdict, -1);
    litmus_refs_free(refs);
    assert_string_equal(litmus_model_of("functional"), "sc");
    assert_string_equal(litmus_model_of("nc"), "ptx");
}

static void whole_suite_enumerates(void **state)
{
    (void)state;
    /* every core test: SC never contradicts a "C forbidden" PTX verdict
     * (SC is stronger than PTX), and a forall-1 clause holds under SC */
    char e[256];
    struct litmus_refs *refs = litmus_refs_load(e, sizeof e);
    assert_non_null(refs);
    char dir[512], idx[1024], line[1024];
    assert_int_equal(litmus_suite_dir(dir, sizeof dir), 0);
    snprintf(idx, sizeof idx, "%s/../index.csv", dir);
    FILE *f = fopen(idx, "r");
    assert_non_null(f);
    unsigned n = 0;
    while (fgets(line, sizeof line, f)) {
        char *c = strchr(line, ',');
        if (!c || !strncmp(line, "path", 4))
            continue;
        *c = 0;
        load_suite(line);
        char p[2048];
        snprintf(p, sizeof p, "%s/%s", dir, line);
        struct litmus_ref ref;
        litmus_refs_lookup(refs, p, &ref);
        enum litmus_check k = litmus_ptx_check(T.kind, ref.verdict);
        if (k == LCHK_FORBID_C && sc_cond_reachable(&T, &R, true))
            fail_msg("%s: SC reaches C, which PTX forbids", line);
        if (k == LCHK_FORBID_NOT_C && sc_cond_reachable(&T, &R, false))
            fail_msg("%s: SC violates C, which PTX forbids", line);
        if (ref.liveness == 1 && (!R.n_outcomes || R.may_hang))
            fail_msg("%s: no SC outcome", line);
        n++;
    }
    fclose(f);
    assert_int_equal(n, 239);
    litmus_refs_free(refs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mp_forbids_flag_without_data),
        cmocka_unit_test(sb_forbids_both_zero),
        cmocka_unit_test(lb_and_iriw),
        cmocka_unit_test(atomics_are_atomic),
        cmocka_unit_test(spin_loops_terminate_the_search),
        cmocka_unit_test(fair_livelock),
        cmocka_unit_test(simt_order),
        cmocka_unit_test(barriers),
        cmocka_unit_test(ptx_verdict_rules),
        cmocka_unit_test(whole_suite_enumerates),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    sc_result_free(&R);
    return rc;
}
