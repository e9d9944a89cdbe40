/*
 * 990-fatbin.c - the fat binary decoder of the libcudart stand-in: containers
 * built here as nvcc lays them out (an ELF entry, then PTX stored plain, as a
 * zstd frame and as an LZ4 block) give back the PTX of the highest
 * architecture; the wrapper's magic and version are checked; and every kind
 * of corruption (bad magic, sizes past the end, a damaged compressed stream,
 * a wrong uncompressed size, an unknown entry kind), and every truncation of
 * a valid container, is an error message, never a wild read (run under ASan).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <lz4.h>
#include <zstd.h>

#include "cudart/fatbin.h"

static const char ptx75[] = ".version 9.0\n.target sm_75\n.address_size 64\n"
                            "// the sm_75 module, long enough to be worth compressing: "
                            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n";
static const char ptx52[] = ".version 9.0\n.target sm_52\n.address_size 64\n";

struct buf {
    uint8_t b[8192];
    size_t n;
};

static void put(struct buf *o, size_t at, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        o->b[at + i] = (uint8_t)(v >> (8 * i));
}

enum pack { PLAIN, ZSTD, LZ4 };

/* Append an entry of `kind` for `arch` holding `text` packed as asked. */
static void entry(struct buf *o, unsigned kind, unsigned arch, const char *text, enum pack pack)
{
    size_t hdr = kind == 1 ? 0x50 : 0x40, at = o->n, len = strlen(text);
    uint8_t *payload = o->b + at + hdr;
    size_t stored = len;
    uint64_t flags = 0x11;
    if (pack == ZSTD) {
        stored = ZSTD_compress(payload, sizeof o->b - at - hdr, text, len, 3);
        assert_false(ZSTD_isError(stored));
        flags |= 0x8000;
    } else if (pack == LZ4) {
        stored = (size_t)LZ4_compress_default(text, (char *)payload, (int)len,
                                              (int)(sizeof o->b - at - hdr));
        assert_true(stored > 0);
        flags |= 0x2000;
    } else {
        memcpy(payload, text, len);
    }
    size_t padded = (stored + 7) & ~(size_t)7;
    memset(o->b + at, 0, hdr);
    memset(payload + stored, 0, padded - stored);
    put(o, at + 0, kind, 2);
    put(o, at + 2, 0x101, 2);
    put(o, at + 4, hdr, 4);
    put(o, at + 8, padded, 8);
    put(o, at + 0x10, pack == PLAIN ? 0 : stored, 4);
    put(o, at + 0x1c, arch, 4);
    put(o, at + 0x28, flags, 8);
    put(o, at + 0x38, pack == PLAIN ? 0 : len, 8);
    o->n = at + hdr + padded;
}

static void begin(struct buf *o)
{
    memset(o->b, 0, 16);
    put(o, 0, 0xBA55ED50u, 4);
    put(o, 4, 1, 2);
    put(o, 6, 16, 2);
    o->n = 16;
}

static void end(struct buf *o)
{
    put(o, 8, o->n - 16, 8);
}

/* ELF for sm_75, PTX for sm_52 (plain) and sm_75 (packed as asked). */
static void container(struct buf *o, enum pack pack)
{
    begin(o);
    entry(o, 2, 75, "\177ELF machine code", PLAIN);
    entry(o, 1, 52, ptx52, PLAIN);
    entry(o, 1, 75, ptx75, pack);
    end(o);
}

static void expect_ptx(const struct buf *o, const char *want, unsigned want_arch)
{
    char err[256] = "x";
    unsigned arch = 0;
    char *ptx = fatbin_ptx(o->b, o->n, &arch, err, sizeof err);
    if (!ptx)
        fail_msg("no PTX: %s", err);
    assert_string_equal(ptx, want);
    assert_int_equal(arch, want_arch);
    free(ptx);
}

static void expect_error(const struct buf *o, size_t avail, const char *want)
{
    char err[256] = "";
    char *ptx = fatbin_ptx(o->b, avail, NULL, err, sizeof err);
    if (ptx) {
        free(ptx);
        fail_msg("decoded a corrupt container (expected '%s')", want);
    }
    if (!strstr(err, want))
        fail_msg("expected '%s' in '%s'", want, err);
}

static void test_plain_zstd_lz4(void **state)
{
    (void)state;
    struct buf o;
    for (enum pack p = PLAIN; p <= LZ4; p++) {
        container(&o, p);
        expect_ptx(&o, ptx75, 75);
    }
}

static void test_only_machine_code(void **state)
{
    (void)state;
    struct buf o;
    begin(&o);
    entry(&o, 2, 75, "\177ELF", PLAIN);
    end(&o);
    char err[256] = "x";
    assert_null(fatbin_ptx(o.b, o.n, NULL, err, sizeof err));
    assert_string_equal(err, ""); /* no PTX is not corruption: the caller says what to do */
}

static void test_wrapper(void **state)
{
    (void)state;
    struct buf o;
    container(&o, ZSTD);
    struct {
        uint32_t magic, version;
        const void *data, *other;
    } w = {FATBIN_WRAPPER_MAGIC, 1, o.b, NULL};
    char err[256];
    assert_ptr_equal(fatbin_wrapper_data(&w, err, sizeof err), o.b);
    w.version = 3;
    assert_null(fatbin_wrapper_data(&w, err, sizeof err));
    assert_non_null(strstr(err, "version 3"));
    w.version = 2;
    w.magic = 0x12345678;
    assert_null(fatbin_wrapper_data(&w, err, sizeof err));
    assert_non_null(strstr(err, "magic 0x12345678"));
}

static void test_corrupt(void **state)
{
    (void)state;
    struct buf o;
    container(&o, ZSTD);
    size_t ptx75_at = 16 + 0x40 + 24 + 0x50 + ((strlen(ptx52) + 7) & ~(size_t)7);

    struct buf c = o;
    c.b[0] ^= 1;
    expect_error(&c, c.n, "no container header");

    c = o;
    put(&c, 8, c.n, 8); /* the container claims more than there is */
    expect_error(&c, c.n, "past its end");

    c = o;
    put(&c, 16 + 8, 1u << 20, 8); /* the ELF entry's payload runs off the end */
    expect_error(&c, c.n, "past the container's end");

    c = o;
    put(&c, 16, 7, 2);
    expect_error(&c, c.n, "unknown kind 7");

    c = o;
    c.b[ptx75_at + 0x50 + 8] ^= 0xff; /* inside the zstd frame */
    expect_error(&c, c.n, "zstd decompression failed");

    c = o;
    put(&c, ptx75_at + 0x38, strlen(ptx75) + 1, 8); /* the wrong uncompressed size */
    expect_error(&c, c.n, "zstd decompression failed");

    c = o;
    put(&c, ptx75_at + 0x38, 1ull << 40, 8);
    expect_error(&c, c.n, "inconsistent sizes");

    c = o;
    put(&c, ptx75_at + 0x10, 1u << 20, 4); /* compressed bytes past the payload */
    expect_error(&c, c.n, "inconsistent sizes");

    container(&c, LZ4);
    ptx75_at = 16 + 0x40 + 24 + 0x50 + ((strlen(ptx52) + 7) & ~(size_t)7);
    put(&c, ptx75_at + 0x38, strlen(ptx75) - 1, 8);
    expect_error(&c, c.n, "LZ4 decompression failed");
}

/* Every prefix of a valid container is refused cleanly (ASan catches a read
 * past `avail`: the bytes are copied to a buffer of exactly that size). */
static void test_truncated(void **state)
{
    (void)state;
    struct buf o;
    container(&o, ZSTD);
    for (size_t n = 0; n < o.n; n++) {
        uint8_t *cut = malloc(n ? n : 1);
        memcpy(cut, o.b, n);
        char err[256] = "";
        char *ptx = fatbin_ptx(cut, n, NULL, err, sizeof err);
        if (ptx)
            fail_msg("decoded a container cut to %zu of %zu bytes", n, o.n);
        if (!err[0])
            fail_msg("no message for a container cut to %zu bytes", n);
        free(cut);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_zstd_lz4), cmocka_unit_test(test_only_machine_code),
        cmocka_unit_test(test_wrapper),        cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_truncated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
