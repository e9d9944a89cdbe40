/*
 * build.h - which build of gpucoh this is: the fingerprint of the sources and
 * the toolchain it was compiled from (tools/source_fingerprint.cmake).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BASE_BUILD_H
#define BASE_BUILD_H

#include <stdint.h>

/* 16 hex digits; equal for two builds of the same sources by the same
 * compiler with the same flags, wherever they were built. */
const char *build_fingerprint(void);

/* The fingerprint as a number. */
uint64_t build_fingerprint_value(void);

#endif
