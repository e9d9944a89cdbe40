/*
 * backing.c - sparse page store (see backing.h).
 *
 * Pages are found through an open-addressed table of (page number, page)
 * pairs kept at most half full, so a lookup is one probe into a compact array
 * (usually one cache line) before the page itself; the page found last is
 * tried first. Pages are never freed before backing_destroy.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "mem/backing.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"

struct backing_page {
    addr_t page_no;
    uint8_t bytes[BACKING_PAGE_BYTES];
};

void backing_init(struct backing *b)
{
    b->mask = 4095;
    b->n_pages = 0;
    b->last = NULL;
    b->slots = calloc(b->mask + 1, sizeof *b->slots);
    if (!b->slots)
        panic("out of memory");
}

void backing_destroy(struct backing *b)
{
    for (size_t i = 0; i <= b->mask; i++)
        free(b->slots[i].page);
    free(b->slots);
    memset(b, 0, sizeof *b);
}

static size_t slot_of(const struct backing *b, addr_t page_no)
{
    return (size_t)((page_no * 0x9e3779b97f4a7c15ull) >> 32) & b->mask;
}

static void put(struct backing *b, struct backing_page *p)
{
    size_t k = slot_of(b, p->page_no);
    while (b->slots[k].page)
        k = (k + 1) & b->mask;
    b->slots[k] = (struct backing_slot){p->page_no, p};
}

static void grow(struct backing *b)
{
    struct backing_slot *old = b->slots;
    size_t n = b->mask + 1;
    b->mask = 4 * n - 1;
    b->slots = calloc(4 * n, sizeof *b->slots);
    if (!b->slots)
        panic("out of memory");
    for (size_t i = 0; i < n; i++)
        if (old[i].page)
            put(b, old[i].page);
    free(old);
}

static struct backing_page *find(struct backing *b, addr_t page_no, bool create)
{
    if (b->last && b->last_no == page_no)
        return b->last;
    for (size_t k = slot_of(b, page_no);; k = (k + 1) & b->mask) {
        if (!b->slots[k].page)
            break;
        if (b->slots[k].page_no == page_no) {
            b->last_no = page_no;
            return b->last = b->slots[k].page;
        }
    }
    if (!create)
        return NULL;
    struct backing_page *p = calloc(1, sizeof *p);
    if (!p)
        panic("out of memory");
    p->page_no = page_no;
    if (2 * (++b->n_pages) > b->mask + 1)
        grow(b);
    put(b, p);
    b->last_no = page_no;
    return b->last = p;
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

const uint8_t *backing_peek(struct backing *b, addr_t a)
{
    struct backing_page *p = find(b, a / BACKING_PAGE_BYTES, false);
    return p ? p->bytes + a % BACKING_PAGE_BYTES : NULL;
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
    for (size_t i = 0; i < n; i += 64) {
        uint64_t w = mask_words[i >> 6];
        size_t k = MIN(64, n - i);
        if (k == 64 && w == ~0ull) { /* whole word of bytes: one copy */
            memcpy(d + i, src + i, 64);
            continue;
        }
        for (; w; w &= w - 1) {
            size_t j = (size_t)__builtin_ctzll(w);
            if (j < k)
                d[i + j] = src[i + j];
        }
    }
}
