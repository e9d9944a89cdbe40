/*
 * 890-observe.c - the invariant observer catches a value that differs from
 * the last write serialised, and stays silent otherwise.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "base/log.h"
#include "mem/observe.h"

static jmp_buf on_exit_jmp;
static int exit_code;

static void catch_exit(int code)
{
    exit_code = code;
    longjmp(on_exit_jmp, 1);
}

static void golden_memory_tracks_masked_writes(void **state)
{
    (void)state;
    struct observer o;
    obs_init(&o, 128);
    uint8_t line[128] = {0};
    struct bytemask m = {0};
    bytemask_set_range(&m, 8, 4);
    memcpy(line + 8, "\x01\x02\x03\x04", 4);
    obs_write(&o, 0x1000, line, &m);
    obs_check(&o, "test", 0x1000, line, NULL); /* equal: silent */
    assert_int_equal(o.checks, 1);
    obs_destroy(&o);
}

static void a_stale_line_is_a_simulator_fault(void **state)
{
    (void)state;
    struct observer o;
    obs_init(&o, 128);
    uint8_t line[128] = {0};
    struct bytemask m = {0};
    bytemask_set_range(&m, 0, 4);
    line[0] = 7;
    obs_write(&o, 0x2000, line, &m);
    uint8_t stale[128] = {0};
    log_set_exit(catch_exit);
    exit_code = -1;
    if (!setjmp(on_exit_jmp))
        obs_check(&o, "gpu.l2[0]", 0x2000, stale, NULL);
    log_set_exit(NULL);
    assert_int_equal(exit_code, EXIT_SIM_FAULT);
    /* bytes outside the mask are not compared */
    struct bytemask other = {0};
    bytemask_set_range(&other, 4, 4);
    obs_check(&o, "gpu.l2[0]", 0x2000, stale, &other);
    obs_destroy(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(golden_memory_tracks_masked_writes),
        cmocka_unit_test(a_stale_line_is_a_simulator_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
