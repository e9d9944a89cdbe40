/*
 * 855-sweep-eta.c - the sweep's estimate of the time left (sweep_eta), fed
 * synthetic run times: runs not started take the mean of the finished ones,
 * a running run the rest of the mean past its elapsed time, and the work is
 * shared by no more runs at once than are left (one last run of 10 s takes
 * 10 s even with -j 2).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sweep/sweep.h"

static void no_finished_run_gives_no_estimate(void **state)
{
    (void)state;
    double running[] = {3.0};
    assert_true(sweep_eta(-1, 10, running, 1, 2) < 0);
}

static void waiting_runs_share_the_jobs(void **state)
{
    (void)state;
    /* 8 runs of 10 s (the mean of those finished) on 2 jobs: 40 s */
    assert_float_equal(sweep_eta(10.0, 8, NULL, 0, 2), 40.0, 1e-9);
    /* on 4 jobs: 20 s */
    assert_float_equal(sweep_eta(10.0, 8, NULL, 0, 4), 20.0, 1e-9);
}

static void running_runs_count_what_is_left_of_the_mean(void **state)
{
    (void)state;
    /* 2 waiting (20 s) + running ones 4 s and 9 s into 10 (6 + 1 s) over 2 jobs */
    double running[] = {4.0, 9.0};
    assert_float_equal(sweep_eta(10.0, 2, running, 2, 2), 13.5, 1e-9);
    /* a run already past the mean adds nothing (never negative) */
    double late[] = {25.0};
    assert_float_equal(sweep_eta(10.0, 1, late, 1, 2), 5.0, 1e-9);
}

static void fewer_runs_left_than_jobs_run_no_faster(void **state)
{
    (void)state;
    /* the last run alone with -j 4: its whole mean, not a quarter of it */
    assert_float_equal(sweep_eta(10.0, 1, NULL, 0, 4), 10.0, 1e-9);
    double running[] = {2.0};
    assert_float_equal(sweep_eta(10.0, 0, running, 1, 4), 8.0, 1e-9);
    /* nothing left */
    assert_float_equal(sweep_eta(10.0, 0, NULL, 0, 2), 0.0, 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_finished_run_gives_no_estimate),
        cmocka_unit_test(waiting_runs_share_the_jobs),
        cmocka_unit_test(running_runs_count_what_is_left_of_the_mean),
        cmocka_unit_test(fewer_runs_left_than_jobs_run_no_faster),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
