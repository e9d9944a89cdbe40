/*
 * fcs.h - fine-grain coherence specialization (spec 003 §2.9-2.10): a
 * Spandex request type per static memory instruction, loaded from a file
 * with the workload (fcs.table), and the offline selector that derives such
 * a file from a sequentially consistent trace of the workload.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_SPANDEX_FCS_H
#define COH_SPANDEX_FCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A request type as an instruction names it (mem_req.req_type); 0: none. */
enum spx_req_kind {
    SPXK_NONE,
    SPXK_V,          /* ReqV (loads) */
    SPXK_VO,         /* ReqVo */
    SPXK_O_DATA,     /* ReqO+data (loads, stores, atomics) */
    SPXK_O,          /* ReqO (stores) */
    SPXK_WT,         /* ReqWT (stores) */
    SPXK_WTFWD,      /* ReqWTfwd */
    SPXK_WTO,        /* ReqWTo */
    SPXK_WT_DATA,    /* ReqWT+data (atomics) */
    SPXK_WTFWD_DATA, /* ReqWTfwd+data */
    SPXK_WTO_DATA,   /* ReqWTo+data */
    SPXK_S,          /* ReqS (loads: the DeNovo L1 keeps the line's words Shared) */
    SPXK_N
};
extern const char *const spx_req_kind_names[SPXK_N];

/* Whether kind k applies to a load, a store or an atomic (enum mem_op). */
bool spx_req_kind_fits(unsigned k, unsigned mem_op);

/* What hardware without forwarding or owner prediction sends instead
 * (spec 003 §2.10: ReqVo -> ReqV; ReqWTo(+data) -> ReqWTfwd(+data); without
 * forwarding ReqWTfwd(+data) -> ReqWT(+data)). */
unsigned spx_req_kind_supported(unsigned k, bool fwd, bool pred);

/* The request type of every instruction of `m` (ptx_memop.tag indexes it)
 * from table file `path`: lines "LINE TYPE" (a line of m's PTX file; every
 * global load, store or atomic on it) or "LABEL TYPE" (the first such
 * instruction after the label), '#' comments. Returns a calloc'd array of
 * m->n_ins kinds, or NULL with "file:line: what is wrong" in err. */
struct ptx_module;
uint8_t *fcs_table_load(const char *path, const struct ptx_module *m, char *err, size_t errlen);

#endif
