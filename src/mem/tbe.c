/*
 * tbe.c - fixed-capacity TBE/MSHR table with a chained hash (see tbe.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "mem/tbe.h"

#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/log.h"

void tbe_table_init(struct tbe_table *t, uint32_t cap, uint32_t line_bytes)
{
    memset(t, 0, sizeof *t);
    t->cap = cap;
    t->e = calloc(cap ? cap : 1, sizeof *t->e);
    t->n_buckets = 16;
    while (t->n_buckets < 2 * cap)
        t->n_buckets *= 2;
    t->bucket = malloc(t->n_buckets * sizeof *t->bucket);
    if (!t->e || !t->bucket)
        panic("out of memory");
    for (uint32_t i = 0; i < t->n_buckets; i++)
        t->bucket[i] = -1;
    for (uint32_t i = 0; i < cap; i++)
        t->e[i].next = i + 1 < cap ? (int32_t)i + 1 : -1;
    t->free_head = cap ? 0 : -1;
    t->line_shift = log2_u64(line_bytes);
}

void tbe_table_destroy(struct tbe_table *t)
{
    free(t->e);
    free(t->bucket);
    memset(t, 0, sizeof *t);
}

static uint32_t hash_of(const struct tbe_table *t, addr_t line)
{
    return (uint32_t)(((line >> t->line_shift) * 0x9e3779b97f4a7c15ull) >> 40) & (t->n_buckets - 1);
}

struct tbe *tbe_find(struct tbe_table *t, addr_t line)
{
    for (int32_t i = t->bucket[hash_of(t, line)]; i >= 0; i = t->e[i].next)
        if (t->e[i].addr == line)
            return &t->e[i];
    return NULL;
}

struct tbe *tbe_alloc(struct tbe_table *t, addr_t line)
{
    if (t->free_head < 0) {
        t->n_full++;
        return NULL;
    }
    int32_t i = t->free_head;
    struct tbe *e = &t->e[i];
    t->free_head = e->next;
    memset(e, 0, sizeof *e);
    e->addr = line;
    e->used = true;
    uint32_t h = hash_of(t, line);
    e->next = t->bucket[h];
    t->bucket[h] = i;
    t->n_used++;
    return e;
}

void tbe_free(struct tbe_table *t, struct tbe *e)
{
    panic_if(e->merged.n || e->parked.n, "freeing a TBE for %#llx with queued requests",
             (unsigned long long)e->addr);
    int32_t idx = (int32_t)(e - t->e);
    int32_t *p = &t->bucket[hash_of(t, e->addr)];
    while (*p != idx)
        p = &t->e[*p].next;
    *p = e->next;
    e->used = false;
    e->next = t->free_head;
    t->free_head = idx;
    t->n_used--;
}
