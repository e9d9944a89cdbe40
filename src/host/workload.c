/*
 * workload.c - lookup in the generated workload registry.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/workload.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"

const char *const wl_size_names[WL_NSIZES] = {"tiny", "quick", "small", "paper"};

int wl_size_find(const char *name)
{
    for (int k = 0; k < WL_NSIZES; k++)
        if (!strcmp(name, wl_size_names[k]))
            return k;
    return -1;
}

const struct workload *wl_find(const char *name)
{
    for (const struct workload *const *w = wl_registry; *w; w++)
        if (!strcmp((*w)->name, name))
            return *w;
    return NULL;
}

void wl_random_undirected_csr(uint32_t n, uint32_t per_node, struct rng *r, int32_t **row,
                              int32_t **col)
{
    uint32_t ne = per_node * n;
    uint32_t *eu = malloc(ne * sizeof *eu), *ev = malloc(ne * sizeof *ev);
    int32_t *rw = calloc(n + 1, sizeof *rw), *cl = malloc(2 * (size_t)ne * sizeof *cl);
    int32_t *fill = calloc(n, sizeof *fill);
    panic_if(!eu || !ev || !rw || !cl || !fill, "out of memory");
    for (uint32_t e = 0; e < ne; e++) {
        eu[e] = (uint32_t)rng_below(r, n);
        ev[e] = (uint32_t)rng_below(r, n - 1);
        ev[e] += ev[e] >= eu[e]; /* no self loops */
        rw[eu[e] + 1]++, rw[ev[e] + 1]++;
    }
    for (uint32_t v = 0; v < n; v++)
        rw[v + 1] += rw[v];
    for (uint32_t e = 0; e < ne; e++) {
        cl[rw[eu[e]] + fill[eu[e]]++] = (int32_t)ev[e];
        cl[rw[ev[e]] + fill[ev[e]]++] = (int32_t)eu[e];
    }
    free(eu), free(ev), free(fill);
    *row = rw, *col = cl;
}
