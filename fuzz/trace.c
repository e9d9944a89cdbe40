/*
 * trace.c - fuzz harness of the frame-trace parser (gfx_trace_parse,
 * docs/frame-trace.md): an accepted trace must write back as text that
 * parses again.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>

#include "fuzz.h"
#include "gfx/trace.h"

static void parse(const char *text)
{
    char err[1024];
    struct gfx_trace t, again;
    if (gfx_trace_parse(&t, text, "fuzz.trace", err, sizeof err))
        return;
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        abort();
    gfx_trace_write(&t, f);
    fclose(f);
    if (gfx_trace_parse(&again, out, "written.trace", err, sizeof err))
        abort(); /* what the writer writes must parse */
    if (again.n_draws != t.n_draws || again.n_groups != t.n_groups || again.tris != t.tris)
        abort(); /* and be the same trace */
    gfx_trace_free(&again);
    gfx_trace_free(&t);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_one(data, size, parse);
    return 0;
}
