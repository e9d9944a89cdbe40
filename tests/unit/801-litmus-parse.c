/*
 * 801-litmus-parse.c - the litmus parser: every test of the shared suite
 * parses; known tests come out with the right structure; malformed files
 * give the right file:line.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/litmus.h"
#include "check/litmus_ref.h"

static struct litmus_test T;
static char err[1024];

static const char *root(void)
{
    const char *r = getenv("GPUCOH_ROOT");
    return r ? r : GPUCOH_SOURCE_DIR;
}

static void suite_path(char *buf, size_t len, const char *rel)
{
    char dir[512];
    assert_int_equal(litmus_suite_dir(dir, sizeof dir), 0);
    snprintf(buf, len, "%s/%s", dir, rel);
}

static unsigned parse_tree(const char *dir)
{
    unsigned n = 0;
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        size_t l = strlen(e->d_name);
        if (l > 7 && !strcmp(e->d_name + l - 7, ".litmus")) {
            if (litmus_parse_file(p, &T, err, sizeof err))
                fail_msg("%s", err);
            assert_true(T.n_threads >= 1);
            assert_true(T.root >= 0);
            n++;
        } else {
            n += parse_tree(p);
        }
    }
    closedir(d);
    return n;
}

static void every_suite_file_parses(void **state)
{
    (void)state;
    char dir[512];
    assert_int_equal(litmus_suite_dir(dir, sizeof dir), 0);
    assert_int_equal(parse_tree(dir), 239);
}

static void mp_gpu_structure(void **state)
{
    (void)state;
    char p[1024];
    suite_path(p, sizeof p, "Manual/MP-gpu.litmus");
    assert_int_equal(litmus_parse_file(p, &T, err, sizeof err), 0);
    assert_string_equal(T.name, "MP-gpu");
    assert_int_equal(T.n_threads, 2);
    assert_int_equal(T.n_locs, 2);
    assert_int_equal(T.kind, LITMUS_NOT_EXISTS);
    assert_int_equal(T.th[0].n_instrs, 2);
    const struct litmus_instr *st = &T.th[0].ins[1];
    assert_int_equal(st->op, LOP_ST);
    assert_int_equal(st->sem, SEM_RELEASE);
    assert_int_equal(st->scope, SCOPE_GPU);
    assert_int_equal(st->a.v, 1);
    const struct litmus_instr *ld = &T.th[1].ins[0];
    assert_int_equal(ld->op, LOP_LD);
    assert_int_equal(ld->sem, SEM_ACQUIRE);
    assert_int_equal(ld->dst, 1);
    assert_int_equal(T.th[1].ins[1].sem, SEM_WEAK);
    assert_int_equal(T.th[1].ins[1].scope, SCOPE_N);
    /* observables: the condition's registers first, then the locations */
    assert_int_equal(T.n_obs_cond, 2);
    assert_int_equal(T.n_obs, 4);
    int32_t v[4] = {1, 0, 1, 1};
    assert_true(litmus_cond_holds(&T, v));
    v[1] = 1;
    assert_false(litmus_cond_holds(&T, v));
    assert_null(litmus_unsupported(&T));
}

static void control_flow_and_barriers(void **state)
{
    (void)state;
    char p[1024];
    suite_path(p, sizeof p, "Manual/Ticketlock-same-gpu.litmus");
    assert_int_equal(litmus_parse_file(p, &T, err, sizeof err), 0);
    /* atom; LC00: ld; beq LC01; goto LC00; LC01: ld; st; atom */
    assert_int_equal(T.th[0].n_instrs, 7);
    assert_int_equal(T.th[0].ins[2].op, LOP_BEQ);
    assert_int_equal(T.th[0].ins[2].target, 4);
    assert_int_equal(T.th[0].ins[3].op, LOP_GOTO);
    assert_int_equal(T.th[0].ins[3].target, 1);
    assert_true(T.features & LITMUS_F_CONTROL);

    suite_path(p, sizeof p, "Manual/SB+named-bar-reg-diff.litmus");
    assert_int_equal(litmus_parse_file(p, &T, err, sizeof err), 0);
    assert_int_equal(T.th[0].reg_init[2], 1);
    assert_int_equal(T.th[1].reg_init[3], 2);
    /* ids from never-written registers are constants: two groups */
    assert_int_equal(T.n_groups, 2);
    assert_int_equal(T.kind, LITMUS_FORALL);

    suite_path(p, sizeof p, "Manual/SB+named-bar-dyn-reg-const.litmus");
    assert_int_equal(litmus_parse_file(p, &T, err, sizeof err), 0);
    assert_int_equal(T.n_groups, 1);
    assert_true(T.groups[0].dynamic);
    assert_int_equal(T.groups[0].members, 3);

    suite_path(p, sizeof p, "Barrier/quorum1-pass.litmus");
    assert_int_equal(litmus_parse_file(p, &T, err, sizeof err), 0);
    assert_int_equal(T.n_groups, 1);
    assert_int_equal(T.groups[0].count, 2);
    assert_int_equal(T.groups[0].members, 7);
}

static void memory_conditions_and_unsupported(void **state)
{
    (void)state;
    char p[1024];
    suite_path(p, sizeof p, "Manual/CoRW-WW.litmus"); /* tabs, a memory condition */
    assert_int_equal(litmus_parse_file(p, &T, err, sizeof err), 0);
    assert_int_equal(T.n_obs_cond, 2);
    assert_int_equal(T.obs[1].kind, LT_LOC);
    suite_path(p, sizeof p, "Manual/Ticketlock-diff-gpu.litmus");
    assert_int_equal(litmus_parse_file(p, &T, err, sizeof err), 0);
    assert_non_null(strstr(litmus_unsupported(&T), "GPUs"));
    suite_path(p, sizeof p,
               "Nvidia/proxy/Proxy-MP-Alias+diffProxy-aliasFence+proxyFence-correctOrder.litmus");
    assert_int_equal(litmus_parse_file(p, &T, err, sizeof err), 0);
    assert_non_null(litmus_unsupported(&T));
    /* an alias shares its target's physical location */
    assert_int_equal(T.locs[1].root, 0);
}

static void expect_error(const char *file, const char *where, const char *what)
{
    char p[1024], want[1100];
    snprintf(p, sizeof p, "%s/tests/litmus/%s", root(), file);
    assert_int_equal(litmus_parse_file(p, &T, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:%s: ", p, where);
    if (strncmp(err, want, strlen(want)))
        fail_msg("got '%s', want prefix '%s'", err, want);
    if (!strstr(err, what))
        fail_msg("got '%s', want it to mention '%s'", err, what);
}

static void malformed_files_name_file_and_line(void **state)
{
    (void)state;
    expect_error("bad-syntax.litmus", "5", "expected 'LOC=INT'");
    expect_error("bad-instr.litmus", "8", "unknown instruction 'frobnicate'");
    expect_error("bad-columns.litmus", "9", "row has 3 columns but the thread header declares 2");
    expect_error("bad-cond.litmus", "9", "expected '=='");
    expect_error("bad-label.litmus", "8", "label 'LC09' is not defined in P1");
}

/* The rest of the Dat3M dialect: immediate loads, locations without an init
 * entry, blanks inside a condition's register. */
static void dat3m_dialect(void **state)
{
    (void)state;
    const char *imm = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld r1, 1 ;\n ld r2, r1 ;\n"
                      " st.weak x, r2 ;\nexists (P0:r2 == 1)";
    if (litmus_parse(imm, "m.litmus", &T, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(T.th[0].ins[0].op, LOP_ADD);
    assert_int_equal(T.th[0].ins[0].dst, 1);
    assert_false(T.th[0].ins[0].a.is_reg);
    assert_int_equal(T.th[0].ins[0].a.v, 1);
    assert_int_equal(T.th[0].ins[1].op, LOP_ADD);
    assert_true(T.th[0].ins[1].a.is_reg);
    assert_int_equal(T.th[0].ins[0].loc, -1);
    const char *undecl = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, y ;\n"
                         "exists (P0:r0 == 0 /\\ z == 0)";
    if (litmus_parse(undecl, "m.litmus", &T, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(T.n_locs, 3);
    assert_string_equal(T.locs[1].name, "y");
    assert_int_equal(T.locs[1].init, 0);
    assert_int_equal(T.locs[1].root, 1);
    assert_string_equal(T.locs[2].name, "z");
    const char *blank = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                        " ld.weak r0, x | ld.weak r3, x ;\nexists (P0: r0 == 0 /\\ P1:\tr3 == 0)";
    if (litmus_parse(blank, "m.litmus", &T, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(T.nodes[T.root].kind, LN_AND);
    assert_int_equal(T.obs[0].thread, 0);
    assert_int_equal(T.obs[0].index, 0);
    assert_int_equal(T.obs[1].thread, 1);
    assert_int_equal(T.obs[1].index, 3);
}

static void inline_errors(void **state)
{
    (void)state;
    const char *no_scope =
        "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.acquire r0, x ;\nexists (P0:r0 == 0)";
    assert_int_equal(litmus_parse(no_scope, "m.litmus", &T, err, sizeof err), -1);
    assert_non_null(strstr(err, "m.litmus:4: unknown instruction 'ld.acquire'"));
    const char *notloc =
        "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, 5 ;\nexists (P0:r0 == 0)";
    assert_int_equal(litmus_parse(notloc, "m.litmus", &T, err, sizeof err), -1);
    assert_non_null(strstr(err, "m.litmus:4: expected a location, got '5'"));
    const char *nocond = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n";
    assert_int_equal(litmus_parse(nocond, "m.litmus", &T, err, sizeof err), -1);
    assert_non_null(strstr(err, "missing the final condition"));
    const char *noheader = "\n\nMP\n{ x=0; }";
    assert_int_equal(litmus_parse(noheader, "m.litmus", &T, err, sizeof err), -1);
    assert_non_null(strstr(err, "m.litmus:3: expected the header"));
    /* precedence: /\ binds tighter than \/ */
    const char *prec = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n"
                       "exists (P0:r0 == 1 \\/ P0:r0 == 0 /\\ x == 5)";
    assert_int_equal(litmus_parse(prec, "m.litmus", &T, err, sizeof err), 0);
    assert_int_equal(T.nodes[T.root].kind, LN_OR);
    int32_t v[2] = {0, 0}; /* P0:r0 = 0, x = 0: false \/ (true /\ false) */
    assert_false(litmus_cond_holds(&T, v));
    v[0] = 1;
    assert_true(litmus_cond_holds(&T, v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_suite_file_parses),
        cmocka_unit_test(mp_gpu_structure),
        cmocka_unit_test(control_flow_and_barriers),
        cmocka_unit_test(memory_conditions_and_unsupported),
        cmocka_unit_test(malformed_files_name_file_and_line),
        cmocka_unit_test(inline_errors),
        cmocka_unit_test(dat3m_dialect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
