/*
 * pagemap.h - where each physical page lives in a machine of several GPMs.
 *
 * Spec 004b §2.1: homes come from one address map with a page policy, first
 * touch of 2 MB pages in the evaluation. The first GPM whose L2 sees an
 * access to a page becomes the page's owner (its system home), for the rest
 * of the run; the host's copies place nothing. This is the driver's page
 * table, which every L2 consults to route a miss, not a protocol's state:
 * it is written once per page and never changes behaviour afterwards.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef MEM_PAGEMAP_H
#define MEM_PAGEMAP_H

#include "base/types.h"

#define PAGEMAP_NONE 0xffffu

struct pagemap {
    unsigned page_shift;
    uint64_t *keys; /* page number + 1 (0: empty slot) */
    uint16_t *owner;
    uint32_t cap, n; /* open addressing, cap a power of two */
    uint64_t placed; /* statistics: pages placed */
};

void pagemap_init(struct pagemap *pm, uint32_t page_bytes);
void pagemap_destroy(struct pagemap *pm);
/* The owner of addr's page, placing it at `toucher` if it has none. */
unsigned pagemap_touch(struct pagemap *pm, addr_t addr, unsigned toucher);
/* The owner, or PAGEMAP_NONE when the page was never touched. */
unsigned pagemap_owner(const struct pagemap *pm, addr_t addr);

#endif
