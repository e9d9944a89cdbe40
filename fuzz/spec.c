/*
 * spec.c - fuzz harness of the launch-spec parser: launchspec_parse, then
 * launchspec_resolve, which loads the PTX files it names (relative to
 * examples/, so the repository's PTX is reachable) and checks every launch
 * against its kernel. Nothing runs.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>

#include "fuzz.h"
#include "host/launchspec.h"

static void parse(const char *text)
{
    char err[1024], dir[4096];
    snprintf(dir, sizeof dir, "%s/examples", fuzz_root());
    struct launchspec *s = launchspec_parse(text, "fuzz.spec", dir, err, sizeof err);
    if (!s)
        return;
    launchspec_resolve(s, err, sizeof err);
    launchspec_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_one(data, size, parse);
    return 0;
}
