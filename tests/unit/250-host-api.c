/*
 * 250-host-api.c - the host API over a recording launcher: the device
 * allocator (alignment, first address, reuse and merging of freed blocks,
 * errors), copies and memsets through the launcher, PTX loading errors, and
 * the packing of kernel arguments into the parameter buffer at the offsets
 * the PTX declares.
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
#include "host/host.h"
#include "host/launcher.h"
#include "mem/backing.h"
#include "ptx/ptx.h"

/* A launcher that keeps memory in a backing store and records launches. */
struct rec {
    struct backing mem;
    unsigned n_writes, n_reads, n_launches;
    struct launch last;
    uint8_t params[256];
    uint32_t param_bytes;
};

static void rec_run(void *obj, const struct launch *l)
{
    struct rec *r = obj;
    r->n_launches++;
    r->last = *l;
    r->param_bytes = ptx_kernel_info(l->kernel)->param_bytes;
    memcpy(r->params, l->params, r->param_bytes);
    r->last.params = r->params;
}
static void rec_write(void *obj, addr_t dst, const void *src, size_t n)
{
    struct rec *r = obj;
    r->n_writes++;
    backing_write(&r->mem, dst, src, n);
}
static void rec_read(void *obj, void *dst, addr_t src, size_t n)
{
    struct rec *r = obj;
    r->n_reads++;
    backing_read(&r->mem, src, dst, n);
}
static uint64_t rec_cycles(const void *obj)
{
    (void)obj;
    return 42;
}
static const struct launcher_ops rec_ops = {rec_run, rec_write, rec_read, rec_cycles};

static struct rec rec;
static struct host *h;

static int setup(void **state)
{
    (void)state;
    memset(&rec, 0, sizeof rec);
    backing_init(&rec.mem);
    h = host_new((struct launcher){&rec_ops, &rec});
    return 0;
}
static int teardown(void **state)
{
    (void)state;
    host_delete(h);
    backing_destroy(&rec.mem);
    return 0;
}

/* fatal() ends in a longjmp back here, with its message captured. */
static jmp_buf on_fatal;
static int exit_code;
static char msg[1024];
static FILE *saved_stderr;
static void test_exit(int code)
{
    exit_code = code;
    longjmp(on_fatal, 1);
}
#define EXPECT_FATAL(stmt, text)                                                                   \
    do {                                                                                           \
        char *buf_ = NULL;                                                                         \
        size_t len_ = 0;                                                                           \
        saved_stderr = stderr;                                                                     \
        stderr = open_memstream(&buf_, &len_);                                                     \
        log_set_exit(test_exit);                                                                   \
        exit_code = -1;                                                                            \
        if (!setjmp(on_fatal)) {                                                                   \
            stmt;                                                                                  \
        }                                                                                          \
        fclose(stderr);                                                                            \
        stderr = saved_stderr;                                                                     \
        log_set_exit(NULL);                                                                        \
        snprintf(msg, sizeof msg, "%s", buf_ ? buf_ : "");                                         \
        free(buf_);                                                                                \
        assert_int_equal(exit_code, EXIT_USAGE);                                                   \
        if (!strstr(msg, text))                                                                    \
            fail_msg("message '%s' lacks '%s'", msg, text);                                        \
    } while (0)

static void allocations_are_aligned_nonzero_and_start_at_heap_base(void **state)
{
    (void)state;
    addr_t a = host_malloc(h, 1);
    addr_t b = host_malloc(h, 300);
    addr_t c = host_malloc(h, 0);
    addr_t d = host_malloc(h, 256);
    assert_int_equal(a, 0x10000000);
    assert_int_equal(b, 0x10000100); /* 1 byte takes one 256-byte granule */
    assert_int_equal(c, 0x10000300); /* 300 bytes take two */
    assert_int_equal(d, 0x10000400); /* 0 bytes still get a distinct granule */
    assert_true(d + 256 <= PTX_LOCAL_WINDOW);
}

static void freed_blocks_are_reused_first_fit_and_merged(void **state)
{
    (void)state;
    addr_t a = host_malloc(h, 256), b = host_malloc(h, 512), c = host_malloc(h, 256);
    addr_t d = host_malloc(h, 256);
    host_free(h, b);
    assert_int_equal(host_malloc(h, 256), b); /* first fit into b's hole */
    addr_t b2 = b + 256;
    assert_int_equal(host_malloc(h, 256), b2); /* the rest of the hole */
    host_free(h, b);
    host_free(h, b2);
    host_free(h, c);                                 /* b, b2, c merge into 768 bytes */
    assert_int_equal(host_malloc(h, 1024), d + 256); /* too big for the hole: from the top */
    assert_int_equal(host_malloc(h, 768), b);
    host_free(h, d + 256); /* top block: returns to the top */
    host_free(h, d);
    assert_int_equal(host_malloc(h, 4096), d);
    host_free(h, 0); /* as cudaFree(NULL) */
    (void)a;
}

static void freeing_the_top_block_also_returns_the_hole_below_it(void **state)
{
    (void)state;
    addr_t a = host_malloc(h, 256), b = host_malloc(h, 256), c = host_malloc(h, 256);
    host_free(h, b);
    host_free(h, c);
    assert_int_equal(host_malloc(h, 8192), b); /* b and c and the top are one region */
    (void)a;
}

static void bad_frees_and_out_of_range_copies_are_fatal(void **state)
{
    (void)state;
    addr_t a = host_malloc(h, 256);
    uint8_t buf[512] = {0};
    EXPECT_FATAL(host_free(h, a + 4), "not the start of a live allocation");
    EXPECT_FATAL(host_memcpy_to_dev(h, a + 200, buf, 100), "not inside one device allocation");
    EXPECT_FATAL(host_memcpy_from_dev(h, buf, 0x1000, 4), "not inside one device allocation");
    EXPECT_FATAL(host_memset(h, a, 0, 257), "not inside one device allocation");
    host_free(h, a);
    EXPECT_FATAL(host_free(h, a), "not the start of a live allocation");
}

static void copies_and_memsets_go_through_the_launcher(void **state)
{
    (void)state;
    addr_t a = host_malloc(h, 10000);
    uint32_t in[100], out[100];
    for (int i = 0; i < 100; i++)
        in[i] = 0xdead0000u + (uint32_t)i;
    host_memcpy_to_dev(h, a + 40, in, sizeof in);
    assert_int_equal(rec.n_writes, 1);
    host_memcpy_from_dev(h, out, a + 40, sizeof out);
    assert_memory_equal(in, out, sizeof in);
    host_memset(h, a, 0xab, 10000); /* chunked: 3 writes of at most 4 KiB */
    assert_int_equal(rec.n_writes, 4);
    uint8_t b[3];
    host_memcpy_from_dev(h, b, a + 9997, 3);
    assert_int_equal(b[0], 0xab);
    assert_int_equal(b[2], 0xab);
    assert_int_equal(host_cycles(h), 42);
}

/* Parameters of mixed sizes: nvcc aligns each to its size. */
static const char params_ptx[] = ".version 7.5\n.target sm_75\n.address_size 64\n"
                                 ".visible .entry k(\n"
                                 "  .param .u32 k_param_0,\n"
                                 "  .param .u64 k_param_1,\n"
                                 "  .param .f32 k_param_2,\n"
                                 "  .param .f64 k_param_3,\n"
                                 "  .param .u32 k_param_4\n"
                                 ")\n{\n  ret;\n}\n";

static void arguments_are_packed_at_the_declared_offsets(void **state)
{
    (void)state;
    host_load_ptx(h, params_ptx, "params.ptx");
    struct karg args[] = {KARG_I32(-7), KARG_PTR(0x10000100), KARG_F32(1.5f), KARG_F64(-2.25),
                          KARG_U32(9)};
    host_launch(h, "k", DIM3(3, 2, 1), DIM1(64), 128, args, 5);
    assert_int_equal(rec.n_launches, 1);
    assert_int_equal(rec.last.grid.x, 3);
    assert_int_equal(rec.last.grid.y, 2);
    assert_int_equal(rec.last.block.x, 64);
    assert_int_equal(rec.last.dyn_shmem_bytes, 128);
    assert_int_equal(rec.param_bytes, 36);
    uint32_t u32;
    uint64_t u64;
    float f;
    double d;
    memcpy(&u32, rec.params + 0, 4);
    assert_int_equal(u32, (uint32_t)-7);
    memcpy(&u64, rec.params + 8, 8);
    assert_int_equal(u64, 0x10000100);
    memcpy(&f, rec.params + 16, 4);
    assert_true(f == 1.5f);
    memcpy(&d, rec.params + 24, 8);
    assert_true(d == -2.25);
    memcpy(&u32, rec.params + 32, 4);
    assert_int_equal(u32, 9);
}

static void wrong_kernel_count_or_size_is_fatal(void **state)
{
    (void)state;
    host_load_ptx(h, params_ptx, "params.ptx");
    struct karg args[] = {KARG_U32(1), KARG_PTR(0), KARG_F32(0), KARG_F64(0), KARG_U32(0)};
    EXPECT_FATAL(host_launch(h, "nope", DIM1(1), DIM1(1), 0, args, 5),
                 "no kernel named 'nope' in the loaded PTX (kernels: k)");
    EXPECT_FATAL(host_launch(h, "k", DIM1(1), DIM1(1), 0, args, 4),
                 "kernel k takes 5 parameters, 4 arguments given");
    args[1] = KARG_U32(0);
    EXPECT_FATAL(host_launch(h, "k", DIM1(1), DIM1(1), 0, args, 5),
                 "kernel k: argument 2 is 4 bytes (u32) but parameter 2 is 8 bytes");
    args[1] = KARG_PTR(0);
    EXPECT_FATAL(host_launch(h, "k", DIM1(1), DIM1(2000), 0, args, 5), "more than 1024 threads");
    EXPECT_FATAL(host_launch(h, "k", DIM3(1, 0, 1), DIM1(1), 0, args, 5), "zero dimension");
    EXPECT_FATAL(host_load_ptx(h, params_ptx, "again.ptx"),
                 "again.ptx: kernel 'k' is already defined by params.ptx");
    assert_int_equal(rec.n_launches, 0);
}

static void malformed_ptx_is_fatal_with_its_file_and_line(void **state)
{
    (void)state;
    EXPECT_FATAL(host_load_ptx(h,
                               ".version 7.5\n.target sm_75\n.address_size 64\n"
                               ".visible .entry k()\n{\n  frobnicate.u32 %r1;\n  ret;\n}\n",
                               "bad.ptx"),
                 "bad.ptx:6");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(allocations_are_aligned_nonzero_and_start_at_heap_base,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(freed_blocks_are_reused_first_fit_and_merged, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(freeing_the_top_block_also_returns_the_hole_below_it, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(bad_frees_and_out_of_range_copies_are_fatal, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(copies_and_memsets_go_through_the_launcher, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(arguments_are_packed_at_the_declared_offsets, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(wrong_kernel_count_or_size_is_fatal, setup, teardown),
        cmocka_unit_test_setup_teardown(malformed_ptx_is_fatal_with_its_file_and_line, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
