/*
 * fatbin.c - decoding nvcc's fat binary container to PTX text (fatbin.h).
 * Every field is read with bounds checked against what the caller says is
 * readable, so a corrupt container is an error message, never a wild read.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cudart/fatbin.h"

#include <lz4.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define FATBIN_HEADER_BYTES 16u
#define ENTRY_MIN_HEADER    0x40u

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
    return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

const uint8_t *fatbin_wrapper_data(const void *wrapper, char *err, size_t errlen)
{
    const uint8_t *w = wrapper;
    uint32_t magic = rd32(w), version = rd32(w + 4);
    if (magic != FATBIN_WRAPPER_MAGIC) {
        snprintf(err, errlen, "fat binary wrapper has magic 0x%08x, not 0x%08x", magic,
                 FATBIN_WRAPPER_MAGIC);
        return NULL;
    }
    if (version != 1 && version != 2) {
        snprintf(err, errlen, "fat binary wrapper has version %u (1 and 2 are known)", version);
        return NULL;
    }
    const uint8_t *data;
    memcpy(&data, w + 8, sizeof data);
    if (!data)
        snprintf(err, errlen, "fat binary wrapper points to no container");
    return data;
}

/* Decompress `n` bytes at `src` (flags say how) into a buffer of `out_n`
 * bytes plus a NUL. */
static char *inflate_entry(const uint8_t *src, size_t n, uint64_t flags, size_t out_n, char *err,
                           size_t errlen)
{
    char *out = malloc(out_n + 1);
    if (!out) {
        snprintf(err, errlen, "out of memory for %zu bytes of PTX", out_n);
        return NULL;
    }
    if (flags & FATBIN_FLAG_ZSTD) {
        size_t got = ZSTD_decompress(out, out_n, src, n);
        if (ZSTD_isError(got) || got != out_n) {
            snprintf(err, errlen, "PTX entry: zstd decompression failed (%s)",
                     ZSTD_isError(got) ? ZSTD_getErrorName(got) : "wrong size");
            free(out);
            return NULL;
        }
    } else if (flags & FATBIN_FLAG_LZ4) {
        if (n > INT32_MAX || out_n > INT32_MAX) {
            snprintf(err, errlen, "PTX entry: too large for LZ4");
            free(out);
            return NULL;
        }
        int got = LZ4_decompress_safe((const char *)src, out, (int)n, (int)out_n);
        if (got < 0 || (size_t)got != out_n) {
            snprintf(err, errlen, "PTX entry: LZ4 decompression failed (%s)",
                     got < 0 ? "corrupt block" : "wrong size");
            free(out);
            return NULL;
        }
    } else {
        memcpy(out, src, out_n);
    }
    out[out_n] = 0;
    return out;
}

char *fatbin_ptx(const uint8_t *data, size_t avail, unsigned *arch, char *err, size_t errlen)
{
    err[0] = 0;
    if (avail < FATBIN_HEADER_BYTES || rd32(data) != FATBIN_MAGIC) {
        snprintf(err, errlen, "fat binary: no container header (magic 0x%08x, not 0x%08x)",
                 avail >= 4 ? rd32(data) : 0, FATBIN_MAGIC);
        return NULL;
    }
    uint16_t hdr = rd16(data + 6);
    uint64_t body = rd64(data + 8);
    if (hdr < FATBIN_HEADER_BYTES || hdr > avail || body > avail - hdr) {
        snprintf(err, errlen, "fat binary: header claims %u + %llu bytes, past its end", hdr,
                 (unsigned long long)body);
        return NULL;
    }
    const uint8_t *best = NULL;
    unsigned best_arch = 0;
    uint64_t best_flags = 0, best_stored = 0, best_size = 0;
    uint64_t at = hdr, end = hdr + body;
    for (unsigned i = 1; at < end; i++) {
        const uint8_t *e = data + at;
        if (end - at < ENTRY_MIN_HEADER) {
            snprintf(err, errlen, "fat binary: entry %u at byte %llu is cut short", i,
                     (unsigned long long)at);
            return NULL;
        }
        uint16_t kind = rd16(e);
        uint32_t ehdr = rd32(e + 4);
        uint64_t payload = rd64(e + 8);
        if (ehdr < ENTRY_MIN_HEADER || ehdr > end - at || payload > end - at - ehdr) {
            snprintf(err, errlen,
                     "fat binary: entry %u at byte %llu claims %u + %llu bytes, past the "
                     "container's end",
                     i, (unsigned long long)at, ehdr, (unsigned long long)payload);
            return NULL;
        }
        if (kind == FATBIN_KIND_PTX) {
            uint32_t compressed = rd32(e + 0x10);
            unsigned a = rd32(e + 0x1c);
            uint64_t flags = rd64(e + 0x28), size = rd64(e + 0x38);
            bool packed = flags & (FATBIN_FLAG_LZ4 | FATBIN_FLAG_ZSTD);
            uint64_t stored = packed ? compressed : payload;
            if (stored > payload || (packed && (!size || size > FATBIN_MAX_PTX_BYTES))) {
                snprintf(err, errlen,
                         "fat binary: PTX entry %u has inconsistent sizes (%llu stored in %llu, "
                         "%llu uncompressed)",
                         i, (unsigned long long)stored, (unsigned long long)payload,
                         (unsigned long long)size);
                return NULL;
            }
            if (!best || a > best_arch) {
                best = e + ehdr;
                best_arch = a;
                best_flags = flags;
                best_stored = stored;
                best_size = packed ? size : payload;
            }
        } else if (kind != FATBIN_KIND_ELF) {
            snprintf(err, errlen, "fat binary: entry %u has unknown kind %u (1 PTX, 2 ELF)", i,
                     kind);
            return NULL;
        }
        at += ehdr + payload;
    }
    if (!best)
        return NULL;
    char *text = inflate_entry(best, best_stored, best_flags, best_size, err, errlen);
    if (text && arch)
        *arch = best_arch;
    return text;
}
