/*
 * 991-ptx-lineinfo.c - PTX built with nvcc -lineinfo parses: its .file and
 * .loc lines and the DWARF block of `.section .debug_str { ... }` are skipped
 * (they were refused as "debug sections"), the kernel is there with its
 * parameters; a section that is not .debug_* and an unclosed one are errors
 * naming the line.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ptx/ptx.h"

/* the shape of nvcc 13.0 -lineinfo output, cut down */
static const char lineinfo_ptx[] =
    ".version 9.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry k(\n"
    "  .param .u64 k_param_0\n"
    ")\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<3>;\n"
    "  .loc 1 10 0\n"
    "  ld.param.u64 %rd1, [k_param_0];\n"
    "  .loc 1 12 5\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, 7;\n"
    "  st.global.u32 [%rd2], %r1;\n"
    "  ret;\n"
    "}\n"
    "  .file 1 \"/src/k.cu\"\n"
    "  .file 2 \"/usr/local/cuda/include/device_atomic_functions.hpp\"\n"
    "  .section .debug_str\n"
    "  {\n"
    "$L__info_string0:\n"
    ".b8 95,90,78,52,54,95,73,0\n"
    "  }\n";

static void test_lineinfo_parses(void **state)
{
    (void)state;
    char err[512] = "";
    struct ptx_module *m = ptx_module_parse(lineinfo_ptx, "k.ptx", err, sizeof err);
    if (!m)
        fail_msg("-lineinfo PTX refused: %s", err);
    const struct ptx_kernel *k = ptx_module_kernel(m, "k");
    assert_non_null(k);
    assert_null(ptx_kernel_unsupported(k));
    assert_int_equal(ptx_kernel_info(k)->n_params, 1);
    assert_int_equal(ptx_kernel_info(k)->param_size[0], 8);
    ptx_module_free(m);
}

static void expect_error(const char *text, const char *want)
{
    char err[512] = "";
    struct ptx_module *m = ptx_module_parse(text, "k.ptx", err, sizeof err);
    if (m) {
        ptx_module_free(m);
        fail_msg("parsed; expected '%s'", want);
    }
    if (!strstr(err, want))
        fail_msg("expected '%s' in '%s'", want, err);
}

static void test_other_sections_refused(void **state)
{
    (void)state;
    char text[2048];
    snprintf(text, sizeof text, "%.*s.section .mydata\n{\n.b8 1\n}\n",
             (int)(strstr(lineinfo_ptx, "  .section") - lineinfo_ptx), lineinfo_ptx);
    expect_error(text, "k.ptx:20: section '.mydata' is not supported");
    snprintf(text, sizeof text, "%.*s.section .debug_str\n{\n.b8 1\n",
             (int)(strstr(lineinfo_ptx, "  .section") - lineinfo_ptx), lineinfo_ptx);
    expect_error(text, "k.ptx:20: section '.debug_str' has no closing '}'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lineinfo_parses),
        cmocka_unit_test(test_other_sections_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
