/*
 * 850-sweep-spec.c - the sweep spec parser: cross products, named
 * configurations, canonical settings and deterministic ids (the same run
 * named twice has one id), --size and protocols not built; every kind of
 * bad input answered with "spec:line: what is wrong"; a block over several
 * seeds, the same as its copies written out; and a run's identity
 * (sweep_ident.c), which follows the resolved configuration's values, not
 * how they were written.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "sweep/sweep.h"

static void cross_product_of_workloads_protocols_sizes_and_axes(void **state)
{
    (void)state;
    struct sweep_spec s;
    char err[512] = "";
    const char *text = "# two workloads, two protocols, two sizes, a 3-value axis\n"
                       "workloads mp saxpy\n"
                       "protocols nol1 rc\n"
                       "sizes tiny small\n"
                       "set l1.ways 2 4 8   # trailing comment\n";
    assert_int_equal(sweep_spec_parse(&s, "t.sweep", text, NULL, err, sizeof err), 0);
    assert_int_equal(s.n_runs, 2 * 2 * 2 * 3);
    const struct sweep_run *r = &s.runs[0];
    assert_string_equal(r->workload, "mp");
    assert_string_equal(r->set, "basic");
    assert_string_equal(r->size, "tiny");
    assert_string_equal(r->protocol, "nol1");
    assert_string_equal(r->config, "nol1");
    assert_string_equal(r->settings_text, "l1.ways=2");
    assert_non_null(strstr(r->id, "mp-tiny-nol1-"));
    for (unsigned i = 0; i < s.n_runs; i++)
        for (unsigned k = 0; k < i; k++)
            assert_string_not_equal(s.runs[i].id, s.runs[k].id);
    sweep_spec_free(&s);
}

static void named_configuration_equals_the_same_settings_as_an_axis(void **state)
{
    (void)state;
    struct sweep_spec s;
    char err[512] = "";
    const char *text = "sweep a\n"
                       "workloads mp\n"
                       "protocols fast=rc:l1.ways=8,l1.hit_cycles=10\n"
                       "sizes tiny\n"
                       "sweep b\n"
                       "workloads mp\n"
                       "protocols rc\n"
                       "sizes tiny\n"
                       "set l1.hit_cycles 10\n"
                       "set l1.ways 8\n";
    assert_int_equal(sweep_spec_parse(&s, "t.sweep", text, NULL, err, sizeof err), 0);
    assert_int_equal(s.n_runs, 2);
    /* settings are one per key, sorted by key, whatever order they came in */
    assert_string_equal(s.runs[0].settings_text, "l1.hit_cycles=10;l1.ways=8");
    assert_string_equal(s.runs[1].settings_text, "l1.hit_cycles=10;l1.ways=8");
    assert_string_equal(s.runs[0].id, s.runs[1].id);
    assert_string_equal(s.runs[0].config, "fast");
    assert_string_equal(s.runs[1].config, "rc");
    assert_ptr_equal(sweep_find(&s, "a", "mp", "fast", NULL), &s.runs[0]);
    assert_ptr_equal(sweep_find(&s, "b", "mp", "rc", "l1.ways=8"), &s.runs[1]);
    assert_null(sweep_find(&s, "b", "mp", "rc", "l1.ways=4"));
    sweep_spec_free(&s);
}

static void an_axis_overrides_the_configuration_setting_of_its_key(void **state)
{
    (void)state;
    struct sweep_spec s, t;
    char err[512] = "";
    assert_int_equal(sweep_spec_parse(&s, "t.sweep",
                                      "workloads mp\nprotocols x=rc:l1.ways=8\nsizes tiny\n"
                                      "set l1.ways 2\n",
                                      NULL, err, sizeof err),
                     0);
    assert_int_equal(sweep_spec_parse(&t, "u.sweep",
                                      "workloads mp\nprotocols rc\nsizes tiny\n"
                                      "set l1.ways 2\n",
                                      NULL, err, sizeof err),
                     0);
    assert_string_equal(s.runs[0].settings_text, "l1.ways=2");
    assert_string_equal(s.runs[0].id, t.runs[0].id); /* ids do not depend on the file */
    sweep_spec_free(&s);
    sweep_spec_free(&t);
}

static void sets_expand_and_size_option_replaces_sizes(void **state)
{
    (void)state;
    struct sweep_spec s;
    char err[512] = "";
    struct sweep_parse_opts o = {.size = "tiny"};
    assert_int_equal(sweep_spec_parse(&s, "t.sweep",
                                      "workloads intra\nprotocols rc\nsizes paper small\n", &o, err,
                                      sizeof err),
                     0);
    assert_true(s.n_runs >= 6);
    for (unsigned i = 0; i < s.n_runs; i++) {
        assert_string_equal(s.runs[i].set, "intra");
        assert_string_equal(s.runs[i].size, "tiny");
    }
    sweep_spec_free(&s);
    /* no sizes line: small */
    assert_int_equal(
        sweep_spec_parse(&s, "t.sweep", "workloads mp\nprotocols rc\n", NULL, err, sizeof err), 0);
    assert_string_equal(s.runs[0].size, "small");
    sweep_spec_free(&s);
}

static void protocols_not_built_are_errors_or_noted(void **state)
{
    (void)state;
    struct sweep_spec s;
    char err[512] = "";
    const char *text = "workloads mp\nprotocols rc nosuch=nosuchproto:l1.ways=2\nsizes tiny\n";
    assert_int_equal(sweep_spec_parse(&s, "t.sweep", text, NULL, err, sizeof err), -1);
    assert_string_equal(err, "t.sweep:2: protocol 'nosuchproto' is not built in this gpucoh "
                             "(gpucoh list protocols)");
    struct sweep_parse_opts o = {.skip_missing = true};
    assert_int_equal(sweep_spec_parse(&s, "t.sweep", text, &o, err, sizeof err), 0);
    assert_int_equal(s.n_runs, 1);
    assert_int_equal(s.n_missing, 1);
    assert_string_equal(s.missing[0].config, "nosuch");
    assert_string_equal(s.missing[0].protocol, "nosuchproto");
    assert_int_equal(s.missing[0].line, 2);
    sweep_spec_free(&s);
}

static void expect_error(const char *text, const char *want)
{
    struct sweep_spec s;
    char err[512] = "";
    assert_int_equal(sweep_spec_parse(&s, "bad.sweep", text, NULL, err, sizeof err), -1);
    if (!strstr(err, want))
        fail_msg("expected '%s' in '%s'", want, err);
}

static void bad_specs_name_file_and_line(void **state)
{
    (void)state;
    expect_error("workloads mp\nprotocols rc\nfrobnicate 3\n",
                 "bad.sweep:3: unknown directive 'frobnicate'");
    expect_error("workloads mp nosuchwl\nprotocols rc\n",
                 "bad.sweep:1: unknown workload 'nosuchwl'");
    expect_error("workloads mp\nprotocols rc\nsizes huge\n", "bad.sweep:3: size 'huge'");
    expect_error("workloads mp\nprotocols rc\n\nset l1.bogus 1 2\n",
                 "bad.sweep:4: unknown option 'l1.bogus'");
    expect_error("workloads mp\nprotocols rc\nset l1.ways 0\n",
                 "bad.sweep:3: l1.ways: 0 is out of range");
    expect_error("workloads mp\nprotocols rc\nset l1.ways\n", "bad.sweep:3: expected: set");
    expect_error("workloads mp\nprotocols x=rc:l1.ways\n",
                 "bad.sweep:2: 'l1.ways' is not KEY=VALUE");
    expect_error("workloads mp\nprotocols rc\nset coherence.protocol rc\n",
                 "bad.sweep:3: set the protocol with a protocols line");
    expect_error("workloads mp\nprotocols rc rc\n",
                 "bad.sweep:2: configuration 'rc' is named twice");
    expect_error("workloads mp\nsizes tiny\n",
                 "bad.sweep:1: the first block has no protocols line");
    expect_error("sweep a\nworkloads mp\nprotocols rc\nsweep b\nprotocols rc\n",
                 "bad.sweep:4: b has no workloads line");
    expect_error("workloads mp\nprotocols rc\nconfig /no/such.ini\n",
                 "bad.sweep:3: machine file '/no/such.ini'");
    expect_error("workloads\n", "bad.sweep:1: 'workloads' needs at least one value");
    expect_error("# nothing\n\n", "bad.sweep:2: the spec defines no runs");
}

/* seed N1 N2...: the block once per seed, each copy named NAME followed by
 * its seed, the same runs (ids too) as blocks written out one by one. */
static void several_seeds_make_one_block_per_seed(void **state)
{
    (void)state;
    struct sweep_spec s, t;
    char err[512] = "";
    assert_int_equal(sweep_spec_parse(&s, "t.sweep",
                                      "sweep main\nworkloads mp saxpy\nprotocols nol1 rc\n"
                                      "sizes tiny\n"
                                      "sweep seed\nseed 2 3\nworkloads saxpy\nprotocols nol1 rc\n"
                                      "sizes tiny\n",
                                      NULL, err, sizeof err),
                     0);
    assert_int_equal(sweep_spec_parse(&t, "t.sweep",
                                      "sweep main\nworkloads mp saxpy\nprotocols nol1 rc\n"
                                      "sizes tiny\n"
                                      "sweep seed2\nseed 2\nworkloads saxpy\nprotocols nol1 rc\n"
                                      "sizes tiny\n"
                                      "sweep seed3\nseed 3\nworkloads saxpy\nprotocols nol1 rc\n"
                                      "sizes tiny\n",
                                      NULL, err, sizeof err),
                     0);
    assert_int_equal(s.n_runs, 4 + 2 * 2);
    assert_int_equal(t.n_runs, s.n_runs);
    for (unsigned i = 0; i < s.n_runs; i++) {
        assert_string_equal(s.runs[i].block, t.runs[i].block);
        assert_string_equal(s.runs[i].seed, t.runs[i].seed);
        assert_string_equal(s.runs[i].id, t.runs[i].id);
    }
    assert_string_equal(s.runs[4].block, "seed2");
    assert_string_equal(s.runs[4].seed, "2");
    assert_string_equal(s.runs[7].block, "seed3");
    assert_string_equal(s.runs[7].seed, "3");
    assert_string_not_equal(s.runs[4].id, s.runs[6].id); /* saxpy under nol1, seeds 2 and 3 */
    sweep_spec_free(&s);
    sweep_spec_free(&t);
    expect_error("sweep a\nseed 2 x\nworkloads mp\nprotocols rc\n",
                 "bad.sweep:2: expected: seed N... (whole numbers");
    expect_error("sweep a\nseed 2 3 2\nworkloads mp\nprotocols rc\n",
                 "bad.sweep:2: seed 2 is named twice");
    expect_error("sweep a\nseed 2\nseed 3\nworkloads mp\nprotocols rc\n",
                 "bad.sweep:3: a second seed line in one block");
    expect_error("seed 2 3\nworkloads mp\nprotocols rc\n",
                 "bad.sweep:1: several seeds need a block name");
    expect_error("sweep a2\nworkloads mp\nprotocols rc\n"
                 "sweep a\nseed 1 2\nworkloads mp\nprotocols rc\n",
                 "bad.sweep:5: seed 2 makes block 'a2', which is defined already");
    expect_error("sweep a\nseed 1 2\nworkloads mp\nprotocols rc\n"
                 "sweep a2\nworkloads mp\nprotocols rc\n",
                 "bad.sweep:5: block 'a2' is defined twice");
    expect_error("sweep a\nworkloads mp\nprotocols rc\nsweep a\nworkloads mp\nprotocols rc\n",
                 "bad.sweep:4: block 'a' is defined twice");
}

static void machine_files_are_an_axis_and_part_of_the_id(void **state)
{
    (void)state;
    struct sweep_spec s;
    char err[512] = "";
    assert_int_equal(sweep_spec_parse(&s, "t.sweep",
                                      "workloads mp\nprotocols rc\nsizes tiny\n"
                                      "config configs/tc-fermi.ini\n",
                                      NULL, err, sizeof err),
                     0);
    assert_int_equal(s.n_runs, 1);
    assert_non_null(s.runs[0].config_file);
    assert_non_null(strstr(s.runs[0].config_file, "tc-fermi.ini"));
    char with_file[160];
    strcpy(with_file, s.runs[0].id);
    sweep_spec_free(&s);
    assert_int_equal(sweep_spec_parse(&s, "t.sweep", "workloads mp\nprotocols rc\nsizes tiny\n",
                                      NULL, err, sizeof err),
                     0);
    assert_null(s.runs[0].config_file);
    assert_string_not_equal(s.runs[0].id, with_file);
    sweep_spec_free(&s);
}

/* Runs at:   0 the default machine; 1 its own l2.latency_cycles (150) set
 * again; 2 another latency; 3 l2.mhz a hair from 700 (which "%g" prints as
 * 700); 4 another workload. */
static void identity_follows_the_resolved_configuration(void **state)
{
    (void)state;
    struct sweep_spec s;
    char err[512] = "";
    assert_int_equal(sweep_spec_parse(&s, "t.sweep",
                                      "workloads mp\nsizes tiny\n"
                                      "protocols rc same=rc:l2.latency_cycles=150 "
                                      "slow=rc:l2.latency_cycles=151 "
                                      "hair=rc:l2.mhz=700.0000001\n"
                                      "sweep other\nworkloads saxpy\nprotocols rc\nsizes tiny\n",
                                      NULL, err, sizeof err),
                     0);
    assert_int_equal(s.n_runs, 5);
    struct sweep_ident id[5];
    for (unsigned i = 0; i < 5; i++)
        sweep_ident_of(&s.runs[i], 42, &id[i]);
    assert_string_not_equal(s.runs[0].id, s.runs[1].id); /* written differently... */
    assert_true(id[0].part[SWEEP_IDENT_CONFIG] == id[1].part[SWEEP_IDENT_CONFIG]); /* same */
    assert_true(id[0].part[SWEEP_IDENT_CONFIG] != id[2].part[SWEEP_IDENT_CONFIG]);
    assert_true(id[0].part[SWEEP_IDENT_CONFIG] != id[3].part[SWEEP_IDENT_CONFIG]);
    assert_true(id[0].part[SWEEP_IDENT_WORKLOAD] == id[3].part[SWEEP_IDENT_WORKLOAD]);
    assert_true(id[0].part[SWEEP_IDENT_WORKLOAD] != id[4].part[SWEEP_IDENT_WORKLOAD]);
    assert_true(id[0].part[SWEEP_IDENT_BUILD] == 42);
    sweep_spec_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cross_product_of_workloads_protocols_sizes_and_axes),
        cmocka_unit_test(named_configuration_equals_the_same_settings_as_an_axis),
        cmocka_unit_test(an_axis_overrides_the_configuration_setting_of_its_key),
        cmocka_unit_test(sets_expand_and_size_option_replaces_sizes),
        cmocka_unit_test(protocols_not_built_are_errors_or_noted),
        cmocka_unit_test(bad_specs_name_file_and_line),
        cmocka_unit_test(several_seeds_make_one_block_per_seed),
        cmocka_unit_test(machine_files_are_an_axis_and_part_of_the_id),
        cmocka_unit_test(identity_follows_the_resolved_configuration),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
