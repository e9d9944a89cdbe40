/*
 * 252-functional.c - the functional mode on kernels nvcc compiled
 * (examples/unit/functional.cu): barriers with a partial last warp, atomics
 * (values and the old values each lane gets back, in lane then warp order),
 * instruction counts (an instruction observer, gpu/inst_observer.h, sees
 * every one), the watchdog for a barrier that can never complete and for a
 * spin that never ends (exit 3), and a misaligned access (exit 2).
 * Transactions (tests/ptx/tx.cu, include/gpucoh_tx.cuh) under GETM's rules:
 * many warps over one counter (every thread's transaction commits once and
 * the values read are 0..n-1, each once: a serial order) and transfers
 * between accounts with a branch inside the transaction (the total never
 * changes and every balance is exactly what the transfers that report
 * success give). Conflicts between warps go through the validation unit.
 * A large grid whose CTAs cannot observe each other's timing runs with
 * FUNCTIONAL_INDEPENDENT_RESIDENT CTAs resident and the same values and
 * instruction counts; one with a global reduction keeps every CTA resident.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/log.h"
#include "coh/getm/getm_fn.h"
#include "gpu/functional.h"
#include "gpu/inst_observer.h"
#include "host/host.h"
#include "mem/backing.h"

static struct backing store;
static struct functional *fn;
static struct host *h, *htx; /* htx: tests/ptx/tx.ptx on the same machine */

static char *read_ptx(const char *rel)
{
    const char *root = getenv("GPUCOH_ROOT");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root ? root : GPUCOH_SOURCE_DIR, rel);
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
    functional_set_tm(fn, &getm_functional_tm);
    h = host_new(functional_launcher(fn));
    host_load_ptx(h, read_ptx("examples/unit/functional.ptx"), "functional.ptx");
    htx = host_new(functional_launcher(fn));
    host_load_ptx(htx, read_ptx("tests/ptx/tx.ptx"), "tx.ptx");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    host_delete(h);
    host_delete(htx);
    functional_delete(fn);
    backing_destroy(&store);
    return 0;
}

/* fatal() and panic() end in a longjmp back here, with stderr captured. */
static jmp_buf on_exit_jb;
static int exit_code;
static char msg[4096];
static void test_exit(int code)
{
    exit_code = code;
    longjmp(on_exit_jb, 1);
}
#define EXPECT_EXIT(code, stmt, text)                                                              \
    do {                                                                                           \
        char *buf_ = NULL;                                                                         \
        size_t len_ = 0;                                                                           \
        FILE *saved_ = stderr;                                                                     \
        stderr = open_memstream(&buf_, &len_);                                                     \
        log_set_exit(test_exit);                                                                   \
        exit_code = -1;                                                                            \
        if (!setjmp(on_exit_jb)) {                                                                 \
            stmt;                                                                                  \
        }                                                                                          \
        fclose(stderr);                                                                            \
        stderr = saved_;                                                                           \
        log_set_exit(NULL);                                                                        \
        snprintf(msg, sizeof msg, "%s", buf_ ? buf_ : "");                                         \
        free(buf_);                                                                                \
        if (exit_code != (code) || !strstr(msg, text))                                             \
            fail_msg("exit %d, message '%s'; wanted exit %d and '%s'", exit_code, msg, code,       \
                     text);                                                                        \
    } while (0)

static void a_barrier_with_a_partial_last_warp_completes(void **state)
{
    (void)state;
    enum { CTAS = 3, N = 100 }; /* 4 warps, the last one with 4 threads */
    addr_t out = host_malloc(h, CTAS * N * 4);
    struct karg a[] = {KARG_PTR(out)};
    host_launch(h, "reverse", DIM1(CTAS), DIM1(N), 0, a, 1);
    int got[CTAS * N];
    host_memcpy_from_dev(h, got, out, sizeof got);
    for (int c = 0; c < CTAS; c++)
        for (int t = 0; t < N; t++)
            assert_int_equal(got[c * N + t], 1000 * c + (N - 1 - t));
    const struct functional_stats *st = functional_stats(fn);
    assert_int_equal(st->kernels, 1);
    assert_true(st->warp_insts > 0);
    /* every instruction of this kernel runs on all 100 threads of a CTA */
    assert_int_equal(st->thread_insts * 4, st->warp_insts * N);
}

static void atomics_apply_per_lane_in_lane_then_warp_order(void **state)
{
    (void)state;
    enum { CTAS = 2, N = 128, T = CTAS * N };
    addr_t ctr = host_malloc(h, 4), old = host_malloc(h, T * 4), fsum = host_malloc(h, 4),
           mn = host_malloc(h, 4), wrap = host_malloc(h, 4), big = host_malloc(h, 8);
    host_memset(h, ctr, 0, 4);
    host_memset(h, fsum, 0, 4);
    host_memset(h, mn, 0, 4);
    host_memset(h, wrap, 0, 4);
    host_memset(h, big, 0, 8);
    struct karg a[] = {KARG_PTR(ctr), KARG_PTR(old),  KARG_PTR(fsum),
                       KARG_PTR(mn),  KARG_PTR(wrap), KARG_PTR(big)};
    host_launch(h, "atomics", DIM1(CTAS), DIM1(N), 0, a, 6);
    uint32_t c, w, o[T];
    float f;
    int32_t m;
    uint64_t b;
    host_memcpy_from_dev(h, &c, ctr, 4);
    host_memcpy_from_dev(h, &f, fsum, 4);
    host_memcpy_from_dev(h, &m, mn, 4);
    host_memcpy_from_dev(h, &w, wrap, 4);
    host_memcpy_from_dev(h, &b, big, 8);
    host_memcpy_from_dev(h, o, old, sizeof o);
    assert_int_equal(c, T);
    assert_true(f == 0.5f * T);
    assert_int_equal(m, -(T - 1));
    assert_int_equal(w, T % 10); /* atom.inc wraps to 0 after 9 */
    assert_int_equal(b, (uint64_t)T << 33);
    /* round-robin: warp 0 of CTA 0 performs its 32 lanes first, then warp 1,
     * ... then CTA 1's warps: old values are exactly the thread index */
    for (unsigned t = 0; t < T; t++)
        assert_int_equal(o[t], t);
}

static void a_barrier_that_cannot_complete_is_a_deadlock(void **state)
{
    (void)state;
    addr_t x = host_malloc(h, 256);
    struct karg a[] = {KARG_PTR(x)};
    EXPECT_EXIT(EXIT_SIM_FAULT, host_launch(h, "stuck", DIM1(1), DIM1(64), 0, a, 1),
                "deadlock in kernel stuck");
    assert_non_null(strstr(msg, "warp 0: barrier 1 (1 of 2 live warps arrived, count 64)"));
    assert_non_null(strstr(msg, "warp 1: barrier 2 (1 of 2 live warps arrived, count 64)"));
}

static void a_spin_that_never_ends_exceeds_the_budget(void **state)
{
    (void)state;
    functional_set_opts(fn, &(struct functional_opts){.max_warp_insts = 100000});
    addr_t flag = host_malloc(h, 4);
    host_memset(h, flag, 0, 4);
    struct karg a[] = {KARG_PTR(flag)};
    EXPECT_EXIT(EXIT_SIM_FAULT, host_launch(h, "spin", DIM1(2), DIM1(32), 0, a, 1),
                "kernel spin ran past its budget of 100000 warp instructions");
}

static void a_misaligned_global_access_is_a_kernel_error(void **state)
{
    (void)state;
    addr_t p = host_malloc(h, 16);
    struct karg a[] = {KARG_PTR(p)};
    EXPECT_EXIT(EXIT_USAGE, host_launch(h, "misaligned", DIM1(1), DIM1(1), 0, a, 1),
                "kernel misaligned: CTA (0,0,0) warp 0: functional.ptx:");
    assert_non_null(strstr(msg, "misaligned"));
    assert_non_null(strstr(msg, "0x10000002"));
}

/* Two modules of one kernel each: every thread writes its CTA's number, once
 * with a plain store (no CTA can observe another's timing) and once with a
 * global reduction as well (one that can). */
static const char *const ids_ptx =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry ids(.param .u64 out)\n{\n"
    "  .reg .b32 %r<5>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.s32 %r4, %r1, %r2, %r3;\n  mul.wide.s32 %rd2, %r4, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r1;\n";
static const char *const ids_ptx_end = "  ret;\n}\n";

static void independent_ctas_run_with_few_resident_and_the_same_results(void **state)
{
    (void)state;
    enum { CTAS = 1000, N = 64 };
    char text[2048];
    struct host *plain = host_new(functional_launcher(fn));
    snprintf(text, sizeof text, "%s%s", ids_ptx, ids_ptx_end);
    host_load_ptx(plain, text, "ids.ptx");
    struct host *red = host_new(functional_launcher(fn));
    snprintf(text, sizeof text, "%s%s%s", ids_ptx, "  red.global.add.u32 [%rd1], 0;\n",
             ids_ptx_end);
    host_load_ptx(red, text, "ids-red.ptx");
    struct host *hosts[] = {plain, red};
    for (unsigned k = 0; k < 2; k++) {
        addr_t out = host_malloc(hosts[k], CTAS * N * 4);
        struct karg a[] = {KARG_PTR(out)};
        struct functional_stats before = *functional_stats(fn);
        host_launch(hosts[k], "ids", DIM1(CTAS), DIM1(N), 0, a, 1);
        static uint32_t got[CTAS * N];
        host_memcpy_from_dev(hosts[k], got, out, sizeof got);
        for (unsigned t = 0; t < CTAS * N; t++)
            assert_int_equal(got[t], t / N);
        const struct functional_stats *st = functional_stats(fn);
        /* the same instructions whichever CTAs are resident together */
        assert_int_equal(st->warp_insts - before.warp_insts, CTAS * (N / 32) * (10u + k));
        /* plain stores: a bounded set of CTAs at a time; with the reduction,
         * every CTA at once (up to max_resident_ctas), as before */
        assert_int_equal(st->max_ctas_resident, k ? CTAS : FUNCTIONAL_INDEPENDENT_RESIDENT);
    }
    host_delete(plain);
    host_delete(red);
}

static void same_input_gives_the_same_counts(void **state)
{
    (void)state;
    addr_t out = host_malloc(h, 64 * 256 * 4);
    struct karg a[] = {KARG_PTR(out), KARG_I32(50)};
    host_launch(h, "burn", DIM1(64), DIM1(256), 0, a, 2);
    struct functional_stats first = *functional_stats(fn);
    host_launch(h, "burn", DIM1(64), DIM1(256), 0, a, 2);
    const struct functional_stats *st = functional_stats(fn);
    assert_int_equal(st->warp_insts, 2 * first.warp_insts);
    assert_int_equal(st->thread_insts, 2 * first.thread_insts);
    /* no divergence, but lanes whose guard predicate is false do not count */
    assert_true(st->thread_insts <= 32 * st->warp_insts);
    assert_true(st->thread_insts >= 30 * st->warp_insts);
    uint32_t got[2];
    host_memcpy_from_dev(h, got, out + 4 * (5 * 256 + 7), 8);
    for (unsigned k = 0; k < 2; k++) {
        uint32_t x = 7 + k, y = 5;
        for (int i = 0; i < 50; i++) {
            x = x * 1664525u + 1013904223u;
            y ^= x >> 7;
            y += x & 0xff;
        }
        assert_int_equal(got[k], x ^ y);
    }
}

/* What an observer other than the tracer sees: every warp instruction the
 * stats count, with its lanes, and each kernel start; then, unplugged, none. */
struct seen {
    uint64_t insts, threads, starts;
};

static void see_inst(void *ctx, const struct inst_event *e)
{
    struct seen *s = ctx;
    s->insts++;
    s->threads += e->threads;
    assert_true(e->threads <= (uint32_t)__builtin_popcount(e->active));
    assert_int_equal(e->done, 0); /* no clock */
}

static void see_start(void *ctx, const struct ptx_kernel *k)
{
    (void)k;
    ((struct seen *)ctx)->starts++;
}

static void an_observer_sees_every_instruction(void **state)
{
    (void)state;
    addr_t out = host_malloc(h, 8 * 256 * 4);
    struct karg a[] = {KARG_PTR(out), KARG_I32(5)};
    struct seen seen = {0};
    functional_set_inst_observer(
        fn, &(struct inst_observer){.done = see_inst, .kernel_start = see_start, .ctx = &seen});
    struct functional_stats before = *functional_stats(fn);
    host_launch(h, "burn", DIM1(8), DIM1(256), 0, a, 2);
    const struct functional_stats *st = functional_stats(fn);
    assert_int_equal(seen.insts, st->warp_insts - before.warp_insts);
    assert_int_equal(seen.threads, st->thread_insts - before.thread_insts);
    assert_int_equal(seen.starts, 1);
    functional_set_inst_observer(fn, NULL);
    uint64_t insts = seen.insts, counted = st->warp_insts;
    host_launch(h, "burn", DIM1(8), DIM1(256), 0, a, 2);
    assert_true(st->warp_insts > counted);
    assert_int_equal(seen.insts, insts);
    assert_int_equal(seen.starts, 1);
}

enum { COUNTER_CTAS = 30, COUNTER_N = 64, COUNTER_T = COUNTER_CTAS * COUNTER_N };

/* tx_counter over COUNTER_T threads: the counter ends at COUNTER_T and the
 * values the threads read are 0..COUNTER_T-1, once each (a serial order). */
static void run_counter_serialisable(void)
{
    enum { T = COUNTER_T };
    struct functional_stats before = *functional_stats(fn);
    addr_t counter = host_malloc(htx, 4), seen = host_malloc(htx, T * 4);
    int zero = 0;
    host_memcpy_to_dev(htx, counter, &zero, 4);
    struct karg a[] = {KARG_PTR(counter), KARG_PTR(seen)};
    host_launch(htx, "tx_counter", DIM1(COUNTER_CTAS), DIM1(COUNTER_N), 0, a, 2);
    int c, got[T];
    host_memcpy_from_dev(htx, &c, counter, 4);
    host_memcpy_from_dev(htx, got, seen, sizeof got);
    assert_int_equal(c, T);
    static bool hit[T];
    memset(hit, 0, sizeof hit);
    for (int t = 0; t < T; t++) {
        assert_true(got[t] >= 0 && got[t] < T);
        assert_false(hit[got[t]]);
        hit[got[t]] = true;
    }
    assert_int_equal(functional_stats(fn)->tx_commits - before.tx_commits, T);
}

static void counter_of_many_warps_is_serialisable(void **state)
{
    (void)state;
    struct functional_stats before = *functional_stats(fn);
    run_counter_serialisable();
    const struct functional_stats *st = functional_stats(fn);
    assert_true(st->tx_vu_aborts > before.tx_vu_aborts); /* warps conflicted at the VU */
    printf("tx_counter: %d threads, %llu attempts, %llu aborts (%llu by the VU)\n", COUNTER_T,
           (unsigned long long)(st->tx_attempts - before.tx_attempts),
           (unsigned long long)(st->tx_aborts - before.tx_aborts),
           (unsigned long long)(st->tx_vu_aborts - before.tx_vu_aborts));
}

/* The serialising fallback: with the token asked for after 2 fruitless
 * attempts, warps run their transactions alone, no warp has more fruitless
 * attempts in a row than that, and the counter stays serialisable. */
static void fruitless_warps_run_alone_and_stay_serialisable(void **state)
{
    (void)state;
    enum { LIMIT = 2 };
    functional_set_opts(fn, &(struct functional_opts){.progress_aborts = LIMIT});
    struct functional_stats before = *functional_stats(fn);
    run_counter_serialisable();
    const struct functional_stats *st = functional_stats(fn);
    assert_true(st->tx_serial_grants > before.tx_serial_grants);
    assert_true(st->tx_serial_stalls > before.tx_serial_stalls); /* others waited meanwhile */
    assert_true(st->tx_fruitless_max <= LIMIT);
    printf("tx_counter alone after %d: %llu grants, %llu stalls, %llu attempts\n", LIMIT,
           (unsigned long long)(st->tx_serial_grants - before.tx_serial_grants),
           (unsigned long long)(st->tx_serial_stalls - before.tx_serial_stalls),
           (unsigned long long)(st->tx_attempts - before.tx_attempts));
}

static void transfers_keep_every_balance_exact(void **state)
{
    (void)state;
    enum { CTAS = 16, N = 128, T = CTAS * N, ACCTS = 97, AMOUNT = 7, START = 20 };
    addr_t acct = host_malloc(htx, ACCTS * 4), moved = host_malloc(htx, T * 4);
    int init[ACCTS];
    for (int k = 0; k < ACCTS; k++)
        init[k] = START;
    host_memcpy_to_dev(htx, acct, init, sizeof init);
    struct karg a[] = {KARG_PTR(acct), KARG_I32(ACCTS), KARG_I32(AMOUNT), KARG_PTR(moved)};
    host_launch(htx, "tx_transfer", DIM1(CTAS), DIM1(N), 0, a, 4);
    int fin[ACCTS], ok[T], want[ACCTS], total = 0, n_moved = 0;
    host_memcpy_from_dev(htx, fin, acct, sizeof fin);
    host_memcpy_from_dev(htx, ok, moved, sizeof ok);
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
        cmocka_unit_test_setup_teardown(a_barrier_with_a_partial_last_warp_completes, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(atomics_apply_per_lane_in_lane_then_warp_order, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_barrier_that_cannot_complete_is_a_deadlock, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_spin_that_never_ends_exceeds_the_budget, setup, teardown),
        cmocka_unit_test_setup_teardown(a_misaligned_global_access_is_a_kernel_error, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(same_input_gives_the_same_counts, setup, teardown),
        cmocka_unit_test_setup_teardown(an_observer_sees_every_instruction, setup, teardown),
        cmocka_unit_test_setup_teardown(independent_ctas_run_with_few_resident_and_the_same_results,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(counter_of_many_warps_is_serialisable, setup, teardown),
        cmocka_unit_test_setup_teardown(fruitless_warps_run_alone_and_stay_serialisable, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(transfers_keep_every_balance_exact, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
