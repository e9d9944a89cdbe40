/*
 * fcs_options.h - the options of Spandex's request types: spandex-d: section [fcs] of the
 * machine's configuration (its rows and checks in fcs_options.c; coh/options.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_SPANDEX_FCS_OPTIONS_H
#define COH_SPANDEX_FCS_OPTIONS_H

#include "coh/options.h"

/* The request types a Spandex DeNovo-capable L1 issues (spec 003 §2.6, Table
 * 1): the static DeNovo types by default, any type of the full set by
 * setting, or a random type per access (the stress tester's forced mixes). */
enum fcs_load { FCS_LD_V, FCS_LD_VO, FCS_LD_ODATA, FCS_LD_S };
enum fcs_store { FCS_ST_O, FCS_ST_WT, FCS_ST_WTFWD, FCS_ST_WTO };
enum fcs_rmw { FCS_RMW_ODATA, FCS_RMW_WTDATA, FCS_RMW_WTFWD_DATA, FCS_RMW_WTO_DATA };
extern const char *const fcs_load_names[], *const fcs_store_names[], *const fcs_rmw_names[];
struct fcs_spec {
    uint32_t load, store, rmw; /* enum fcs_load, fcs_store, fcs_rmw */
    bool random;               /* a random type of the full set per access */
    uint32_t mispredict;       /* percent of owner predictions sent to a wrong L1 on purpose */
    char table[CFG_STR_MAX];   /* per-static-instruction request types (FCS), "" none */
    bool fwd, pred;            /* the hardware forwards write-throughs, predicts owners (§2.10) */
    bool wb_clean;             /* DeNovo L1s write back owned words the LLC already holds */
    bool strong_shared;        /* a strong load typed ReqS misses with ReqS, not ReqV at the LLC */
    bool l1_to_l1;             /* owners' answers and predicted requests go L1 to L1 */
};

extern const struct coh_options fcs_options;

/* The [fcs] section of the machine's configuration. */
static inline const struct fcs_spec *fcs_spec_of(const struct machine_view *m)
{
    return machine_section(m, &fcs_options);
}

#endif
