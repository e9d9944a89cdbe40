/*
 * pool.c - chunked free-list pool (see pool.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/pool.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"

void pool_init(struct pool *p, size_t obj_bytes, size_t per_chunk)
{
    memset(p, 0, sizeof *p);
    p->obj_bytes = (obj_bytes + sizeof(void *) - 1) & ~(sizeof(void *) - 1);
    p->per_chunk = per_chunk ? per_chunk : 256;
}

void pool_destroy(struct pool *p)
{
    for (size_t i = 0; i < p->n_chunks; i++)
        free(p->chunks[i]);
    free(p->chunks);
    memset(p, 0, sizeof *p);
}

void *pool_grow_and_alloc(struct pool *p)
{
    if (p->n_chunks == p->cap_chunks) {
        p->cap_chunks = p->cap_chunks ? 2 * p->cap_chunks : 8;
        p->chunks = realloc(p->chunks, p->cap_chunks * sizeof *p->chunks);
        if (!p->chunks)
            panic("out of memory growing a pool");
    }
    char *c = malloc(p->obj_bytes * p->per_chunk);
    if (!c)
        panic("out of memory growing a pool");
    p->chunks[p->n_chunks++] = c;
    for (size_t i = p->per_chunk; i-- > 0;) {
        *(void **)(c + i * p->obj_bytes) = p->free_list;
        p->free_list = c + i * p->obj_bytes;
    }
    return pool_alloc(p);
}

void pool_free(struct pool *p, void *o)
{
#ifdef GPUCOH_POISON
    memset(o, 0xdb, p->obj_bytes);
#endif
    *(void **)o = p->free_list;
    p->free_list = o;
    p->n_live--;
}
