/*
 * backing.h - the sparse backing store: simulated DRAM contents.
 *
 * Holds every byte that is not (or not only) in a cache. Pages are allocated
 * on first write; untouched memory reads as zero. The DRAM controllers read
 * and write it when they serve L2 fills and write-backs; the host API uses it
 * for copies only through the memory hierarchy's rules (see host/). It is one
 * of the two audited exceptions to "components talk only through messages":
 * the functional (--functional) mode reads and writes it directly.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MEM_BACKING_H
#define MEM_BACKING_H

#include "base/types.h"

#define BACKING_PAGE_BYTES 4096u

struct backing_page;

struct backing_slot {
    addr_t page_no;
    struct backing_page *page; /* NULL: empty slot */
};

struct backing {
    struct backing_slot *slots; /* open addressing (linear probing) on page number */
    size_t mask;                /* slots - 1 (a power of two minus one) */
    size_t n_pages;
    struct backing_page *last; /* the page found last (accesses cluster) ... */
    addr_t last_no;            /* ... and its number (no need to touch the page) */
};

void backing_init(struct backing *b);
void backing_destroy(struct backing *b);
void backing_read(struct backing *b, addr_t a, void *dst, size_t n);
/* Where the bytes at a live (up to the end of its page), or NULL if the page
 * was never written (it reads as zeros). */
const uint8_t *backing_peek(struct backing *b, addr_t a);
void backing_write(struct backing *b, addr_t a, const void *src, size_t n);
/* Write the bytes of src selected by mask (a line of `n` bytes at a). */
void backing_write_masked(struct backing *b, addr_t a, const uint8_t *src,
                          const uint64_t *mask_words, size_t n);

#endif
