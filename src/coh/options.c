/*
 * options.c - what the protocol families' option sections share.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/options.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"

int coh_lease_parse(const char *s, const char *const *words, uint32_t lo, uint32_t hi, uint32_t *n)
{
    for (int i = 0; words[i]; i++)
        if (!strcmp(s, words[i]))
            return i;
    if (strncmp(s, "fixed:", 6) || s[6] < '0' || s[6] > '9')
        return -1;
    char *end;
    unsigned long v = strtoul(s + 6, &end, 10);
    if (*end || v < lo || v > hi)
        return -1;
    *n = (uint32_t)v;
    return COH_LEASE_FIXED;
}

const void *machine_section(const struct machine_view *m, const struct coh_options *family)
{
    for (unsigned i = 0; i < m->n_sections; i++)
        if (m->sections[i].family == family)
            return m->sections[i].spec;
    panic("the machine's configuration has no [%s] section", family->section);
}
