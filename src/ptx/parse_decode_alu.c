/*
 * parse_decode_alu.c - the decoders of the arithmetic, comparison, move and
 * conversion opcode families that the plain arithmetic table of
 * pp_decode_inst() (parse_decode.c) does not cover: mul/mad, shifts, shf,
 * prmt, setp, set, selp, slct, mov, cvt and cvta.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/parse_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- decoding by opcode family: each reads c's operands and modifiers
 * (the latter consumed as it goes) and fills i ---- */

/* 'mul', 'mad' */
void pp_decode_mul_mad(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    bool mad = c->base[1] == 'a';
    int t = pp_one_type(c, md);
    if (pp_take(md, "cc"))
        pp_iunsup(c, "carry arithmetic ('%s') is not supported", c->opname);
    bool lo = pp_take(md, "lo"), hi = pp_take(md, "hi"), wide = pp_take(md, "wide");
    pp_inst_no_extras(c);
    pp_nops(c, mad ? 4 : 3);
    i->type = (uint8_t)t;
    if (px_type_float((unsigned)t)) {
        if (lo || hi || wide)
            pp_ierr(c, "'.lo', '.hi' and '.wide' are for integers, not '%s'", c->opname);
        if (type_half(t) && mad)
            pp_ierr(c, "'%s': no such half-precision instruction in PTX (use fma)", c->opname);
        if (type_half(t)) {
            pp_decode_half(c, i, PX_MUL, 2, md, t);
            return;
        }
        i->op = mad ? PX_FMA : PX_MUL;
        i->lat = t == PT_F64 ? PTX_LAT_FP64 : PTX_LAT_FP32;
    } else {
        if (lo + hi + wide != 1)
            pp_ierr(c, "'%s' needs one of .lo, .hi, .wide", c->opname);
        i->op = (uint16_t)(mad ? (lo   ? PX_MAD_LO
                                  : hi ? PX_MAD_HI
                                       : PX_MAD_WIDE)
                               : (lo   ? PX_MUL_LO
                                  : hi ? PX_MUL_HI
                                       : PX_MUL_WIDE));
        i->lat = PTX_LAT_IMUL;
    }
    int dt = t;
    if (wide) {
        static const int w2[PT_N] = {
            [PT_U16] = PT_U32, [PT_S16] = PT_S32, [PT_U32] = PT_U64, [PT_S32] = PT_S64};
        dt = w2[t];
        if (!dt)
            pp_ierr(c, "bad type for '%s'", c->opname);
    }
    pp_set_dst(c, i, 0, &o[0], dt);
    pp_set_src(c, i, 0, &o[1], t);
    pp_set_src(c, i, 1, &o[2], t);
    if (mad)
        pp_set_src(c, i, 2, &o[3], dt);
}

/* 'shl', 'shr' */
void pp_decode_shift(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    pp_nops(c, 3);
    i->op = c->base[2] == 'l' ? PX_SHL : PX_SHR;
    i->type = (uint8_t)t;
    pp_set_dst(c, i, 0, &o[0], t);
    pp_set_src(c, i, 0, &o[1], t);
    pp_set_src(c, i, 1, &o[2], PT_U32);
}

/* 'shf' */
void pp_decode_shf(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    bool l = pp_take(md, "l"), r = pp_take(md, "r");
    bool clamp = pp_take(md, "clamp"), wrap = pp_take(md, "wrap");
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    if (l == r || clamp == wrap || t != PT_B32)
        pp_ierr(c, "bad form of '%s'", c->opname);
    pp_nops(c, 4);
    i->op = l ? PX_SHF_L : PX_SHF_R;
    i->type = PT_B32;
    if (clamp)
        i->flags |= PF_SHIFT_CLAMP;
    pp_set_dst(c, i, 0, &o[0], t);
    for (int s = 0; s < 3; s++)
        pp_set_src(c, i, s, &o[1 + s], PT_B32);
}

/* 'prmt' */
void pp_decode_prmt(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    if (t != PT_B32)
        pp_ierr(c, "bad type for '%s'", c->opname);
    pp_nops(c, 4);
    i->op = PX_PRMT;
    i->type = PT_B32;
    pp_set_dst(c, i, 0, &o[0], t);
    for (int s = 0; s < 3; s++)
        pp_set_src(c, i, s, &o[1 + s], PT_B32);
}

/* 'setp' */
void pp_decode_setp(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int cmp = pp_take_one(md, pp_cmp_names);
    static const char *const bops[] = {"and", "or", "xor", NULL};
    int bop = pp_take_one(md, bops);
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    if (cmp < 0)
        pp_ierr(c, "'%s' needs a comparison", c->opname);
    pp_nops(c, bop >= 0 ? 4 : 3);
    if (type_half(t)) {
        if (cmp >= CMP_LO && cmp <= CMP_HS)
            pp_ierr(c, "'%s': .lo/.ls/.hi/.hs compare integers", c->opname);
        if (md->ftz && (t == PT_BF16 || t == PT_BF16X2))
            pp_ierr(c, "'.ftz' is not defined for '%s'", c->opname);
        if ((t == PT_F16X2 || t == PT_BF16X2) && !o[0].pipe[0])
            pp_ierr(c, "'%s' writes two predicates: p|q, one per element", c->opname);
    }
    i->op = type_half(t) ? PX_HSETP : PX_SETP;
    i->type = (uint8_t)t;
    i->mod = (uint8_t)cmp;
    i->bop = (uint8_t)(bop >= 0 ? bop + 1 : BOP_NONE);
    pp_set_dst(c, i, 0, &o[0], PT_PRED);
    if (o[0].pipe[0]) {
        i->d[1] = pp_pred_opnd(c->P, o[0].pipe, false, c->line);
        i->n_dst = 2;
    }
    pp_set_src(c, i, 0, &o[1], t);
    pp_set_src(c, i, 1, &o[2], t);
    if (bop >= 0)
        pp_set_src(c, i, 2, &o[3], PT_PRED);
    i->lat = t == PT_F64 ? PTX_LAT_FP64 : t == PT_F32 || type_half(t) ? PTX_LAT_FP32 : PTX_LAT_INT;
}

/* 'set' */
void pp_decode_set(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int cmp = pp_take_one(md, pp_cmp_names);
    static const char *const bops[] = {"and", "or", "xor", NULL};
    int bop = pp_take_one(md, bops);
    pp_inst_no_extras(c);
    if (cmp < 0)
        pp_ierr(c, "'%s' needs a comparison", c->opname);
    if (md->nt != 2)
        pp_ierr(c, "'%s' needs a destination and a source type", c->opname);
    int dt = md->types[0], st = md->types[1];
    bool sx2 = st == PT_F16X2 || st == PT_BF16X2;
    bool dt_ok =
        sx2 ? (dt == st || dt == PT_U32 || dt == PT_S32)
            : (dt == PT_U32 || dt == PT_S32 || dt == PT_F32 || dt == PT_F16 || dt == PT_BF16 ||
               ((st == PT_F16 || st == PT_BF16) && (dt == PT_U16 || dt == PT_S16)));
    if (!dt_ok || st == PT_PRED || px_type_bytes((unsigned)st) < 2)
        pp_ierr(c, "bad types in '%s'", c->opname);
    bool sflt = px_type_float((unsigned)st);
    if (sflt ? (cmp >= CMP_LO && cmp <= CMP_HS) : cmp > CMP_HS)
        pp_ierr(c, "comparison not defined for the source type in '%s'", c->opname);
    if (md->ftz && (!sflt || st == PT_F64 || st == PT_BF16 || st == PT_BF16X2))
        pp_ierr(c, "'.ftz' is not defined for '%s'", c->opname);
    pp_nops(c, bop >= 0 ? 4 : 3);
    i->op = PX_SET;
    i->type = (uint8_t)dt;
    i->type2 = (uint8_t)st;
    i->mod = (uint8_t)cmp;
    i->bop = (uint8_t)(bop >= 0 ? bop + 1 : BOP_NONE);
    pp_set_dst(c, i, 0, &o[0], dt);
    pp_set_src(c, i, 0, &o[1], st);
    pp_set_src(c, i, 1, &o[2], st);
    if (bop >= 0)
        pp_set_src(c, i, 2, &o[3], PT_PRED);
    i->lat = st == PT_F64 ? PTX_LAT_FP64 : sflt ? PTX_LAT_FP32 : PTX_LAT_INT;
}

/* 'selp' */
void pp_decode_selp(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    pp_nops(c, 4);
    i->op = PX_SELP;
    i->type = (uint8_t)t;
    pp_set_dst(c, i, 0, &o[0], t);
    pp_set_src(c, i, 0, &o[1], t);
    pp_set_src(c, i, 1, &o[2], t);
    pp_set_src(c, i, 2, &o[3], PT_PRED);
}

/* 'slct' */
void pp_decode_slct(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    if (md->nt != 2 || (md->types[1] != PT_S32 && md->types[1] != PT_F32))
        pp_ierr(c, "bad form of '%s'", c->opname);
    pp_inst_no_extras(c);
    pp_nops(c, 4);
    i->op = PX_SLCT;
    i->type = (uint8_t)md->types[0];
    i->type2 = (uint8_t)md->types[1];
    pp_set_dst(c, i, 0, &o[0], md->types[0]);
    pp_set_src(c, i, 0, &o[1], md->types[0]);
    pp_set_src(c, i, 1, &o[2], md->types[0]);
    pp_set_src(c, i, 2, &o[3], md->types[1]);
}

/* 'mov' */
void pp_decode_mov(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    pp_nops(c, 2);
    i->type = (uint8_t)t;
    if (o[0].kind == RO_VEC) {
        /* mov.b64 {a,b}, d: unpack */
        i->op = PX_MOV_UNPACK;
        unsigned eb = px_type_bytes((unsigned)t) / o[0].n;
        if (o[0].n < 2 || o[0].n > 4 || !eb)
            pp_ierr(c, "bad vector in '%s'", c->opname);
        for (unsigned k = 0; k < o[0].n; k++)
            i->d[k] = strcmp(o[0].elem[k], "_") ? pp_reg_opnd(c->P, o[0].elem[k], c->line)
                                                : (struct px_opnd){OK_NONE, 0, 0};
        i->n_dst = (uint8_t)o[0].n;
        pp_set_src(c, i, 0, &o[1], t);
        return;
    }
    pp_set_dst(c, i, 0, &o[0], t);
    if (o[1].kind == RO_VEC) {
        i->op = PX_MOV_PACK;
        if (o[1].n < 2 || o[1].n > 4)
            pp_ierr(c, "bad vector in '%s'", c->opname);
        unsigned eb = px_type_bytes((unsigned)t) / o[1].n;
        static const int elem_type[9] = {[1] = PT_B8, [2] = PT_B16, [4] = PT_B32, [8] = PT_B64};
        if (!eb || eb > 8 || !elem_type[eb])
            pp_ierr(c, "bad vector in '%s'", c->opname);
        for (unsigned k = 0; k < o[1].n; k++)
            i->s[k] = pp_vec_src(c->P, o[1].elem[k], elem_type[eb], c->line);
        i->n_src = (uint8_t)o[1].n;
        return;
    }
    if (t == PT_PRED) {
        if (o[1].kind == RO_NUM) {
            i->op = PX_MOV_PRED_FROM;
            i->mod = o[1].num.bits ? 1 : 0;
            return;
        }
        i->op = PX_PMOV;
        pp_set_src(c, i, 0, &o[1], PT_PRED);
        return;
    }
    if (o[1].kind == RO_NAME) {
        int sr = pp_sreg_of(o[1].name);
        if (sr == -2)
            pp_ierr(c, "special register '%s' needs .x, .y or .z", o[1].name);
        if (sr >= 0) {
            i->op = PX_MOV_SREG;
            i->mod = (uint8_t)sr;
            return;
        }
        if (o[1].name[0] == '%' && !pp_sym_find(c->P, o[1].name))
            pp_ierr(c, "unsupported special register or undeclared register '%s'", o[1].name);
        struct sym *s = pp_need_sym(c->P, o[1].name, c->line);
        if (s->kind == SY_VAR || s->kind == SY_FUNC) {
            if (s->kind == SY_FUNC)
                pp_iunsup(c, "function addresses ('%s') are not supported", o[1].name);
            if (s->space == SP_CONST)
                pp_note_const_read(c->P, s); /* its address, for ld.const through a register */
            uint64_t a = s->off + (uint64_t)o[1].off;
            if (s->rel == AR_FRAME) {
                i->op = PX_MOV_FRAME;
                i->off = (int64_t)a;
            } else if (s->rel == AR_DYNSHM) {
                i->op = PX_MOV_DYNSHM;
                i->off = (int64_t)a;
            } else if (s->space == SP_PARAM) {
                pp_iunsup(c, "taking the address of kernel parameter '%s' is not supported",
                          o[1].name);
            } else {
                i->op = PX_MOV;
                i->s[0] = (struct px_opnd){OK_IMM, 0, pp_imm_row(c->P, a)};
                i->n_src = 1;
                if (s->space == SP_SHARED && s->idx == 1)
                    i->target = 1; /* kernel-own shared: rebased later */
                if (s->space == SP_GLOBAL)
                    i->target = PX_GLOBAL_VAR; /* rebased when placed */
            }
            return;
        }
    }
    i->op = PX_MOV;
    pp_set_src(c, i, 0, &o[1], t);
}

/* 'cvt' */
void pp_decode_cvt(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    if (md->nt != 2)
        pp_ierr(c, "'%s' needs a destination and a source type", c->opname);
    int dt = md->types[0], st = md->types[1];
    if ((dt == PT_F16X2 || dt == PT_BF16X2) && st == PT_F32) {
        /* cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a high, b low */
        bool relu = pp_take(md, "relu"), satf = pp_take(md, "satfinite");
        pp_inst_no_extras(c);
        if ((md->rnd != RND_RN && md->rnd != RND_RZ) || md->intrnd || md->sat || md->ftz)
            pp_ierr(c, "'%s' needs .rn or .rz and no other rounding or .sat/.ftz", c->opname);
        pp_nops(c, 3);
        i->op = PX_CVT_PACK;
        i->type = (uint8_t)dt;
        i->type2 = PT_F32;
        i->bop = (uint8_t)((relu ? PH_RELU : 0) | (satf ? PH_SATFIN : 0));
        pp_set_dst(c, i, 0, &o[0], dt);
        pp_set_src(c, i, 0, &o[1], PT_F32);
        pp_set_src(c, i, 1, &o[2], PT_F32);
        return;
    }
    if (pp_take(md, "relu") || pp_take(md, "satfinite"))
        pp_iunsup(c, "unsupported modifier in '%s'", c->opname);
    pp_inst_no_extras(c);
    pp_nops(c, 2);
    if (dt == PT_F16X2 || dt == PT_BF16X2 || st == PT_F16X2 || st == PT_BF16X2 || dt == PT_PRED ||
        st == PT_PRED)
        pp_ierr(c, "unsupported conversion '%s'", c->opname);
    i->op = PX_CVT;
    i->type = (uint8_t)dt;
    i->type2 = (uint8_t)st;
    pp_set_dst(c, i, 0, &o[0], dt);
    pp_set_src(c, i, 0, &o[1], st);
    i->lat = (dt == PT_F64 || st == PT_F64) ? PTX_LAT_FP64 : PTX_LAT_INT;
    i->bop = CV_GENERIC;
    if (!md->sat && !md->ftz) {
        bool rn = md->rnd == RND_RN, rz = md->rnd == RND_RZ;
        bool d32 = dt == PT_S32 || dt == PT_U32 || dt == PT_B32;
        if (dt == PT_F32 && st == PT_S32 && rn && !md->intrnd)
            i->bop = CV_F32_S32;
        else if (dt == PT_F32 && st == PT_U32 && rn && !md->intrnd)
            i->bop = CV_F32_U32;
        else if (dt == PT_S32 && st == PT_F32 && md->intrnd && rz)
            i->bop = CV_S32_F32_RZ;
        else if (dt == PT_S32 && st == PT_F32 && md->intrnd && rn)
            i->bop = CV_S32_F32_RN;
        else if ((dt == PT_U64 || dt == PT_S64) && st == PT_U32 && !md->rnd)
            i->bop = CV_ZEXT32;
        else if ((dt == PT_S64 || dt == PT_U64) && st == PT_S32 && !md->rnd)
            i->bop = CV_SEXT32;
        else if (d32 && (st == PT_U64 || st == PT_S64 || st == PT_B64) && !md->rnd)
            i->bop = CV_TRUNC32;
        else if (dt == PT_F64 && st == PT_F32 && !md->rnd)
            i->bop = CV_F64_F32;
        else if (dt == PT_F32 && st == PT_F64 && rn && !md->intrnd)
            i->bop = CV_F32_F64_RN;
        else if (dt == PT_F64 && st == PT_S32 && rn && !md->intrnd)
            i->bop = CV_F64_S32;
        else if (dt == PT_F64 && st == PT_U32 && rn && !md->intrnd)
            i->bop = CV_F64_U32;
    }
}

/* 'cvta' */
void pp_decode_cvta(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    bool to = pp_take(md, "to");
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    pp_nops(c, 2);
    if (md->space == SP_NONE || md->space == SP_PARAM || md->space == SP_CONST)
        pp_ierr(c, "unsupported state space in '%s'", c->opname);
    if (t != PT_U64 && t != PT_U32 && t != PT_B64 && t != PT_B32)
        pp_ierr(c, "bad type for '%s'", c->opname);
    i->op = to ? PX_CVTA_TO : PX_CVTA_FROM;
    i->type = (uint8_t)t;
    i->space = (uint8_t)md->space;
    pp_set_dst(c, i, 0, &o[0], t);
    if (o[1].kind == RO_NAME) {
        struct sym *s = pp_need_sym(c->P, o[1].name, c->line);
        if (s->kind == SY_VAR)
            pp_ierr(c, "cvta of a variable name ('%s') is not supported; mov it first", o[1].name);
    }
    pp_set_src(c, i, 0, &o[1], t);
}

/* 'ld', 'ldu', 'st' */
