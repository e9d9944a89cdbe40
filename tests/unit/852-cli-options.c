/*
 * 852-cli-options.c - the commands' option parser (cli/opt.h): whole numbers
 * at their bounds, with overflow, signs and suffixes refused; both value
 * forms and attached one-letter values; enums; repeatable options; unknown
 * options, missing values and extra arguments as usage errors (exit 2).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "cli/opt.h"

static void no_usage(FILE *out)
{
    (void)out;
}

static void numbers_are_digits_within_bounds(void **state)
{
    (void)state;
    char err[256];
    uint64_t v = 0;
    assert_int_equal(opt_number("--n", "18446744073709551615", 0, UINT64_MAX, &v, err, sizeof err),
                     0);
    assert_true(v == UINT64_MAX);
    assert_int_equal(opt_number("--n", "0x10", 0, 100, &v, err, sizeof err), 0);
    assert_int_equal(v, 16);
    assert_int_equal(opt_number("--n", "48", 1, 48, &v, err, sizeof err), 0);
    static const char *const bad[] = {"18446744073709551616",
                                      "99999999999999999999",
                                      "-1",
                                      "+1",
                                      "10x",
                                      " 1",
                                      "1 ",
                                      "",
                                      "0x",
                                      "1e3",
                                      "49",
                                      "0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (!opt_number("--n", bad[i], 1, 48, &v, err, sizeof err))
            fail_msg("accepted '%s'", bad[i]);
        assert_non_null(strstr(err, "is not a whole number from 1 to 48"));
    }
}

static void tables_parse_both_forms(void **state)
{
    (void)state;
    static const char *const colours[] = {"red", "green", NULL};
    unsigned jobs = 1;
    int colour = 0;
    bool flag = false;
    const char *name = NULL, *pos_v[2], *sets_v[4];
    struct opt_args pos = {pos_v, 0, 2}, sets = {sets_v, 0, 4};
    const struct opt rows[] = {
        OPT_UINT_ROW("--jobs", "-j", &jobs, 1, 256),
        OPT_ENUM_ROW("--colour", NULL, &colour, colours),
        OPT_FLAG_ROW("--flag", NULL, &flag),
        OPT_STR_ROW("--name", NULL, &name),
        OPT_CALL_ROW("--set", NULL, opt_append, &sets),
        OPT_END,
    };
    char *argv[] = {"cmd",   "-j4", "--colour=green", "a",  "--flag", "--name", "x",
                    "--set", "k=1", "--set=k=2",      "--", "-b"};
    int argc = (int)(sizeof argv / sizeof argv[0]);
    assert_int_equal(
        opt_parse("t", (const struct opt *const[]){rows, NULL}, argc, argv, 1, &pos, no_usage),
        OPT_CONTINUE);
    assert_int_equal(jobs, 4);
    assert_int_equal(colour, 1);
    assert_true(flag);
    assert_string_equal(name, "x");
    assert_int_equal(sets.n, 2);
    assert_string_equal(sets_v[1], "k=2");
    assert_int_equal(pos.n, 2);
    assert_string_equal(pos_v[1], "-b");
}

static void mistakes_are_usage_errors(void **state)
{
    (void)state;
    unsigned jobs = 1;
    bool flag = false;
    const struct opt rows[] = {
        OPT_UINT_ROW("--jobs", "-j", &jobs, 1, 256),
        OPT_FLAG_ROW("--flag", NULL, &flag),
        OPT_END,
    };
    char *cases[][3] = {
        {"--jobs", "0", NULL},    {"--jobs", "2x", NULL}, {"--jobs", NULL, NULL},
        {"--flag=1", NULL, NULL}, {"--nope", NULL, NULL}, {"extra", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *argv[4] = {"cmd", cases[i][0], cases[i][1], NULL};
        int argc = cases[i][1] ? 3 : 2;
        assert_int_equal(
            opt_parse("t", (const struct opt *const[]){rows, NULL}, argc, argv, 1, NULL, no_usage),
            EXIT_USAGE);
    }
    char *help[] = {"cmd", "--help"};
    assert_int_equal(
        opt_parse("t", (const struct opt *const[]){rows, NULL}, 2, help, 1, NULL, no_usage), 0);
}

static void result_paths_are_checked_first(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(opt_check_output("--stats", "x.json", err, sizeof err), 0);
    assert_int_equal(opt_check_output("--stats", "/nonexistent/x.json", err, sizeof err), -1);
    assert_non_null(strstr(err, "folder /nonexistent does not exist"));
    assert_int_equal(opt_check_output("--stats", "/", err, sizeof err), -1);
    assert_int_equal(opt_check_input("--config", "/", err, sizeof err), -1);
    assert_non_null(strstr(err, "not a regular file"));
}

static void escaped_messages_keep_utf8(void **state)
{
    (void)state;
    char out[64];
    log_escape("a\x01\xff\xc3\xa9\n", out, sizeof out);
    assert_string_equal(out, "a\\x01\\xff\xc3\xa9\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers_are_digits_within_bounds),
        cmocka_unit_test(tables_parse_both_forms),
        cmocka_unit_test(mistakes_are_usage_errors),
        cmocka_unit_test(result_paths_are_checked_first),
        cmocka_unit_test(escaped_messages_keep_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
