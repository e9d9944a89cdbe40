/*
 * 251-launchspec.c - launch-spec files: a good spec parses into the right
 * buffers, launches, checks and steps; every malformed form is reported as
 * "file:line: what is wrong"; buffers are filled, checked (values, tolerance,
 * reporting of the differing element), printed and dumped exactly, on a host
 * whose launcher keeps memory in a backing store.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/log.h"
#include "host/host.h"
#include "host/launcher.h"
#include "host/launchspec.h"
#include "mem/backing.h"

static struct backing mem;
static void mem_run(void *obj, const struct launch *l)
{
    (void)obj, (void)l;
    fail_msg("no launch expected");
}
static void mem_write(void *obj, addr_t dst, const void *src, size_t n)
{
    backing_write(obj, dst, src, n);
}
static void mem_read(void *obj, void *dst, addr_t src, size_t n)
{
    backing_read(obj, src, dst, n);
}
static uint64_t mem_cycles(const void *obj)
{
    (void)obj;
    return 0;
}
static const struct launcher_ops mem_ops = {mem_run, mem_write, mem_read, mem_cycles};

static const char good[] =
    "# vector add, twice\n"
    "ptx vecadd.ptx\n"
    "let N = 1000\n"
    "buffer a f32 N random(1, -1, 1)   # inputs\n"
    "buffer b f32 N iota(0, 0.5)\n"
    "buffer c f32 N\n"
    "buffer idx u32 16 = i * i\n"
    "buffer d s32 4 values(1, -2, 3, -4)\n"
    "\n"
    "launch vecadd grid (N + 255) / 256 block 256 args a b c n=N\n"
    "launch vecadd grid 2, 3 block 16,16 shared 128 args a+4 b c u32:7 -1 f64:0.5\n"
    "check c = a[i] + b[i] tol 1e-6\n"
    "check idx == file(ref.bin)\n"
    "print c 0 4\n";

static void a_good_spec_parses_into_its_parts(void **state)
{
    (void)state;
    char err[256] = "";
    struct launchspec *s = launchspec_parse(good, "t.spec", "dir", err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    assert_int_equal(s->n_modules, 1);
    assert_string_equal(s->modules[0].path, "dir/vecadd.ptx");
    assert_int_equal(s->modules[0].line, 2);

    assert_int_equal(s->n_buffers, 5);
    assert_string_equal(s->buffers[0].name, "a");
    assert_int_equal(s->buffers[0].type, LSPEC_F32);
    assert_int_equal(s->buffers[0].count, 1000);
    assert_int_equal(s->buffers[0].init.kind, LSPEC_FILL_RANDOM);
    assert_int_equal(s->buffers[0].init.seed, 1);
    assert_true(s->buffers[0].init.has_range);
    assert_int_equal(s->buffers[0].init.lo.i, -1);
    assert_int_equal(s->buffers[1].init.kind, LSPEC_FILL_EXPR);
    assert_int_equal(s->buffers[2].init.kind, LSPEC_FILL_ZEROS);
    assert_int_equal(s->buffers[3].type, LSPEC_U32);
    assert_int_equal(s->buffers[4].init.kind, LSPEC_FILL_VALUES);
    assert_int_equal(s->buffers[4].init.n_values, 4);
    assert_int_equal(s->buffers[4].init.values[3].i, -4);

    assert_int_equal(s->n_launches, 2);
    const struct lspec_launch *l = &s->launches[0];
    assert_string_equal(l->kernel, "vecadd");
    assert_int_equal(l->line, 10);
    assert_int_equal(l->grid.x, 4);
    assert_int_equal(l->grid.y, 1);
    assert_int_equal(l->block.x, 256);
    assert_int_equal(l->n_args, 4);
    assert_int_equal(l->args[0].kind, LSPEC_ARG_BUFFER);
    assert_int_equal(l->args[2].buf, 2);
    assert_int_equal(l->args[3].kind, LSPEC_ARG_SCALAR);
    assert_int_equal(l->args[3].val.i, 1000);
    assert_int_equal(l->args[3].type, -1);
    l = &s->launches[1];
    assert_int_equal(l->grid.x, 2);
    assert_int_equal(l->grid.y, 3);
    assert_int_equal(l->block.y, 16);
    assert_int_equal(l->shared_bytes, 128);
    assert_int_equal(l->n_args, 6);
    assert_int_equal(l->args[0].offset, 4);
    assert_int_equal(l->args[3].type, LSPEC_U32);
    assert_int_equal(l->args[3].val.i, 7);
    assert_int_equal(l->args[4].val.i, -1); /* "7 -1": two arguments, not 7 - 1 */
    assert_int_equal(l->args[5].type, LSPEC_F64);
    assert_true(l->args[5].val.is_float && l->args[5].val.f == 0.5);

    assert_int_equal(s->n_checks, 2);
    assert_int_equal(s->checks[0].buf, 2);
    assert_true(s->checks[0].tol == 1e-6);
    assert_int_equal(s->checks[1].expect.kind, LSPEC_FILL_FILE);
    assert_string_equal(s->checks[1].expect.path, "dir/ref.bin");
    assert_int_equal(s->n_prints, 1);
    assert_int_equal(s->prints[0].count, 4);

    static const enum lspec_step_kind order[] = {LSPEC_LAUNCH, LSPEC_LAUNCH, LSPEC_CHECK,
                                                 LSPEC_CHECK, LSPEC_PRINT};
    assert_int_equal(s->n_steps, 5);
    for (unsigned i = 0; i < 5; i++)
        assert_int_equal(s->steps[i].kind, order[i]);
    assert_int_equal(s->steps[3].index, 1);
    launchspec_free(s);
}

static const struct {
    const char *text;
    const char *msg;
} bad[] = {
    {"frob x\n", "t.spec:1: unknown directive 'frob'"},
    {"# c\n\n12\n", "t.spec:3: expected a directive"},
    {"buffer a f33 4\n", "t.spec:1: expected an element type"},
    {"buffer a f32 0\n", "t.spec:1: element count 0 is out of range"},
    {"buffer a f32 4.5\n", "element count must be an integer"},
    {"buffer a f32 4 foo\n", "t.spec:1: expected the initial contents"},
    {"buffer a f32 4\nbuffer a f32 4\n", "t.spec:2: 'a' is already defined"},
    {"buffer a f32 4 values(1, 2)\n", "values() gives 2 values for 4 elements"},
    {"buffer a f32 4 = b[i]\n", "unknown name 'b'"},
    {"buffer a f32 4 = a[i]\n", "buffer 'a' is not initialized yet here"},
    {"buffer a f32 4\nbuffer b f32 4 = a\n", "t.spec:2: buffer 'a' needs an index: a[i]"},
    {"buffer a f32 4 random(1\n", "expected ')' after random(SEED[, LO, HI]"},
    {"buffer a f32 4 random(1, 5, 2)\n", "random range is empty"},
    {"buffer a f32 4 zeros extra\n", "unexpected 'extra' after the initial contents"},
    {"buffer a u32 4 = 08x\n", "malformed number '08x'"},
    {"buffer a u32 4 = 99999999999999999999\n", "too large for 64 bits"},
    {"buffer f32 u32 4\n", "'f32' is a reserved word"},
    {"let i = 3\n", "'i' is a reserved word"},
    {"let x = i\n", "'i' (the element index) has no meaning here"},
    {"let x = 1 +\n", "expected a number, a name or '(' but found end of line"},
    {"let x = (1\n", "expected ')' after a parenthesized expression"},
    {"let x = foo(1)\n", "unknown function 'foo'"},
    {"ptx k.ptx\nlaunch k grid 1\n", "t.spec:2: launch needs both 'grid' and 'block'"},
    {"ptx k.ptx\nlaunch k grid 1 block 2048\n", "t.spec:2: block 2048 is out of range"},
    {"ptx k.ptx\nlaunch k grid 1 block 32,32,2\n", "more than 1024 threads"},
    {"ptx k.ptx\nlaunch k grid 1,1,1,1 block 1\n", "grid has more than 3 dimensions"},
    {"ptx k.ptx\nlaunch k grid 1 block 1 grid 2\n", "grid given twice"},
    {"ptx k.ptx\nlaunch k block 1 grid 1 warp 3\n", "expected grid, block, shared, on, args or &"},
    {"ptx k.ptx\nlaunch k grid 1 block 32 args zz\n", "t.spec:2: unknown name 'zz'"},
    {"ptx k.ptx\nbuffer a f32 4\nlaunch k grid 1 block 1 args a*2\n",
     "t.spec:3: buffer 'a' cannot be used in a constant expression"},
    {"ptx k.ptx\nlaunch k grid 1 block 1 args u8:3\n", "scalar arguments are 4 or 8 bytes"},
    {"ptx k.ptx\nlaunch k grid 1 block 1 args 3,4\n", "unexpected ',4' in a kernel argument"},
    {"launch k grid 1 block 1\n", "t.spec:1: launch before any 'ptx FILE' line"},
    {"buffer a f32 4\ncheck b = 0\n", "t.spec:2: unknown buffer 'b'"},
    {"buffer a f32 4\ncheck a = 1 tol -1\n", "tolerance must be >= 0"},
    {"buffer a f32 4\ncheck a = sqrt(1, 2)\n", "sqrt() takes 1 argument"},
    {"buffer a f32 4\ncheck a values(1)\n", "values() gives 1 values but a has 4 elements"},
    {"buffer a f32 4\ncheck a = 1 within 2\n", "unexpected 'within' after the check"},
    {"buffer a f32 4\nprint a 4\n", "first element 4 is out of range"},
    {"buffer a f32 4\nprint a 1 4\n", "element count 4 is out of range [1, 3]"},
    {"ptx \"unterminated\n", "unterminated quoted path"},
    {"ptx\n", "expected a file name"},
};

static void each_malformed_form_is_reported_at_its_line(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[256] = "";
        struct launchspec *s = launchspec_parse(bad[i].text, "t.spec", ".", err, sizeof err);
        if (s)
            fail_msg("spec %zu parsed but should fail: %s", i, bad[i].text);
        if (strncmp(err, "t.spec:", 7) || !strstr(err, bad[i].msg))
            fail_msg("spec %zu: message '%s' lacks '%s'", i, err, bad[i].msg);
    }
}

/* Run a spec with no launches on a memory-only host; output into *out. */
static int run_spec(const char *text, char **out, struct launchspec **keep, struct host **hk)
{
    char err[256];
    size_t len;
    struct launchspec *s = launchspec_parse(text, "r.spec", ".", err, sizeof err);
    if (!s)
        fail_msg("parse: %s", err);
    backing_init(&mem);
    struct host *h = host_new((struct launcher){&mem_ops, &mem});
    FILE *f = open_memstream(out, &len);
    int rc = launchspec_run(s, h, f);
    fclose(f);
    if (keep) {
        *keep = s;
        *hk = h;
        return rc;
    }
    host_delete(h);
    launchspec_free(s);
    backing_destroy(&mem);
    return rc;
}

static void fills_expressions_and_checks_compute_exact_values(void **state)
{
    (void)state;
    char *out;
    int rc = run_spec("let K = 3\n"
                      "buffer a s32 8 = i * K - 4\n"
                      "buffer b f32 8 = float(a[i]) / 2\n"
                      "buffer r u32 1000 random(7, 10, 20)\n"
                      "buffer r2 u32 1000 random(7, 10, 20)\n"
                      "buffer x f32 5 = 0.1 * i\n"
                      "buffer v f64 3 values(1.5, -2, 1e300)\n"
                      "buffer w u8 4 = 250 + i * 2\n"
                      "buffer m u64 2 values(0xffffffffffffffff, 1 << 40)\n"
                      "check a = 3*i - 4\n"
                      "check b = (3*i - 4) / 2.0\n"
                      "check r = min(max(r[i], 10), 20)\n"
                      "check r2 = r.init[i]\n"
                      "check x = 0.1 * i\n"
                      "check w = values(250, 252, 254, 0)\n"
                      "check a = fma(i, 3, -4) tol 0\n"
                      "print a 0 4\n"
                      "print v\n"
                      "print b 6\n"
                      "print m\n",
                      &out, NULL, NULL);
    assert_int_equal(rc, 0);
    const char *want = "r.spec:10: check a ok (8 elements)\n"
                       "r.spec:11: check b ok (8 elements)\n"
                       "r.spec:12: check r ok (1000 elements)\n"
                       "r.spec:13: check r2 ok (1000 elements)\n"
                       "r.spec:14: check x ok (5 elements)\n"
                       "r.spec:15: check w ok (4 elements)\n"
                       "r.spec:16: check a ok (8 elements)\n"
                       "a[0..3]: -4 -1 2 5\n"
                       "v[0..2]: 1.5 -2 1.0000000000000001e+300\n"
                       "b[6..7]: 7 8.5\n"
                       "m[0..1]: 18446744073709551615 1099511627776\n";
    assert_string_equal(out, want);
    free(out);
}

static void random_contents_depend_only_on_the_seed(void **state)
{
    (void)state;
    char *o1, *o2, *o3;
    run_spec("buffer r s32 6 random(42)\nprint r\n", &o1, NULL, NULL);
    run_spec("buffer z f32 100\nbuffer r s32 6 random(42)\nprint r\n", &o2, NULL, NULL);
    run_spec("buffer r s32 6 random(43)\nprint r\n", &o3, NULL, NULL);
    assert_string_equal(o1, o2);
    assert_string_not_equal(o1, o3);
    free(o1);
    free(o2);
    free(o3);
}

static void a_failed_check_names_the_element_expected_and_got(void **state)
{
    (void)state;
    char *out;
    int rc = run_spec("buffer y f32 4 values(1, 2, 3, 4)\n"
                      "check y = 1.00001 * (i + 1) tol 1e-4\n"
                      "check y = 1.00001 * (i + 1)\n"
                      "buffer k u32 20 = i\n"
                      "check k = i % 10\n",
                      &out, NULL, NULL);
    assert_int_equal(rc, EXIT_CHECK_FAILED);
    const char *want = "r.spec:2: check y ok (4 elements)\n"
                       "r.spec:3: check y FAILED\n"
                       "  y[0]: expected 1.00001001, got 1\n"
                       "  y[1]: expected 2.00002003, got 2\n"
                       "  y[2]: expected 3.00003004, got 3\n"
                       "  y[3]: expected 4.00004005, got 4\n"
                       "  4 of 4 elements differ\n"
                       "r.spec:5: check k FAILED\n"
                       "  k[10]: expected 0, got 10\n"
                       "  k[11]: expected 1, got 11\n"
                       "  k[12]: expected 2, got 12\n"
                       "  k[13]: expected 3, got 13\n"
                       "  k[14]: expected 4, got 14\n"
                       "  k[15]: expected 5, got 15\n"
                       "  k[16]: expected 6, got 16\n"
                       "  k[17]: expected 7, got 17\n"
                       "  10 of 20 elements differ\n";
    assert_string_equal(out, want);
    free(out);
}

static void dump_writes_the_raw_elements(void **state)
{
    (void)state;
    char *out, err[256], path[] = "/tmp/gpucoh-251-XXXXXX";
    struct launchspec *s;
    struct host *h;
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    run_spec("buffer q u16 5 = 1000 * i + 7\n", &out, &s, &h);
    free(out);
    assert_int_equal(launchspec_dump(s, h, "q", path, err, sizeof err), 0);
    assert_int_equal(launchspec_dump(s, h, "nope", path, err, sizeof err), -1);
    assert_non_null(strstr(err, "no buffer named 'nope'"));
    host_delete(h);
    launchspec_free(s);
    backing_destroy(&mem);

    uint16_t got[6];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(got, 2, 6, f), 5);
    fclose(f);
    for (int i = 0; i < 5; i++)
        assert_int_equal(got[i], 1000 * i + 7);

    /* and read back as a fill and a reference */
    char spec[512];
    snprintf(spec, sizeof spec,
             "buffer q u16 5 file(%s)\ncheck q = 1000 * i + 7\ncheck q = file(\"%s\")\n", path,
             path);
    assert_int_equal(run_spec(spec, &out, NULL, NULL), 0);
    free(out);

    char err2[256];
    snprintf(spec, sizeof spec, "buffer q u32 5 file(%s)\n", path);
    s = launchspec_parse(spec, "r.spec", ".", err2, sizeof err2);
    assert_non_null(s);
    assert_int_equal(launchspec_resolve(s, err2, sizeof err2), -1);
    assert_non_null(strstr(err2, "r.spec:1: "));
    assert_non_null(strstr(err2, "has 10 bytes but q needs 20 (5 u32 elements)"));
    launchspec_free(s);
    s = launchspec_parse("buffer q u8 1 file(/nonexistent/x.bin)\n", "r.spec", ".", err2,
                         sizeof err2);
    assert_int_equal(launchspec_resolve(s, err2, sizeof err2), -1);
    assert_non_null(strstr(err2, "r.spec:1: cannot open /nonexistent/x.bin"));
    launchspec_free(s);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_good_spec_parses_into_its_parts),
        cmocka_unit_test(each_malformed_form_is_reported_at_its_line),
        cmocka_unit_test(fills_expressions_and_checks_compute_exact_values),
        cmocka_unit_test(random_contents_depend_only_on_the_seed),
        cmocka_unit_test(a_failed_check_names_the_element_expected_and_got),
        cmocka_unit_test(dump_writes_the_raw_elements),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
