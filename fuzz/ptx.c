/*
 * ptx.c - fuzz harness of the PTX parser (ptx_module_parse): every kernel's
 * info and "cannot run" reason are read back as a launch would.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "fuzz.h"
#include "ptx/ptx.h"

static void parse(const char *text)
{
    char err[512];
    struct ptx_module *m = ptx_module_parse(text, "fuzz.ptx", err, sizeof err);
    if (!m)
        return;
    for (const char *const *n = ptx_module_kernel_names(m); *n; n++) {
        const struct ptx_kernel *k = ptx_module_kernel(m, *n);
        if (!k)
            abort(); /* a listed kernel must be found */
        const struct ptx_kernel_info *ki = ptx_kernel_info(k);
        for (unsigned p = 0; p < ki->n_params; p++)
            if (ki->param_offset[p] + ki->param_size[p] > ki->param_bytes)
                abort(); /* parameters lie inside the parameter buffer */
        (void)ptx_kernel_unsupported(k);
    }
    ptx_module_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_one(data, size, parse);
    return 0;
}
