/*
 * options.h - a protocol family's configuration section: its option rows and
 * its cross-checks, kept in the family's folder (coh/tc/tc_options.c, ...).
 *
 * The machine's configuration composes every section into one table of
 * "section.key" options and, after loading, asks each section to check its
 * own keys against a view of the machine (coh/machine_view.h). A check
 * answers like proto_desc.check: NULL when the values are fine, else the keys
 * at fault separated by spaces (the one to change first), with what is wrong
 * in `why`; the configuration prefixes the file:line (or --set) of the first
 * of them that was set.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_OPTIONS_H
#define COH_OPTIONS_H

#include "coh/machine_view.h"
#include "sim/cfg.h"

struct coh_options {
    const char *section;        /* "tc": its keys read tc.lease, tc.ts_bits, ... */
    const struct cfg_opt *opts; /* rows relative to the family's spec struct, CFG_END-terminated */
    /* cross-checks among the section's keys and the machine's (NULL: none) */
    const char *(*check)(const struct machine_view *c, char *why, size_t len);
    size_t size; /* sizeof the family's spec struct, which the configuration stores */
};

/* A lease option's value (tc.lease, rcc.lease): one of `words` (NULL-
 * terminated; returns its index) or "fixed:N" with lo <= N <= hi (returns
 * COH_LEASE_FIXED, N in *n); -1 when it is neither. */
#define COH_LEASE_FIXED 100
int coh_lease_parse(const char *s, const char *const *words, uint32_t lo, uint32_t hi, uint32_t *n);

#endif
