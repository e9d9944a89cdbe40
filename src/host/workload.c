/*
 * workload.c - lookup in the generated workload registry.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/workload.h"

#include <string.h>

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
