/*
 * pool.h - fixed-size object pool with a free list.
 *
 * Hot paths (messages, requests, events) allocate from pools so that a run
 * does no malloc after warm-up. Objects are carved from chunks that live as
 * long as the pool. Debug builds (GPUCOH_POISON) fill freed objects with 0xdb
 * so that a use after free shows up as garbage at once.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BASE_POOL_H
#define BASE_POOL_H

#include "base/types.h"

struct pool {
    size_t obj_bytes; /* size of one object, rounded up to a pointer */
    size_t per_chunk; /* objects per chunk */
    void *free_list;  /* singly linked through the first word */
    void **chunks;    /* every chunk, for pool_destroy */
    size_t n_chunks, cap_chunks;
    size_t n_live; /* objects handed out and not yet returned */
};

void pool_init(struct pool *p, size_t obj_bytes, size_t per_chunk);
void pool_destroy(struct pool *p);
void *pool_grow_and_alloc(struct pool *p);

/* A zero-filled object. */
static inline void *pool_alloc(struct pool *p)
{
    void *o = p->free_list;
    if (!o)
        return pool_grow_and_alloc(p);
    p->free_list = *(void **)o;
    p->n_live++;
    __builtin_memset(o, 0, p->obj_bytes);
    return o;
}

void pool_free(struct pool *p, void *o);

#endif
