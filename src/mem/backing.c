/*
 * backing.c - sparse page store with a chained hash (see backing.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "mem/backing.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"

struct backing_page {
    struct backing_page *next;
    addr_t page_no;
    uint8_t bytes[BACKING_PAGE_BYTES];
};

void backing_init(struct backing *b)
{
    b->n_buckets = 4096;
    b->n_pages = 0;
    b->buckets = calloc(b->n_buckets, sizeof *b->buckets);
    if (!b->buckets)
        panic("out of memory");
}

void backing_destroy(struct backing *b)
{
    for (size_t i = 0; i < b->n_buckets; i++) {
        struct backing_page *p = b->buckets[i], *n;
        for (; p; p = n) {
            n = p->next;
            free(p);
        }
    }
    free(b->buckets);
    memset(b, 0, sizeof *b);
}

static size_t bucket_of(const struct backing *b, addr_t page_no)
{
    return (size_t)((page_no * 0x9e3779b97f4a7c15ull) >> 20) & (b->n_buckets - 1);
}

static void rehash(struct backing *b)
{
    size_t old_n = b->n_buckets;
    struct backing_page **old = b->buckets;
    b->n_buckets *= 4;
    b->buckets = calloc(b->n_buckets, sizeof *b->buckets);
    if (!b->buckets)
        panic("out of memory");
    for (size_t i = 0; i < old_n; i++) {
        struct backing_page *p = old[i], *n;
        for (; p; p = n) {
            n = p->next;
            size_t k = bucket_of(b, p->page_no);
            p->next = b->buckets[k];
            b->buckets[k] = p;
        }
    }
    free(old);
}

static struct backing_page *find(struct backing *b, addr_t page_no, bool create)
{
    size_t k = bucket_of(b, page_no);
    for (struct backing_page *p = b->buckets[k]; p; p = p->next)
        if (p->page_no == page_no)
            return p;
    if (!create)
        return NULL;
    struct backing_page *p = calloc(1, sizeof *p);
    if (!p)
        panic("out of memory");
    p->page_no = page_no;
    p->next = b->buckets[k];
    b->buckets[k] = p;
    if (++b->n_pages > 2 * b->n_buckets)
        rehash(b);
    return p;
}

void backing_read(struct backing *b, addr_t a, void *dst, size_t n)
{
    uint8_t *d = dst;
    while (n) {
        addr_t off = a % BACKING_PAGE_BYTES;
        size_t k = MIN(n, BACKING_PAGE_BYTES - off);
        struct backing_page *p = find(b, a / BACKING_PAGE_BYTES, false);
        if (p)
            memcpy(d, p->bytes + off, k);
        else
            memset(d, 0, k);
        a += k, d += k, n -= k;
    }
}

void backing_write(struct backing *b, addr_t a, const void *src, size_t n)
{
    const uint8_t *s = src;
    while (n) {
        addr_t off = a % BACKING_PAGE_BYTES;
        size_t k = MIN(n, BACKING_PAGE_BYTES - off);
        memcpy(find(b, a / BACKING_PAGE_BYTES, true)->bytes + off, s, k);
        a += k, s += k, n -= k;
    }
}

void backing_write_masked(struct backing *b, addr_t a, const uint8_t *src,
                          const uint64_t *mask_words, size_t n)
{
    /* lines never straddle pages: n divides the page size */
    struct backing_page *p = find(b, a / BACKING_PAGE_BYTES, true);
    uint8_t *d = p->bytes + a % BACKING_PAGE_BYTES;
    for (size_t i = 0; i < n; i++)
        if ((mask_words[i >> 6] >> (i & 63)) & 1)
            d[i] = src[i];
}
