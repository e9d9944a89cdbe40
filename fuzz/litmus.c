/*
 * litmus.c - fuzz harness of the litmus parser (litmus_parse) and of the
 * translation of a parsed test into a PTX kernel, which must then parse: a
 * test that translates into PTX the parser rejects is a finding.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/litmus.h"
#include "check/litmus_ptx.h"
#include "fuzz.h"
#include "ptx/ptx.h"

static void parse(const char *text)
{
    char err[1024];
    struct litmus_test *t = calloc(1, sizeof *t); /* large: not on the stack */
    if (!t)
        abort();
    if (!litmus_parse(text, "fuzz.litmus", t, err, sizeof err)) {
        static const struct litmus_ptx_opts opts[2] = {{.prewarm = true},
                                                       {.all_lanes = true, .pack = true}};
        for (unsigned k = 0; k < 2; k++) {
            struct litmus_ptx p;
            if (litmus_ptx_build(t, &opts[k], &p, err, sizeof err))
                continue; /* a skip: the test needs what gpucoh does not model */
            struct ptx_module *m =
                ptx_module_parse(p.text, "fuzz.litmus (translated)", err, sizeof err);
            if (!m || !ptx_module_kernel(m, p.kernel))
                abort();
            ptx_module_free(m);
            litmus_ptx_free(&p);
        }
    }
    free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_one(data, size, parse);
    return 0;
}
