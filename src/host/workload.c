/*
 * workload.c - lookup in the generated workload registry.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/workload.h"

#include <string.h>

const char *const wl_size_names[WL_NSIZES + 1] = {"tiny", "quick", "small", "paper", NULL};

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

bool wl_has_variant(const struct workload *w, const char *v)
{
    for (const char *const *k = w->variants; k && *k; k++)
        if (!strcmp(*k, v))
            return true;
    return false;
}
