/*
 * pagemap.c - first-touch page placement (see pagemap.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "mem/pagemap.h"

#include <stdlib.h>

#include "base/log.h"

static uint32_t slot_of(const struct pagemap *pm, uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (pm->cap - 1);
}

static void alloc_slots(struct pagemap *pm, uint32_t cap)
{
    pm->cap = cap;
    pm->keys = calloc(cap, sizeof *pm->keys);
    pm->owner = calloc(cap, sizeof *pm->owner);
    if (!pm->keys || !pm->owner)
        panic("out of memory");
}

void pagemap_init(struct pagemap *pm, uint32_t page_bytes)
{
    *pm = (struct pagemap){0};
    while ((1u << pm->page_shift) < page_bytes)
        pm->page_shift++;
    alloc_slots(pm, 64);
}

void pagemap_destroy(struct pagemap *pm)
{
    free(pm->keys);
    free(pm->owner);
}

static uint32_t find(const struct pagemap *pm, uint64_t key)
{
    uint32_t i = slot_of(pm, key);
    while (pm->keys[i] && pm->keys[i] != key)
        i = (i + 1) & (pm->cap - 1);
    return i;
}

unsigned pagemap_owner(const struct pagemap *pm, addr_t addr)
{
    uint32_t i = find(pm, (addr >> pm->page_shift) + 1);
    return pm->keys[i] ? pm->owner[i] : PAGEMAP_NONE;
}

unsigned pagemap_touch(struct pagemap *pm, addr_t addr, unsigned toucher)
{
    uint64_t key = (addr >> pm->page_shift) + 1;
    uint32_t i = find(pm, key);
    if (pm->keys[i])
        return pm->owner[i];
    if (2 * (pm->n + 1) > pm->cap) { /* grows with the footprint's pages, rarely */
        uint64_t *keys = pm->keys;
        uint16_t *owner = pm->owner;
        uint32_t cap = pm->cap;
        alloc_slots(pm, 2 * cap);
        for (uint32_t k = 0; k < cap; k++)
            if (keys[k]) {
                uint32_t j = find(pm, keys[k]);
                pm->keys[j] = keys[k];
                pm->owner[j] = owner[k];
            }
        free(keys);
        free(owner);
        i = find(pm, key);
    }
    pm->keys[i] = key;
    pm->owner[i] = (uint16_t)toucher;
    pm->n++;
    pm->placed++;
    return toucher;
}
