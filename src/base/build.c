/*
 * build.c - the build's fingerprint, generated into gen/build_fingerprint.h
 * at every build (CMakeLists.txt, tools/source_fingerprint.cmake).
 *
 * The text carries a marker so that the fingerprint can be found in the
 * binary file itself (tests/cli/sweep-identity.sh makes a "rebuilt" copy with
 * another fingerprint by rewriting it).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/build.h"

#include <stdlib.h>

#include "build_fingerprint.h"

static const char marked[] = "gpucoh-build-fingerprint:" GPUCOH_BUILD_FINGERPRINT;

const char *build_fingerprint(void)
{
    return marked + sizeof "gpucoh-build-fingerprint:" - 1;
}

uint64_t build_fingerprint_value(void)
{
    return strtoull(build_fingerprint(), NULL, 16);
}
