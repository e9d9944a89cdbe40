/*
 * 253-functional-tx.c - transactions of CUDA kernels (tests/ptx/tx.cu,
 * include/gpucoh_tx.cuh) run in the functional mode under GETM's rules: many
 * warps over one counter (every thread's transaction commits once and the
 * values read are 0..n-1, each once: a serial order) and transfers between
 * accounts with a branch inside the transaction (the total never changes and
 * every account's balance is exactly what the transfers that report success
 * give). Conflicts between warps go through the validation unit.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/functional.h"
#include "host/host.h"
#include "mem/backing.h"

static struct backing store;
static struct functional *fn;
static struct host *h;

static char *read_ptx(void)
{
    const char *root = getenv("GPUCOH_ROOT");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/ptx/tx.ptx", root ? root : GPUCOH_SOURCE_DIR);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    return text;
}

static int setup(void **state)
{
    (void)state;
    backing_init(&store);
    fn = functional_new(&store, NULL);
    h = host_new(functional_launcher(fn));
    host_load_ptx(h, read_ptx(), "tx.ptx");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    host_delete(h);
    functional_delete(fn);
    backing_destroy(&store);
    return 0;
}

static void counter_of_many_warps_is_serialisable(void **state)
{
    (void)state;
    enum { CTAS = 30, N = 64, T = CTAS * N };
    struct functional_stats before = *functional_stats(fn);
    addr_t counter = host_malloc(h, 4), seen = host_malloc(h, T * 4);
    int zero = 0;
    host_memcpy_to_dev(h, counter, &zero, 4);
    struct karg a[] = {KARG_PTR(counter), KARG_PTR(seen)};
    host_launch(h, "tx_counter", DIM1(CTAS), DIM1(N), 0, a, 2);
    int c, got[T];
    host_memcpy_from_dev(h, &c, counter, 4);
    host_memcpy_from_dev(h, got, seen, sizeof got);
    assert_int_equal(c, T);
    static bool hit[T];
    memset(hit, 0, sizeof hit);
    for (int t = 0; t < T; t++) {
        assert_true(got[t] >= 0 && got[t] < T);
        assert_false(hit[got[t]]);
        hit[got[t]] = true;
    }
    const struct functional_stats *st = functional_stats(fn);
    assert_int_equal(st->tx_commits - before.tx_commits, T);
    assert_true(st->tx_vu_aborts > before.tx_vu_aborts); /* warps conflicted at the VU */
    printf("tx_counter: %d threads, %llu attempts, %llu aborts (%llu by the VU)\n", T,
           (unsigned long long)(st->tx_attempts - before.tx_attempts),
           (unsigned long long)(st->tx_aborts - before.tx_aborts),
           (unsigned long long)(st->tx_vu_aborts - before.tx_vu_aborts));
}

static void transfers_keep_every_balance_exact(void **state)
{
    (void)state;
    enum { CTAS = 16, N = 128, T = CTAS * N, ACCTS = 97, AMOUNT = 7, START = 20 };
    addr_t acct = host_malloc(h, ACCTS * 4), moved = host_malloc(h, T * 4);
    int init[ACCTS];
    for (int k = 0; k < ACCTS; k++)
        init[k] = START;
    host_memcpy_to_dev(h, acct, init, sizeof init);
    struct karg a[] = {KARG_PTR(acct), KARG_I32(ACCTS), KARG_I32(AMOUNT), KARG_PTR(moved)};
    host_launch(h, "tx_transfer", DIM1(CTAS), DIM1(N), 0, a, 4);
    int fin[ACCTS], ok[T], want[ACCTS], total = 0, n_moved = 0;
    host_memcpy_from_dev(h, fin, acct, sizeof fin);
    host_memcpy_from_dev(h, ok, moved, sizeof ok);
    memcpy(want, init, sizeof want);
    for (int t = 0; t < T; t++) {
        if (!ok[t])
            continue;
        n_moved++;
        want[(t * 7 + 3) % ACCTS] -= AMOUNT;
        want[(t * 5 + 1) % ACCTS] += AMOUNT;
    }
    for (int k = 0; k < ACCTS; k++) {
        assert_int_equal(fin[k], want[k]);
        assert_true(fin[k] >= 0);
        total += fin[k];
    }
    assert_int_equal(total, ACCTS * START);
    assert_true(n_moved > T / 4 && n_moved < T); /* some ran out of money */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counter_of_many_warps_is_serialisable),
        cmocka_unit_test(transfers_keep_every_balance_exact),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
