/*
 * sweep.c - fuzz harness of the sweep-spec parser (sweep_spec_parse, which
 * also loads every machine file and setting it names, relative to the
 * repository's repro/tc/, so configs/ is reachable).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>

#include "fuzz.h"
#include "sweep/sweep.h"

static void parse(const char *text)
{
    char err[1024], path[4096];
    snprintf(path, sizeof path, "%s/repro/tc/fuzz.sweep", fuzz_root());
    struct sweep_spec s;
    struct sweep_parse_opts o = {.skip_missing = true};
    if (!sweep_spec_parse(&s, path, text, &o, err, sizeof err))
        sweep_spec_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_one(data, size, parse);
    return 0;
}
