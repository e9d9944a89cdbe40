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

/* Algorithm 4's word mask of an ownership request (ReqO, ReqO+data) or a
 * predicted read (ReqVo), as the shape an instruction's table entry names
 * (spec 003 §2.9): the words the access touches (the default), those
 * through the end of the line, or the whole line. Write-throughs name the
 * words they touch (Alg. 4); a ReqV asks for the line. mem_req.req_type
 * keeps the kind in its low bits and the shape above them. */
enum spx_mask_shape { SPXM_DEFAULT, SPXM_WORDS, SPXM_REST, SPXM_LINE, SPXM_N };
extern const char *const spx_mask_shape_names[SPXM_N];
#define SPX_KIND_BITS 4
_Static_assert(SPXK_N <= 1 << SPX_KIND_BITS, "a request kind fits below the mask shape");
static inline unsigned spx_type_kind(unsigned t)
{
    return t & ((1u << SPX_KIND_BITS) - 1);
}
static inline unsigned spx_type_shape(unsigned t)
{
    return t >> SPX_KIND_BITS;
}
static inline unsigned spx_type(unsigned kind, unsigned shape)
{
    return kind | shape << SPX_KIND_BITS;
}
/* Whether kind k takes a mask shape (ReqVo, ReqO, ReqO+data). */
bool spx_kind_has_shape(unsigned k);
/* The words of a line of `n_words` that shape asks for, around the
 * `touched` words (shape SPXM_DEFAULT: `touched`). */
static inline uint64_t spx_shape_words(unsigned shape, uint64_t touched, unsigned n_words)
{
    uint64_t all = n_words >= 64 ? ~0ull : (1ull << n_words) - 1;
    switch (shape) {
    case SPXM_REST:
        return touched ? all & ~((1ull << __builtin_ctzll(touched)) - 1) : touched;
    case SPXM_LINE:
        return all;
    default:
        return touched;
    }
}

/* Whether kind k applies to a load, a store or an atomic (enum mem_op). */
bool spx_req_kind_fits(unsigned k, unsigned mem_op);

/* What hardware without forwarding or owner prediction sends instead
 * (spec 003 §2.10: ReqVo -> ReqV; ReqWTo(+data) -> ReqWTfwd(+data); without
 * forwarding ReqWTfwd(+data) -> ReqWT(+data)). */
unsigned spx_req_kind_supported(unsigned k, bool fwd, bool pred);

/* The request type of every instruction of `m` (ptx_memop.tag indexes it)
 * from table file `path`: lines "LINE TYPE [MASK]" (a line of m's PTX file;
 * every global load, store or atomic on it) or "LABEL TYPE [MASK]" (the
 * first such instruction after the label), '#' comments; MASK is a shape's
 * name. Returns a calloc'd array of m->n_ins types (spx_type: kind and
 * shape), or NULL with "file:line: what is wrong" in err. */
struct ptx_module;
uint8_t *fcs_table_load(const char *path, const struct ptx_module *m, char *err, size_t errlen);

#endif
