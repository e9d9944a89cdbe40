/*
 * 100-ptx-parse.c - the PTX parser: errors name file:line and the construct;
 * every committed nvcc output (sm_75 and sm_90) parses; kernel info follows
 * CUDA's parameter layout and counts shared and local bytes; the .const
 * variables a kernel and its callees name are known to the launch check.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "../ptx/harness.h"

static const char *HDR = ".version 9.0\n.target sm_75\n.address_size 64\n";

/* Parse `body` after the header; expect failure with `want` in the message:
 * the module's, or for what is valid PTX but not modelled, kernel k's reason
 * not to run (the module loads; only launching k is an error). */
static void expect_error(const char *body, const char *want)
{
    char text[4096], err[512] = "";
    snprintf(text, sizeof text, "%s%s", HDR, body);
    struct ptx_module *m = ptx_module_parse(text, "t.ptx", err, sizeof err);
    if (m) {
        /* what is valid PTX but not modelled loads; kernel k cannot run */
        const struct ptx_kernel *k = ptx_module_kernel(m, "k");
        const char *why = k ? ptx_kernel_unsupported(k) : NULL;
        snprintf(err, sizeof err, "%s", why ? why : "");
        ptx_module_free(m);
        if (!why)
            fail_msg("parsed, expected error containing '%s'", want);
    }
    if (!strstr(err, want))
        fail_msg("error '%s' does not contain '%s'", err, want);
}

static void unknown_instruction_is_named_with_line(void **state)
{
    (void)state;
    expect_error(".visible .entry k()\n{\n\tfrobnicate.u32 %r1;\n\tret;\n}\n",
                 "t.ptx:6: unknown instruction 'frobnicate.u32' (not a PTX instruction)");
}

static void undeclared_register_is_named(void **state)
{
    (void)state;
    expect_error(".visible .entry k()\n{\n.reg .b32 %r<3>;\n\tadd.s32 %r1, %r2, %r7;\n\tret;\n}\n",
                 "t.ptx:7: undeclared register '%r7'");
}

static void bad_operand_is_reported(void **state)
{
    (void)state;
    expect_error(".visible .entry k()\n{\n.reg .b32 %r<3>;\n\tadd.s32 %r1, %r2, ];\n\tret;\n}\n",
                 "t.ptx:7: bad operand ']'");
    expect_error(".visible .entry k()\n{\n.reg .b32 %r<3>;\n\tadd.s32 %r1, %r2;\n\tret;\n}\n",
                 "t.ptx:7: 'add.s32' takes 3 operands, found 2");
    expect_error(".visible .entry k()\n{\n.reg .b32 %r<3>;\n\tld.global.u32 %r1, %r2;\n\tret;\n}\n",
                 "t.ptx:7: 'ld.global.u32' needs an [address] operand");
}

static void other_errors(void **state)
{
    (void)state;
    expect_error(".visible .entry k()\n{\n\tbra $L_nowhere;\n}\n", "t.ptx:6: undefined label");
    expect_error(
        ".visible .entry k()\n{\n.reg .b32 %r<3>;\n\tadd.cc.u32 %r1, %r1, %r2;\n\tret;\n}\n",
        "t.ptx:7: carry arithmetic");
    expect_error(
        ".visible .entry k()\n{\n.reg .b32 %r<3>;\n\tadd.s32.zz %r1, %r1, %r2;\n\tret;\n}\n",
        "unsupported modifier '.zz'");
    expect_error(".visible .entry k()\n{\n.reg .b32 %r<3>;\n\tadd.s32 %r1, %r1, %r2;\n}\n",
                 "can run off its end");
    expect_error(".foo 3;\n", "t.ptx:4: unsupported module directive '.foo'");
    expect_error(
        ".visible .entry k()\n{\n.reg .b32 %r<3>;\n\ttex.1d.v4.s32.s32 %r1, [%r2];\n\tret;\n}\n",
        "t.ptx:7: unsupported instruction 'tex.1d.v4.s32.s32'");
    expect_error(".visible .entry k()\n{\n.reg .b32 %r<3>;\n\tmov.u32 %r1, %bogus;\n\tret;\n}\n",
                 "t.ptx:7: unsupported special register or undeclared register '%bogus'");
    /* a second body frees the first's parameters before the error: once freed twice (fuzzing) */
    expect_error(".func f(.param .b32 a)\n{\n\tret;\n}\n.func f(.param .b32 a)\n{\n\tret;\n}\n",
                 "t.ptx:8: function 'f' defined twice");
    char err[256];
    assert_null(ptx_module_parse("ret;", "x.ptx", err, sizeof err));
    assert_non_null(strstr(err, "x.ptx:1: expected .version first"));
}

static void every_committed_ptx_parses(void **state)
{
    (void)state;
    static const char *const files[] = {
        "tests/ptx/vecadd.ptx",     "tests/ptx/reduce.ptx",          "tests/ptx/diverge.ptx",
        "tests/ptx/call.ptx",       "tests/ptx/atomics.ptx",         "tests/ptx/fmath.ptx",
        "tests/ptx/atomic_ref.ptx", "tests/ptx/vecadd.sm90.ptx",     "tests/ptx/reduce.sm90.ptx",
        "tests/ptx/call.sm90.ptx",  "tests/ptx/atomic_ref.sm90.ptx",
    };
    for (size_t f = 0; f < ARRAY_LEN(files); f++) {
        char err[512];
        struct ptx_module *m = hx_load(files[f], err, sizeof err);
        if (!m)
            fail_msg("%s", err);
        assert_non_null(ptx_module_kernel_names(m)[0]);
        ptx_module_free(m);
    }
}

static void kernel_info_layout(void **state)
{
    (void)state;
    char err[512];
    struct ptx_module *m = hx_load("tests/ptx/vecadd.ptx", err, sizeof err);
    assert_non_null(m);
    const char *const *names = ptx_module_kernel_names(m);
    assert_string_equal(names[0], "vecadd");
    assert_string_equal(names[1], "saxpy_i");
    assert_null(names[2]);
    const struct ptx_kernel_info *ki = ptx_kernel_info(ptx_module_kernel(m, "saxpy_i"));
    assert_int_equal(ki->n_params, 4);
    assert_int_equal(ki->param_offset[0], 0);
    assert_int_equal(ki->param_offset[1], 8);
    assert_int_equal(ki->param_offset[2], 16);
    assert_int_equal(ki->param_size[2], 4);
    assert_int_equal(ki->param_offset[3], 20);
    assert_int_equal(ki->param_bytes, 24);
    assert_int_equal(ki->static_shmem_bytes, 0);
    assert_null(ptx_module_kernel(m, "nope"));
    ptx_module_free(m);

    m = hx_load("tests/ptx/reduce.ptx", err, sizeof err);
    assert_non_null(m);
    assert_int_equal(ptx_kernel_info(ptx_module_kernel(m, "reduce_sum"))->static_shmem_bytes, 1024);
    assert_int_equal(ptx_kernel_info(ptx_module_kernel(m, "reduce_dyn"))->static_shmem_bytes, 0);
    ptx_module_free(m);

    m = hx_load("tests/ptx/call.ptx", err, sizeof err);
    assert_non_null(m);
    ki = ptx_kernel_info(ptx_module_kernel(m, "caller"));
    assert_true(ki->local_bytes >= 32 + 8); /* poly's 32-byte depot plus parameters */
    assert_true(ki->regs_per_thread > 13);
    ptx_module_free(m);
}

/* Run kernel k(.param .u64 out) as one thread; the word it stored at out. */
static uint32_t run_one_thread(const struct ptx_kernel *k)
{
    char err[512];
    struct hx_gmem g = {calloc(1, 4096), 4096, 0};
    addr_t out = hx_alloc(&g, 4);
    struct hx_params p = {0};
    hx_param(&p, k, out);
    struct hx_stats st = {0};
    if (hx_run(k, (struct ptx_dim3){1, 1, 1}, (struct ptx_dim3){1, 1, 1}, p.buf, 0, &g, &st, err,
               sizeof err))
        fail_msg("%s", err);
    uint32_t v = *(uint32_t *)hx_ptr(&g, out);
    free(g.bytes);
    return v;
}

static void initialised_const_and_nested_scopes(void **state)
{
    (void)state;
    char text[2048], err[512];
    snprintf(text, sizeof text,
             "%s.const .align 4 .u32 tab[4] = {10, 20, 30, 40};\n"
             ".visible .entry k(.param .u64 out)\n{\n"
             ".reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\n"
             "ld.param.u64 %%rd1, [out];\n"
             "{ .reg .b32 %%t; ld.const.u32 %%t, [tab+8]; mov.u32 %%r1, %%t; }\n"
             "mov.u64 %%rd2, tab;\n ld.const.u32 %%r2, [%%rd2+4];\n"
             "add.s32 %%r3, %%r1, %%r2;\n"
             "st.global.u32 [%%rd1], %%r3;\nret;\n}\n",
             HDR);
    struct ptx_module *m = ptx_module_parse(text, "c.ptx", err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    assert_int_equal(run_one_thread(ptx_module_kernel(m, "k")), 50);
    ptx_module_free(m);
}

/* The .const variables a kernel names, through a device function it calls
 * too, are known to the launch check: one without an initialiser is unset
 * until the host writes it; an initialised one, or one nobody names, never
 * holds a launch back; the kernel then reads what the host wrote. */
static void const_reads_through_callees(void **state)
{
    (void)state;
    char text[2048], err[512];
    snprintf(text, sizeof text,
             "%s.const .align 4 .b8 coef[8];\n"
             ".const .align 4 .u32 tab[2] = {1, 2};\n"
             ".const .align 4 .b8 unused[4];\n"
             ".func (.param .b32 ret0) get(.param .b32 arg0)\n{\n"
             ".reg .b32 %%r<3>;\n.reg .b64 %%rd<3>;\nld.param.u32 %%r1, [arg0];\n"
             "mov.u64 %%rd1, coef;\nmul.wide.u32 %%rd2, %%r1, 4;\n"
             "add.s64 %%rd1, %%rd1, %%rd2;\nld.const.u32 %%r2, [%%rd1];\n"
             "st.param.b32 [ret0], %%r2;\nret;\n}\n"
             ".visible .entry k(.param .u64 out)\n{\n"
             ".reg .b32 %%r<4>;\n.reg .b64 %%rd<2>;\n"
             "ld.param.u64 %%rd1, [out];\nld.const.u32 %%r1, [tab];\n"
             "{\n.param .b32 p0;\nst.param.b32 [p0], %%r1;\n.param .b32 r0;\n"
             "call.uni (r0), get, (p0);\nld.param.b32 %%r2, [r0];\n}\n"
             "st.global.u32 [%%rd1], %%r2;\nret;\n}\n"
             ".visible .entry plain(.param .u64 out)\n{\n"
             ".reg .b32 %%r<2>;\n.reg .b64 %%rd<2>;\n"
             "ld.param.u64 %%rd1, [out];\nld.const.u32 %%r1, [tab+4];\n"
             "st.global.u32 [%%rd1], %%r1;\nret;\n}\n",
             HDR);
    struct ptx_module *m = ptx_module_parse(text, "c.ptx", err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    const struct ptx_kernel *k = ptx_module_kernel(m, "k"), *plain = ptx_module_kernel(m, "plain");
    assert_int_equal(ptx_kernel_n_consts(k), 2);
    assert_int_equal(ptx_kernel_n_consts(plain), 1);
    const struct ptx_var *coef = ptx_module_const(m, "coef");
    assert_non_null(coef);
    assert_false(coef->initialised);
    assert_int_equal(coef->bytes, 8);
    assert_int_equal(coef->line, 4);
    assert_true(ptx_module_const(m, "tab")->initialised);
    assert_ptr_equal(ptx_kernel_unset_const(k), coef);
    assert_null(ptx_kernel_unset_const(plain));
    uint32_t vals[2] = {7, 9};
    ptx_module_const_write(m, coef, 0, vals, sizeof vals);
    assert_null(ptx_kernel_unset_const(k));
    /* the kernel reads what the host wrote: coef[tab[0]] = coef[1] */
    assert_int_equal(run_one_thread(k), 9);
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unknown_instruction_is_named_with_line),
        cmocka_unit_test(undeclared_register_is_named),
        cmocka_unit_test(bad_operand_is_reported),
        cmocka_unit_test(other_errors),
        cmocka_unit_test(every_committed_ptx_parses),
        cmocka_unit_test(kernel_info_layout),
        cmocka_unit_test(initialised_const_and_nested_scopes),
        cmocka_unit_test(const_reads_through_callees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
