/*
 * 301-backing-cache.c - the backing store and the cache array against flat
 * references (differential tests).
 *
 * Backing store: random line writes (whole, masked and unaligned byte runs)
 * over enough pages to grow its page table several times, compared with a
 * flat array after every step that reads; untouched memory reads as zeros;
 * backing_peek points at the bytes or says the page was never written.
 * Cache array: random installs, removals and lookups against a list of the
 * lines it must hold; the tag array that lookups use must agree with the
 * lines' own address and presence, also for a bank-interleaved L2 geometry
 * (index_div) that is not a power of two. Fermi's hashed set index against a
 * bit-by-bit reading of its definition, on both geometries it allows.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/bits.h"
#include "base/rng.h"
#include "mem/backing.h"
#include "mem/cache.h"

#define SPAN (48u << 20) /* 12288 pages: the page table grows twice */
#define LINE 128u

static void backing_matches_a_flat_array(void **state)
{
    (void)state;
    uint8_t *flat = calloc(SPAN, 1);
    assert_non_null(flat);
    struct backing b;
    backing_init(&b);
    struct rng g;
    rng_seed(&g, 3, 0);
    uint8_t line[LINE], got[LINE];
    for (unsigned step = 0; step < 60000; step++) {
        addr_t a = rng_below(&g, SPAN / LINE) * LINE;
        unsigned kind = (unsigned)rng_below(&g, 4);
        for (unsigned i = 0; i < LINE; i++)
            line[i] = (uint8_t)rng_below(&g, 256);
        if (kind == 0) { /* whole line */
            backing_write(&b, a, line, LINE);
            memcpy(flat + a, line, LINE);
        } else if (kind == 1) { /* masked: a random byte set */
            struct bytemask m = {0};
            for (unsigned i = 0; i < LINE; i++)
                if (rng_below(&g, 3) == 0)
                    m.w[i >> 6] |= 1ull << (i & 63);
            if (step % 7 == 0)
                memset(&m, 0xff, sizeof m);
            backing_write_masked(&b, a, line, m.w, LINE);
            for (unsigned i = 0; i < LINE; i++)
                if (bytemask_test(&m, i))
                    flat[a + i] = line[i];
        } else if (kind == 2) { /* an unaligned run that may cross a page */
            addr_t s = rng_below(&g, SPAN - 5000);
            size_t n = 1 + rng_below(&g, 4999);
            uint8_t *buf = malloc(n);
            assert_non_null(buf);
            for (size_t i = 0; i < n; i++)
                buf[i] = (uint8_t)(s + i);
            backing_write(&b, s, buf, n);
            memcpy(flat + s, buf, n);
            free(buf);
        } else { /* read back a line, and through peek */
            backing_read(&b, a, got, LINE);
            assert_memory_equal(got, flat + a, LINE);
            const uint8_t *p = backing_peek(&b, a);
            if (p)
                assert_memory_equal(p, flat + a, LINE);
            else
                for (unsigned i = 0; i < LINE; i++)
                    assert_int_equal(flat[a + i], 0);
        }
    }
    for (addr_t a = 0; a < SPAN; a += 4096 * 7) { /* and a sweep at the end */
        backing_read(&b, a, got, LINE);
        assert_memory_equal(got, flat + a, LINE);
    }
    backing_destroy(&b);
    free(flat);
}

/* Every present line is found by its address, every tag agrees with its line. */
static void check_cache(struct cache *c, const addr_t *held, unsigned n_held)
{
    size_t n = (size_t)c->sets * c->spec.ways;
    unsigned present = 0;
    for (size_t i = 0; i < n; i++) {
        const struct cache_line *l = &c->lines[i];
        assert_true(l->present ? c->tags[i] == l->addr : c->tags[i] == CACHE_NO_TAG);
        present += l->present;
    }
    assert_int_equal(present, n_held);
    for (unsigned i = 0; i < n_held; i++) {
        struct cache_line *l = cache_find(c, held[i]);
        assert_non_null(l);
        assert_true(l->present && l->addr == held[i]);
    }
}

static void cache_tags_follow_installs_and_removals(void **state)
{
    (void)state;
    static const uint32_t divs[] = {1, 8, 6};
    for (unsigned d = 0; d < ARRAY_LEN(divs); d++) {
        struct cache c;
        char err[128];
        struct cache_spec spec = {.size_bytes = 16 * 1024, .ways = 4, .line_bytes = LINE};
        assert_int_equal(cache_init(&c, &spec, err, sizeof err), 0);
        c.index_div = divs[d];
        addr_t held[128];
        unsigned n_held = 0;
        struct rng g;
        rng_seed(&g, 11, d);
        for (unsigned step = 0; step < 20000; step++) {
            addr_t a = rng_below(&g, 4096) * LINE * divs[d];
            struct cache_line *l = cache_find(&c, a);
            unsigned k = 0;
            while (k < n_held && held[k] != a)
                k++;
            assert_true((l != NULL) == (k < n_held));
            if (l && rng_below(&g, 2)) {
                cache_remove(&c, l);
                held[k] = held[--n_held];
            } else if (!l) {
                struct cache_line *w = cache_victim(&c, a, NULL, NULL);
                assert_non_null(w);
                if (w->present) {
                    unsigned j = 0;
                    while (held[j] != w->addr)
                        j++;
                    held[j] = held[--n_held];
                    cache_remove(&c, w);
                }
                cache_install(&c, w, a);
                held[n_held++] = a;
            }
            if (step % 1000 == 0)
                check_cache(&c, held, n_held);
        }
        check_cache(&c, held, n_held);
        cache_destroy(&c);
    }
}

/* Fermi's set index, one bit at a time as Nugteren et al. (HPCA 2014) state it:
 * index bit i (0-4) is address bit 7 + i XOR address bit 13, 14, 15, 17 or 19;
 * with 64 sets, index bit 5 is address bit 12. */
static uint32_t fermi_set_reference(addr_t a, uint32_t sets)
{
    static const unsigned upper[5] = {13, 14, 15, 17, 19};
    uint32_t set = 0;
    for (unsigned i = 0; i < 5; i++)
        set |= (uint32_t)(((a >> (7 + i)) ^ (a >> upper[i])) & 1) << i;
    if (sets == 64)
        set |= (uint32_t)((a >> 12) & 1) << 5;
    return set;
}

static void fermi_hash_index(void **state)
{
    (void)state;
    char err[160];
    struct cache c;
    static const uint32_t sizes[] = {16 * 1024, 32 * 1024}; /* 32 and 64 sets of 4 ways */
    for (unsigned s = 0; s < ARRAY_LEN(sizes); s++) {
        struct cache_spec spec = {
            .size_bytes = sizes[s], .ways = 4, .line_bytes = LINE, .index = CACHE_INDEX_FERMI_HASH};
        assert_int_equal(cache_init(&c, &spec, err, sizeof err), 0);
        uint64_t reached = 0;
        struct rng g;
        rng_seed(&g, 5, s);
        for (unsigned i = 0; i < 100000; i++) {
            addr_t a = rng_below(&g, 1u << 24) * LINE;
            uint32_t set = cache_set_of(&c, a);
            assert_int_equal(set, fermi_set_reference(a, c.sets));
            reached |= 1ull << set;
        }
        assert_int_equal(__builtin_popcountll(reached), c.sets);
        /* kmn's shape at size tiny: feature lines 4 KB apart, the even ones and
         * the centre line 32 KB above the first all in linear set 0 of 64 (five
         * lines for four ways); the hash puts the five in five sets. */
        if (c.sets == 64) {
            uint64_t sets_used = 0;
            for (unsigned f = 0; f < 8; f += 2)
                sets_used |= 1ull << cache_set_of(&c, 0x10008000u + f * 0x1000u);
            sets_used |= 1ull << cache_set_of(&c, 0x10010000u);
            assert_int_equal(__builtin_popcountll(sets_used), 5);
        }
        cache_destroy(&c);
    }
    struct cache_spec sixteen_sets = {
        .size_bytes = 8 * 1024, .ways = 4, .line_bytes = LINE, .index = CACHE_INDEX_FERMI_HASH};
    assert_int_equal(cache_init(&c, &sixteen_sets, err, sizeof err), -1);
    assert_non_null(strstr(err, "32 or 64 sets"));
    struct cache_spec short_lines = {
        .size_bytes = 16 * 1024, .ways = 4, .line_bytes = 64, .index = CACHE_INDEX_FERMI_HASH};
    assert_int_equal(cache_init(&c, &short_lines, err, sizeof err), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(backing_matches_a_flat_array),
        cmocka_unit_test(cache_tags_follow_installs_and_removals),
        cmocka_unit_test(fermi_hash_index),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
