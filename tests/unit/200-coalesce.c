/*
 * 200-coalesce.c - the coalescing unit: one request per unique line, lines in
 * order of their lowest lane, each with the lanes it serves; misaligned lanes
 * are reported.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gpu/coalesce.h"

static void consecutive_words_make_one_line(void **state)
{
    (void)state;
    addr_t a[32];
    struct coal_line out[32];
    unsigned bad = 99;
    for (unsigned l = 0; l < 32; l++)
        a[l] = 0x10000 + 4 * l;
    assert_int_equal(coalesce(a, 0xffffffffu, 4, 128, out, &bad), 1);
    assert_int_equal(out[0].line, 0x10000);
    assert_int_equal(out[0].lanes, 0xffffffffu);
    /* the same warp shifted by 64 bytes straddles two lines */
    for (unsigned l = 0; l < 32; l++)
        a[l] = 0x10040 + 4 * l;
    assert_int_equal(coalesce(a, 0xffffffffu, 4, 128, out, &bad), 2);
    assert_int_equal(out[0].line, 0x10000);
    assert_int_equal(out[0].lanes, 0x0000ffffu);
    assert_int_equal(out[1].line, 0x10080);
    assert_int_equal(out[1].lanes, 0xffff0000u);
}

static void line_stride_makes_one_line_per_lane(void **state)
{
    (void)state;
    addr_t a[32];
    struct coal_line out[32];
    unsigned bad;
    for (unsigned l = 0; l < 32; l++)
        a[l] = 0x20000 + 128 * (31 - l); /* descending: order follows lanes */
    assert_int_equal(coalesce(a, 0xffffffffu, 4, 128, out, &bad), 32);
    for (unsigned i = 0; i < 32; i++) {
        assert_int_equal(out[i].line, 0x20000 + 128 * (31 - i));
        assert_int_equal(out[i].lanes, 1u << i);
    }
}

static void inactive_lanes_and_repeats(void **state)
{
    (void)state;
    addr_t a[32] = {0};
    struct coal_line out[32];
    unsigned bad;
    a[3] = 0x3000;
    a[5] = 0x3100;      /* another line */
    a[9] = 0x3004;      /* back to the first */
    a[20] = 0xdead0001; /* inactive: never looked at */
    assert_int_equal(coalesce(a, (1u << 3) | (1u << 5) | (1u << 9), 4, 128, out, &bad), 2);
    assert_int_equal(out[0].line, 0x3000);
    assert_int_equal(out[0].lanes, (1u << 3) | (1u << 9));
    assert_int_equal(out[1].line, 0x3100);
    assert_int_equal(out[1].lanes, 1u << 5);
    assert_int_equal(coalesce(a, 0, 4, 128, out, &bad), 0);
    /* 32-byte lines split a warp of 16-byte vectors into 16 lines */
    for (unsigned l = 0; l < 32; l++)
        a[l] = 0x8000 + 16 * l;
    assert_int_equal(coalesce(a, 0xffffffffu, 16, 32, out, &bad), 16);
    assert_int_equal(out[15].lanes, 3u << 30);
}

static void misaligned_lane_is_reported(void **state)
{
    (void)state;
    addr_t a[32];
    struct coal_line out[32];
    unsigned bad = 99;
    for (unsigned l = 0; l < 32; l++)
        a[l] = 0x4000 + 8 * l;
    a[7] = 0x4004; /* 8-byte access at a 4-byte boundary */
    assert_int_equal(coalesce(a, 0xffffffffu, 8, 128, out, &bad), -1);
    assert_int_equal(bad, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(consecutive_words_make_one_line),
        cmocka_unit_test(line_stride_makes_one_line_per_lane),
        cmocka_unit_test(inactive_lanes_and_repeats),
        cmocka_unit_test(misaligned_lane_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
