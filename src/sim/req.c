/*
 * req.c - names for the request seam, and the one atomic arithmetic unit that
 * every place performing atomics (L2 banks, L1s that own lines, the
 * functional mode) shares, so that all of them compute identical results.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "sim/req.h"

#include <string.h>

#include "base/half.h"

#define X(n, d) #n,
const char *const mem_op_names[MEM_NOPS] = {MEM_OPS(X)};
#undef X
#define X(n) #n,
const char *const atom_kind_names[ATOM_NKINDS] = {ATOM_OPS(X)};
#undef X
const char *const mem_sem_names[SEM_N] = {"weak",    "volatile", "relaxed", "acquire",
                                          "release", "acq_rel",  "sc"};
const char *const mem_scope_names[SCOPE_N] = {"cta", "gpu", "sys"};

/* atom.add.noftz on halves (PTX has no other arithmetic on them): each
 * element rounded to nearest even, subnormals kept. */
static uint64_t half_atomic(enum atom_type t, uint64_t old, uint64_t a)
{
    bool bf = t == ATYPE_BF16 || t == ATYPE_BF16X2;
    uint64_t r = half_add((uint16_t)old, (uint16_t)a, bf);
    if (t == ATYPE_F16X2 || t == ATYPE_BF16X2)
        r |= (uint64_t)half_add((uint16_t)(old >> 16), (uint16_t)(a >> 16), bf) << 16;
    return r;
}

static uint64_t apply_one(enum atom_kind k, enum atom_type t, uint64_t old, uint64_t a, uint64_t b)
{
    bool wide = atom_type_bytes(t) == 8;
    switch (t) {
    case ATYPE_F16:
    case ATYPE_BF16:
    case ATYPE_F16X2:
    case ATYPE_BF16X2:
        return k == ATOM_ADD ? half_atomic(t, old, a) : old; /* the parser admits only add */
    case ATYPE_F32: {
        float o = f32_from_bits((uint32_t)old), x = f32_from_bits((uint32_t)a), r;
        switch (k) {
        case ATOM_ADD:
            r = o + x;
            break;
        case ATOM_MIN:
            r = x < o ? x : o;
            break;
        case ATOM_MAX:
            r = x > o ? x : o;
            break;
        case ATOM_EXCH:
            r = x;
            break;
        default:
            goto bits;
        }
        return f32_bits(r);
    }
    case ATYPE_F64: {
        double o = f64_from_bits(old), x = f64_from_bits(a), r;
        switch (k) {
        case ATOM_ADD:
            r = o + x;
            break;
        case ATOM_MIN:
            r = x < o ? x : o;
            break;
        case ATOM_MAX:
            r = x > o ? x : o;
            break;
        case ATOM_EXCH:
            r = x;
            break;
        default:
            goto bits;
        }
        return f64_bits(r);
    }
    default:
        break;
    }
bits:;
    uint64_t mask = wide ? ~0ull : t == ATYPE_B16 ? 0xffffull : 0xffffffffull;
    bool is_signed = t == ATYPE_S32 || t == ATYPE_S64;
    int64_t so = wide ? (int64_t)old : (int64_t)(int32_t)old;
    int64_t sa = wide ? (int64_t)a : (int64_t)(int32_t)a;
    old &= mask;
    a &= mask;
    uint64_t r;
    switch (k) {
    case ATOM_ADD:
        r = old + a;
        break;
    case ATOM_SUB:
        r = old - a;
        break;
    case ATOM_MIN:
        r = is_signed ? (uint64_t)(sa < so ? sa : so) : (a < old ? a : old);
        break;
    case ATOM_MAX:
        r = is_signed ? (uint64_t)(sa > so ? sa : so) : (a > old ? a : old);
        break;
    case ATOM_INC:
        r = old >= a ? 0 : old + 1;
        break; /* PTX atom.inc */
    case ATOM_DEC:
        r = (old == 0 || old > a) ? a : old - 1;
        break; /* PTX atom.dec */
    case ATOM_AND:
        r = old & a;
        break;
    case ATOM_OR:
        r = old | a;
        break;
    case ATOM_XOR:
        r = old ^ a;
        break;
    case ATOM_EXCH:
        r = a;
        break;
    case ATOM_CAS:
        r = old == a ? b : old;
        break;
    default:
        r = old;
        break;
    }
    return r & mask;
}

void atom_apply(struct atom_ops *ops, uint8_t *line)
{
    unsigned w = atom_type_bytes(ops->type);
    for (unsigned i = 0; i < ops->n; i++) {
        struct atom_lane *l = &ops->lane[i];
        uint64_t old = 0;
        memcpy(&old, line + l->off, w);
        uint64_t nv = apply_one(ops->kind, ops->type, old, l->a, l->b);
        l->result = old;
        memcpy(line + l->off, &nv, w);
    }
}
