/*
 * 664-getm-cu.c - the commit unit of an L2 partition (src/coh/getm/getm_cu.c;
 * spec 004a §4.8, Table 4.2): entries are written in arrival order, one
 * region of `bytes` a cycle of the unit's clock, a cleanup in one cycle; an
 * entry holds its regions of the buffer until written, and a message that
 * finds no room is refused; a simulator fault's dump lists the entries.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "coh/getm/getm_cu.h"
#include "sim/eng.h"

enum { PS = 1429 }; /* one cycle at 700 MHz, as clock_period_ps rounds it */

/* 32 lines of 4 regions offered at once: the i-th is written 4 (i + 1)
 * cycles later, the last after 128 cycles, and each waited for the ones
 * before it (4 x (0 + ... + 31) cycles). */
static void a_large_commit_takes_a_cycle_per_region(void **state)
{
    (void)state;
    struct getm_cu *cu = getm_cu_new(700, 32, 16384, "cu");
    struct msg m[32];
    for (unsigned i = 0; i < 32; i++)
        assert_true(getm_cu_offer(cu, &m[i], 4, 0));
    assert_int_equal(getm_cu_stats(cu)->peak_bytes, 32 * 128);
    for (unsigned i = 0; i < 32; i++) {
        tick_t done = (tick_t)4 * (i + 1) * PS;
        assert_null(getm_cu_take_done(cu, done - 1));
        assert_ptr_equal(getm_cu_take_done(cu, done), &m[i]);
    }
    assert_false(getm_cu_busy(cu));
    const struct getm_cu_stats *s = getm_cu_stats(cu);
    assert_int_equal(s->entries, 32);
    assert_int_equal(s->regions, 128);
    assert_int_equal(s->busy_cycles, 128);
    assert_int_equal(s->wait_cycles, 4 * 31 * 32 / 2);
    getm_cu_free(cu);
}

/* A cleanup takes one cycle; an arrival between edges starts at the next
 * edge; an idle unit starts at once. */
static void cleanups_and_clock_edges(void **state)
{
    (void)state;
    struct getm_cu *cu = getm_cu_new(700, 32, 16384, "cu");
    struct msg a, b;
    assert_true(getm_cu_offer(cu, &a, 0, 10)); /* starts at the edge PS */
    assert_null(getm_cu_take_done(cu, 2 * PS - 1));
    assert_ptr_equal(getm_cu_take_done(cu, 2 * PS), &a);
    assert_true(getm_cu_offer(cu, &b, 2, 10 * PS)); /* idle: at once, 2 cycles */
    assert_ptr_equal(getm_cu_take_done(cu, 12 * PS), &b);
    assert_int_equal(getm_cu_stats(cu)->busy_cycles, 3);
    assert_int_equal(getm_cu_stats(cu)->wait_cycles, 0);
    getm_cu_free(cu);
}

/* A 512-byte buffer holds four full lines; the fifth waits for the first
 * to be written. */
static void a_full_buffer_refuses(void **state)
{
    (void)state;
    struct getm_cu *cu = getm_cu_new(700, 32, 512, "cu");
    struct msg m[5];
    for (unsigned i = 0; i < 4; i++)
        assert_true(getm_cu_offer(cu, &m[i], 4, 0));
    assert_false(getm_cu_offer(cu, &m[4], 4, 0));
    assert_int_equal(getm_cu_stats(cu)->full, 1);
    assert_ptr_equal(getm_cu_take_done(cu, 4 * PS), &m[0]);
    assert_true(getm_cu_offer(cu, &m[4], 4, 4 * PS));
    for (unsigned i = 1; i < 4; i++)
        assert_ptr_equal(getm_cu_take_done(cu, 16 * PS), &m[i]);
    assert_null(getm_cu_take_done(cu, 20 * PS - 1)); /* it came behind the other three */
    assert_ptr_equal(getm_cu_take_done(cu, 20 * PS), &m[4]);
    getm_cu_free(cu);
}

/* A simulator fault's dump names each entry still in the buffer, oldest
 * first, with its bytes and when it is written. */
static void the_dump_lists_the_entries(void **state)
{
    (void)state;
    struct getm_cu *cu = getm_cu_new(700, 32, 512, "cu");
    struct msg m[2] = {{.addr = 0x1000}, {.addr = 0x2080}};
    m[0].req.tx = MEM_TX_COMMIT;
    m[0].req.sm = 3;
    m[0].req.warp = 5;
    m[1].req.tx = MEM_TX_CLEANUP;
    assert_true(getm_cu_offer(cu, &m[0], 2, 0));
    assert_true(getm_cu_offer(cu, &m[1], 0, 0));
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    getm_cu_dump(cu, out);
    fclose(out);
    assert_non_null(strstr(text, "commit unit: 2 entries, 96 of 512 bytes held"));
    const char *a = strstr(text, "commit 0x1000 from sm 3 warp 5, 64 bytes, written at 2858 ps");
    const char *b = strstr(text, "cleanup 0x2080 from sm 0 warp 0, 32 bytes, written at 4287 ps");
    assert_non_null(a);
    assert_non_null(b);
    assert_true(a < b);
    free(text);
    getm_cu_free(cu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_large_commit_takes_a_cycle_per_region),
        cmocka_unit_test(cleanups_and_clock_edges),
        cmocka_unit_test(a_full_buffer_refuses),
        cmocka_unit_test(the_dump_lists_the_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
