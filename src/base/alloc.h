/*
 * alloc.h - allocation that cannot return NULL.
 *
 * Set-up code (machines, launch specs, the CUDA stand-in's registries) has no
 * way to go on without its memory, so running out is a fault of the run, not
 * an input error: these panic (exit 3). A zero size is allocated as one byte,
 * so that a successful call never returns NULL. Hot paths use pools
 * (base/pool.h) instead.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BASE_ALLOC_H
#define BASE_ALLOC_H

#include <stdlib.h>
#include <string.h>

#include "base/log.h"

static inline void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        panic("out of memory");
    return p;
}

static inline void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        panic("out of memory");
    return p;
}

static inline void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        panic("out of memory");
    return p;
}

static inline char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        panic("out of memory");
    return d;
}

#endif
