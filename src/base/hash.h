/*
 * hash.h - FNV-1a, the 64-bit non-cryptographic hash gpucoh uses to name
 * and fingerprint things (sweep run ids, the identity of a stored result).
 * Not for hash tables on hot paths and never for security: it is simple,
 * stable across builds and platforms, and fast enough for a file of a few MB.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BASE_HASH_H
#define BASE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV_INIT 0xcbf29ce484222325ull

/* h updated with n bytes at p. */
static inline uint64_t hash_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

#endif
