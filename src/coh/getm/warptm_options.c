/*
 * warptm_options.c - the option rows and cross-checks of section [warptm] (WarpTM, protocol
 * warptm).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/warptm_options.h"

#include <stdio.h>

#include "base/bits.h"
#include "coh/machine_view.h"

/* WarpTM (spec 004a §4.1; docs/transactions.md). */
#define T struct warptm_spec
static const struct cfg_opt warptm_opts[] = {
    CFG_BOOL("silent", T, silent, "true",
             "warptm: an attempt that writes nothing and whose loads the temporal conflict "
             "detector found older than its first load commits without validation"),
    CFG_BOOL("eager", T, eager, "false",
             "warptm: WarpTM-EL (ideal), the thesis's motivation study (Fig. 4.3, 4.4): whenever a "
             "transactional load completes, every value the attempt has read is compared with "
             "the banks' at no cost, and the lanes whose values changed abort at once; the "
             "commit still validates and writes through the banks"),
    CFG_BOOL("eapg", T, eapg, "false",
             "warptm: EAPG (ideal; EarlyAbort/Pause-n-Go, spec 004a §4.9): a commit broadcasts "
             "the 64-bit signature of the granules it writes to every SM at once and at no "
             "cost; running attempts that read one abort at once, and a validation that "
             "would touch one waits until that commit is acknowledged"),
    CFG_U32("hold_entries", T, hold_entries, "1024", 4, 1u << 20, "",
            "warptm: granules the validated transactions may hold at one bank at once (a power "
            "of two; a validation finding the table three quarters full fails)"),
    CFG_U32("tcd_entries", T, tcd_entries, "512", 1, 1u << 20, "",
            "warptm: last-write times per bank in the temporal conflict detector (a power of "
            "two; granules that share an entry share its latest time)"),
    CFG_END,
};
#undef T

static const char *warptm_check(const struct machine_view *c, char *why, size_t len)
{
    const struct warptm_spec *w = warptm_spec_of(c);
    if (!is_pow2(w->hold_entries) || !is_pow2(w->tcd_entries)) {
        snprintf(why, len,
                 "warptm.hold_entries (%u) and warptm.tcd_entries (%u) must be powers "
                 "of two",
                 w->hold_entries, w->tcd_entries);
        return "warptm.hold_entries warptm.tcd_entries";
    }
    return NULL;
}

const struct coh_options warptm_options = {"warptm", warptm_opts, warptm_check,
                                           sizeof(struct warptm_spec)};
