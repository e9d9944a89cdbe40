/*
 * bits.h - bit helpers and the per-line byte mask.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BASE_BITS_H
#define BASE_BITS_H

#include <string.h>

#include "base/types.h"

/* Reinterpret IEEE bit patterns (memcpy: the defined way in C, one move). */
static inline float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline double f64_from_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static inline uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static inline bool is_pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

static inline unsigned log2_u64(uint64_t x)
{
    return 63u - (unsigned)__builtin_clzll(x);
}

/* Which bytes of a line (up to LINE_MAX_BYTES) an access touches. */
struct bytemask {
    uint64_t w[LINE_MAX_BYTES / 64];
};

/* Set bytes [off, off + len) (a word at a time: whole lines are common). */
static inline void bytemask_set_range(struct bytemask *m, unsigned off, unsigned len)
{
    unsigned end = off + len;
    while (off < end) {
        unsigned b = off & 63, n = MIN(64 - b, end - off);
        m->w[off >> 6] |= (n == 64 ? ~0ull : ((1ull << n) - 1)) << b;
        off += n;
    }
}

static inline bool bytemask_test(const struct bytemask *m, unsigned i)
{
    return (m->w[i >> 6] >> (i & 63)) & 1;
}

static inline bool bytemask_empty(const struct bytemask *m)
{
    for (unsigned i = 0; i < ARRAY_LEN(m->w); i++)
        if (m->w[i])
            return false;
    return true;
}

static inline unsigned bytemask_count(const struct bytemask *m)
{
    unsigned n = 0;
    for (unsigned i = 0; i < ARRAY_LEN(m->w); i++)
        n += (unsigned)__builtin_popcountll(m->w[i]);
    return n;
}

static inline void bytemask_or(struct bytemask *d, const struct bytemask *s)
{
    for (unsigned i = 0; i < ARRAY_LEN(d->w); i++)
        d->w[i] |= s->w[i];
}

/* Copy the masked bytes of src into dst (both line-sized buffers). */
static inline void bytes_merge(uint8_t *dst, const uint8_t *src, const struct bytemask *m,
                               unsigned line_bytes)
{
    for (unsigned i = 0; i < line_bytes; i += 64) {
        uint64_t w = m->w[i >> 6];
        if (line_bytes - i < 64)
            w &= (1ull << (line_bytes - i)) - 1;
        if (w == ~0ull) {
            __builtin_memcpy(dst + i, src + i, 64);
            continue;
        }
        while (w) {
            unsigned j = (unsigned)__builtin_ctzll(w) & ~3u; /* the lowest masked byte's quad */
            unsigned q = (unsigned)(w >> j) & 0xfu;
            w &= ~(0xfull << j);
            if (q == 0xfu) { /* a whole 4-byte word (a 4-byte lane's store) */
                __builtin_memcpy(dst + i + j, src + i + j, 4);
                continue;
            }
            for (; q; q &= q - 1) {
                unsigned k = j + (unsigned)__builtin_ctz(q);
                dst[i + k] = src[i + k];
            }
        }
    }
}

/* a * b, or UINT64_MAX where that overflows (limits that scale with input). */
static inline uint64_t mul_sat_u64(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

#endif
