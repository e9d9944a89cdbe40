/*
 * warptm_options.h - the options of WarpTM, protocol warptm: section [warptm] of the machine's
 * configuration (its rows and checks in warptm_options.c; coh/options.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_GETM_WARPTM_OPTIONS_H
#define COH_GETM_WARPTM_OPTIONS_H

#include "coh/options.h"

/* WarpTM, protocol warptm (spec 004a §4.1; docs/transactions.md): its
 * validation unit per L2 bank. tx_warps and backoff_cycles of [getm] apply. */
struct warptm_spec {
    bool silent;           /* read-only attempts the TCD clears commit without validation */
    bool eager;            /* WarpTM-EL (ideal): zero-latency value checks at every load */
    bool eapg;             /* EAPG (ideal): EarlyAbort/Pause-n-Go broadcasts */
    uint32_t hold_entries; /* per bank: granules validated transactions may hold at once */
    uint32_t tcd_entries;  /* per bank: last-write times of the temporal conflict detector */
};

extern const struct coh_options warptm_options;

/* The [warptm] section of the machine's configuration. */
static inline const struct warptm_spec *warptm_spec_of(const struct machine_view *m)
{
    return machine_section(m, &warptm_options);
}

#endif
