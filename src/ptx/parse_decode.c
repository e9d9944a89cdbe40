/*
 * parse_decode.c - one instruction from its opcode, modifiers and operands:
 * pp_decode_inst() with the plain arithmetic table and the table of the
 * opcode families' decoders, the helpers every decoder uses (operand
 * counts, destinations, sources, addresses, memory order, half precision),
 * the memory, synchronisation, control-flow and warp-level families, and
 * the scoreboard slots of the decoded instruction. The arithmetic,
 * comparison, move and conversion families are in parse_decode_alu.c.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/parse_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Errors at the instruction being decoded: perr and punsup at its line. */
_Noreturn PRINTF_LIKE(2, 3) void pp_ierr(struct ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pp_set_err(c->P, c->line, fmt, ap);
    va_end(ap);
    longjmp(c->P->jb, 1);
}

_Noreturn PRINTF_LIKE(2, 3) void pp_iunsup(struct ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pp_set_err(c->P, c->line, fmt, ap);
    va_end(ap);
    longjmp(c->P->jb, 2);
}

/* The instruction has no modifier its decoder did not consume. */
void pp_inst_no_extras(struct ctx *c)
{
    pp_no_extras(c->P, c->md, c->opname, c->line);
}

void pp_nops(struct ctx *c, int want)
{
    if (c->n != want)
        pp_perr(c->P, c->line, "'%s' takes %d operands, found %d", c->opname, want, c->n);
}

int pp_one_type(struct ctx *c, struct mods *md)
{
    if (md->nt != 1)
        pp_perr(c->P, c->line, "'%s' needs exactly one type", c->opname);
    return md->types[0];
}

void pp_set_dst(struct ctx *c, struct px_inst *i, int k, const struct rop *o, int type)
{
    if (o->kind != RO_NAME)
        pp_perr(c->P, o->line, "destination of '%s' must be a register", c->opname);
    i->d[k] = type == PT_PRED ? pp_pred_opnd(c->P, o->name, false, o->line)
                              : pp_reg_opnd(c->P, o->name, o->line);
    if (i->n_dst < k + 1)
        i->n_dst = (uint8_t)(k + 1);
}

void pp_set_src(struct ctx *c, struct px_inst *i, int k, const struct rop *o, int type)
{
    if (type == PT_PRED) {
        if (o->kind == RO_NUM) {
            /* a literal predicate: a constant all-true / all-false mask via an imm row */
            pp_perr(c->P, o->line, "literal predicate operand in '%s'", c->opname);
        }
        if (o->kind != RO_NAME)
            pp_perr(c->P, o->line, "bad predicate operand in '%s'", c->opname);
        i->s[k] = pp_pred_opnd(c->P, o->name, o->neg, o->line);
    } else {
        if (o->neg)
            pp_perr(c->P, o->line, "'!' on a non-predicate operand in '%s'", c->opname);
        i->s[k] = pp_val_opnd(c->P, o, type);
    }
    if (i->n_src < k + 1)
        i->n_src = (uint8_t)(k + 1);
}

const char *const pp_cmp_names[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo",
                                    "ls",  "hi",  "hs",  "equ", "neu", "ltu", "leu",
                                    "gtu", "geu", "num", "nan", NULL};

static const struct {
    const char *name;
    int sreg;
} sreg_names[] = {
    {"%tid.x", SR_TID_X},
    {"%tid.y", SR_TID_Y},
    {"%tid.z", SR_TID_Z},
    {"%ntid.x", SR_NTID_X},
    {"%ntid.y", SR_NTID_Y},
    {"%ntid.z", SR_NTID_Z},
    {"%ctaid.x", SR_CTAID_X},
    {"%ctaid.y", SR_CTAID_Y},
    {"%ctaid.z", SR_CTAID_Z},
    {"%nctaid.x", SR_NCTAID_X},
    {"%nctaid.y", SR_NCTAID_Y},
    {"%nctaid.z", SR_NCTAID_Z},
    {"%laneid", SR_LANEID},
    {"%warpid", SR_WARPID},
    {"%nwarpid", SR_NWARPID},
    {"%smid", SR_SMID},
    {"%nsmid", SR_NSMID},
    {"%clock", SR_CLOCK},
    {"%clock_hi", SR_CLOCK_HI},
    {"%clock64", SR_CLOCK64},
    {"%globaltimer", SR_GLOBALTIMER},
    {"%globaltimer_lo", SR_GLOBALTIMER_LO},
    {"%globaltimer_hi", SR_GLOBALTIMER_HI},
    {"%lanemask_eq", SR_LANEMASK_EQ},
    {"%lanemask_lt", SR_LANEMASK_LT},
    {"%lanemask_le", SR_LANEMASK_LE},
    {"%lanemask_gt", SR_LANEMASK_GT},
    {"%lanemask_ge", SR_LANEMASK_GE},
    {"%dynamic_smem_size", SR_DYN_SMEM},
    {"%total_smem_size", SR_TOTAL_SMEM},
    {"%gridid", SR_GRIDID},
    {"%tid", -2},
    {"%ntid", -2},
    {"%ctaid", -2},
    {"%nctaid", -2},
};

int pp_sreg_of(const char *name)
{
    for (size_t k = 0; k < ARRAY_LEN(sreg_names); k++)
        if (!strcmp(name, sreg_names[k].name))
            return sreg_names[k].sreg;
    return -1;
}

/* Fills addr/off/addr_rel of a memory instruction from an [address] operand.
 * `space` is the instruction's state space. */
static void set_addr(struct ctx *c, struct px_inst *i, const struct rop *o, int space)
{
    struct parser *P = c->P;
    if (o->kind != RO_ADDR)
        pp_perr(P, o->line, "'%s' needs an [address] operand", c->opname);
    i->off = o->off;
    i->addr_rel = AR_ABS;
    if (!o->name[0])
        return;
    struct sym *s = pp_need_sym(P, o->name, o->line);
    if (s->kind == SY_REG) {
        i->addr = (struct px_opnd){OK_REG, 0, s->idx};
        i->addr32 = px_type_bytes(s->type) == 4;
        if (space == SP_PARAM && !P->fn->is_entry)
            i->addr_rel = AR_FRAME;
        else if (space == SP_PARAM)
            i->addr_rel = AR_KPARAM;
        return;
    }
    if (s->kind != SY_VAR)
        pp_perr(P, o->line, "'%s' is not a variable or an address register", o->name);
    int vs = s->space;
    if (vs == SP_CONST)
        pp_note_const_read(P, s);
    if (space != SP_GENERIC && vs != space && !(space == SP_LOCAL && vs == SP_PARAM) &&
        !(space == SP_PARAM && vs == SP_LOCAL))
        pp_perr(P, o->line, "'%s' is a .%s variable, accessed as %s", o->name,
                vs == SP_SHARED  ? "shared"
                : vs == SP_LOCAL ? "local"
                : vs == SP_PARAM ? "param"
                                 : "const",
                c->opname);
    if (space == SP_GENERIC)
        pp_punsup(P, o->line, "generic access to variable '%s' by name is not supported", o->name);
    i->off += (int64_t)s->off;
    i->addr_rel = s->rel;
    if (vs == SP_SHARED && s->idx == 1)
        i->target = 1; /* kernel-own shared: rebased at function end */
    if (vs == SP_GLOBAL)
        i->target = PX_GLOBAL_VAR; /* rebased when the host places the module's globals */
}

static void add_label_fix(struct parser *P, uint32_t pc, const char *name, unsigned line)
{
    GROW(P, P->fix, P->n_fix, P->cap_fix);
    P->fix[P->n_fix].pc = pc;
    P->fix[P->n_fix].name = pp_xstrndup(P, name, strlen(name));
    P->fix[P->n_fix].line = line;
    P->n_fix++;
}

static void add_edge(struct parser *P, uint32_t from, uint32_t to, unsigned line)
{
    if (P->n_edges + 3 > P->cap_edges) {
        P->cap_edges = P->cap_edges ? P->cap_edges * 2 : 96;
        P->edges = pp_xrealloc(P, P->edges, P->cap_edges * sizeof(uint32_t));
    }
    P->edges[P->n_edges++] = from;
    P->edges[P->n_edges++] = to;
    P->edges[P->n_edges++] = line;
}

/* The default .sem/.scope of ld/st and atom, and checks of their pairing. */
static void mem_order(struct ctx *c, struct px_inst *i, struct mods *md, bool is_atom)
{
    int sem = md->sem, scope = md->scope;
    if (is_atom) {
        if (sem < 0 || sem == SEM_RELAXED)
            sem = SEM_RELAXED;
        if (sem == SEM_WEAK || sem == SEM_VOLATILE || sem == SEM_SC)
            pp_perr(c->P, c->line, "bad memory order for '%s'", c->opname);
        if (scope < 0)
            scope = SCOPE_GPU;
    } else if (sem < 0 || sem == SEM_WEAK) {
        sem = SEM_WEAK;
        if (scope >= 0)
            pp_perr(c->P, c->line, "a scope needs .relaxed, .acquire or .release in '%s'",
                    c->opname);
        scope = SCOPE_GPU;
    } else if (sem == SEM_VOLATILE) {
        scope = SCOPE_SYS;
    } else if (sem == SEM_RELAXED || sem == SEM_ACQUIRE || sem == SEM_RELEASE) {
        if (scope < 0)
            pp_perr(c->P, c->line, "'%s' needs a scope (.cta, .gpu or .sys)", c->opname);
    } else {
        pp_perr(c->P, c->line, "bad memory order for '%s'", c->opname);
    }
    i->sem = (uint8_t)sem;
    i->scope = (uint8_t)scope;
}

/* Half-precision arithmetic: `op` is the generic op the opcode names (PX_ADD
 * for add ...). Only the modifiers PTX defines for each form are accepted:
 *   add/sub/mul{.rn}{.ftz}{.sat}.f16[x2]   add/sub/mul{.rn}.bf16[x2]
 *   fma.rn{.ftz}{.sat|.relu}.f16[x2]       fma.rn{.relu}.bf16[x2]
 *   min/max{.ftz}{.NaN}{.xorsign.abs}.f16[x2], the same without .ftz on bf16
 *   neg/abs{.ftz}.f16[x2]  neg/abs.bf16[x2]
 *   ex2.approx.f16[x2]  ex2.approx{.ftz}.bf16[x2]  tanh.approx.{f16,bf16}[x2] */
void pp_decode_half(struct ctx *c, struct px_inst *i, int op, int nsrc, struct mods *md, int t)
{
    bool bf = t == PT_BF16 || t == PT_BF16X2;
    bool relu = pp_take(md, "relu"), xorsign = pp_take(md, "xorsign"), abs_ = pp_take(md, "abs");
    pp_inst_no_extras(c);
    int hop;
    switch (op) {
    case PX_ADD:
        hop = PX_HADD;
        break;
    case PX_SUB:
        hop = PX_HSUB;
        break;
    case PX_MUL:
        hop = PX_HMUL;
        break;
    case PX_FMA:
        hop = PX_HFMA;
        break;
    case PX_MIN:
        hop = PX_HMIN;
        break;
    case PX_MAX:
        hop = PX_HMAX;
        break;
    case PX_NEG:
        hop = PX_HNEG;
        break;
    case PX_ABS:
        hop = PX_HABS;
        break;
    case PX_EX2:
        hop = PX_HEX2;
        break;
    case PX_TANH:
        hop = PX_HTANH;
        break;
    default:
        pp_ierr(c, "'%s': no such half-precision instruction in PTX", c->opname);
    }
    bool arith = hop == PX_HADD || hop == PX_HSUB || hop == PX_HMUL || hop == PX_HFMA;
    bool minmax = hop == PX_HMIN || hop == PX_HMAX, approx = hop == PX_HEX2 || hop == PX_HTANH;
    if (md->rnd && (!arith || md->rnd != RND_RN || md->intrnd))
        pp_ierr(c, "bad rounding modifier in '%s' (half precision rounds .rn)", c->opname);
    if (hop == PX_HFMA && md->rnd != RND_RN)
        pp_ierr(c, "'%s' needs .rn", c->opname);
    if (md->ftz && (bf ? hop != PX_HEX2 : approx))
        pp_ierr(c, "'.ftz' is not defined for '%s'", c->opname);
    if (md->sat && (bf || !arith || relu))
        pp_ierr(c, "'.sat' is not defined for '%s'", c->opname);
    if (relu && hop != PX_HFMA)
        pp_ierr(c, "'.relu' is not defined for '%s'", c->opname);
    if ((md->nan || xorsign || abs_) && !minmax)
        pp_ierr(c, "'%s': .NaN and .xorsign.abs belong to min and max", c->opname);
    if (xorsign != abs_)
        pp_ierr(c, "'%s': .xorsign and .abs come together", c->opname);
    if (md->approx != approx)
        pp_ierr(c, approx ? "'%s' needs .approx" : "'.approx' is not defined for '%s'", c->opname);
    pp_nops(c, 1 + nsrc);
    i->op = (uint16_t)hop;
    i->type = (uint8_t)t;
    i->bop = (uint8_t)((relu ? PH_RELU : 0) | (md->nan ? PH_NAN : 0) | (xorsign ? PH_XORSIGN : 0));
    i->lat = approx ? PTX_LAT_SFU : PTX_LAT_FP32;
    pp_set_dst(c, i, 0, &c->o[0], t);
    for (int s = 0; s < nsrc; s++)
        pp_set_src(c, i, s, &c->o[1 + s], t);
}

static void decode_ld_st(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    bool is_st = c->base[0] == 's';
    int t = pp_one_type(c, md);
    if (pp_take(md, "mmio"))
        pp_ierr(c, "'.mmio' in '%s' is not supported", c->opname);
    pp_inst_no_extras(c);
    pp_nops(c, 2);
    i->op = is_st ? PX_ST : PX_LD;
    i->type = (uint8_t)t;
    i->vec = (uint8_t)md->vec;
    i->space = (uint8_t)(md->space ? md->space : SP_GENERIC);
    if (t == PT_PRED)
        pp_ierr(c, "bad type for '%s'", c->opname);
    if (i->space != SP_GLOBAL && i->space != SP_GENERIC && md->sem >= 0 && md->sem != SEM_WEAK &&
        md->sem != SEM_VOLATILE && i->space != SP_SHARED)
        pp_ierr(c, "memory order on a .%s access", i->space == SP_LOCAL ? "local" : "param");
    mem_order(c, i, md, false);
    if (is_st && md->sem == SEM_ACQUIRE)
        pp_ierr(c, "st cannot be .acquire");
    if (!is_st && md->sem == SEM_RELEASE)
        pp_ierr(c, "ld cannot be .release");
    const struct rop *data = is_st ? &o[1] : &o[0];
    const struct rop *ad = is_st ? &o[0] : &o[1];
    if (md->vec > 1) {
        if (data->kind != RO_VEC || data->n != (unsigned)md->vec)
            pp_ierr(c, "'%s' needs a vector of %d registers", c->opname, md->vec);
        for (int k = 0; k < md->vec; k++) {
            if (!strcmp(data->elem[k], "_")) {
                if (is_st)
                    pp_ierr(c, "sink '_' in a store");
                i->d[k] = (struct px_opnd){OK_NONE, 0, 0};
                continue;
            }
            struct px_opnd r = is_st ? pp_vec_src(c->P, data->elem[k], t, c->line)
                                     : pp_reg_opnd(c->P, data->elem[k], c->line);
            if (is_st)
                i->s[1 + k] = r;
            else
                i->d[k] = r;
        }
        if (is_st)
            i->n_src = (uint8_t)(1 + md->vec);
        else
            i->n_dst = (uint8_t)md->vec;
    } else if (is_st) {
        pp_set_src(c, i, 1, data, t);
    } else {
        pp_set_dst(c, i, 0, data, t);
    }
    set_addr(c, i, ad, i->space);
    if (i->space == SP_PARAM && i->addr_rel == AR_FRAME)
        i->space = SP_LOCAL; /* device-function params live in the frame */
    i->lat = (i->space == SP_GLOBAL || i->space == SP_GENERIC) ? PTX_LAT_GMEM : PTX_LAT_SHMEM;
    if (i->space == SP_PARAM && is_st)
        pp_ierr(c, "st.param to a kernel parameter");
}

/* 'atom', 'red' */
static void decode_atom_red(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    bool red = c->base[0] == 'r';
    static const char *const kinds[] = {"add", "sub", "min", "max",  "inc", "dec",
                                        "and", "or",  "xor", "exch", "cas", NULL};
    int k = pp_take_one(md, kinds);
    bool noftz = pp_take(md, "noftz");
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    if (k < 0)
        pp_ierr(c, "'%s' needs an operation", c->opname);
    if (md->vec > 1)
        pp_ierr(c, "vector atomics ('%s') are not supported", c->opname);
    int at = px_atom_type((unsigned)t);
    if (at < 0)
        pp_ierr(c, "unsupported atomic type in '%s'", c->opname);
    bool half = type_half(t);
    if (half && (k != ATOM_ADD || !noftz))
        pp_ierr(c, "half-precision atomics are add.noftz only ('%s')", c->opname);
    if (noftz && !half)
        pp_ierr(c, "'.noftz' needs a half-precision type ('%s')", c->opname);
    if (t == PT_B16 && k != ATOM_CAS)
        pp_ierr(c, "16-bit atomics are cas only ('%s')", c->opname);
    mem_order(c, i, md, true);
    i->op = red ? PX_RED : PX_ATOM;
    i->type = (uint8_t)t;
    i->mod = (uint8_t)k;
    i->space = (uint8_t)(md->space ? md->space : SP_GENERIC);
    if (i->space != SP_GLOBAL && i->space != SP_SHARED && i->space != SP_GENERIC)
        pp_ierr(c, "atomics on this state space are not supported ('%s')", c->opname);
    int no = (k == ATOM_CAS ? 3 : 2) + (red ? 0 : 1);
    pp_nops(c, no);
    int b = 0;
    if (!red)
        pp_set_dst(c, i, 0, &o[b++], t);
    set_addr(c, i, &o[b++], i->space);
    pp_set_src(c, i, 0, &o[b++], t);
    if (k == ATOM_CAS)
        pp_set_src(c, i, 1, &o[b++], t);
    i->lat = i->space == SP_SHARED ? PTX_LAT_SHMEM : PTX_LAT_GMEM;
}

/* 'fence', 'membar' */
static void decode_fence(struct ctx *c, struct px_inst *i)
{
    struct mods *md = c->md;
    if (pp_take(md, "proxy") || pp_take(md, "mbarrier_init") || pp_take(md, "op_restrict"))
        pp_ierr(c, "'%s' is not supported", c->opname);
    bool gl = pp_take(md, "gl");
    pp_inst_no_extras(c);
    pp_nops(c, 0);
    i->op = PX_FENCE;
    i->lat = PTX_LAT_GMEM;
    if (c->base[0] == 'm') {
        i->sem = SEM_SC;
        i->scope = gl ? SCOPE_GPU : md->scope;
        if (!gl && md->scope < 0)
            pp_ierr(c, "'%s' needs .cta, .gl or .sys", c->opname);
    } else {
        if (md->sem != SEM_SC && md->sem != SEM_ACQ_REL)
            pp_ierr(c, "'%s' needs .sc or .acq_rel", c->opname);
        if (md->scope < 0)
            pp_ierr(c, "'%s' needs a scope", c->opname);
        i->sem = (uint8_t)md->sem;
        i->scope = (uint8_t)md->scope;
    }
}

/* 'bar', 'barrier' */
static void decode_barrier(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    i->op = PX_BAR;
    i->lat = PTX_LAT_BRANCH;
    if (pp_take(md, "warp")) {
        if (!md->sync)
            pp_ierr(c, "bad form of '%s'", c->opname);
        pp_inst_no_extras(c);
        pp_nops(c, 1);
        i->op = PX_BAR_WARP;
        pp_set_src(c, i, 0, &o[0], PT_U32);
        return;
    }
    bool arrive = pp_take(md, "arrive");
    bool red = pp_take(md, "red");
    static const char *const rk[] = {"popc", "and", "or", NULL};
    int rop = red ? pp_take_one(md, rk) : -1;
    pp_inst_no_extras(c);
    if (red && rop < 0)
        pp_ierr(c, "'%s' needs .popc, .and or .or", c->opname);
    if (!arrive && !red && !md->sync && strcmp(c->opname, "bar"))
        pp_ierr(c, "bad form of '%s'", c->opname);
    i->mod = (uint8_t)(arrive ? 1 : red ? 2 + rop : 0);
    if (red) {
        /* bar.red.op.type d, a{, b}, {!}c */
        if (c->n != 3 && c->n != 4)
            pp_ierr(c, "'%s' takes 3 or 4 operands", c->opname);
        int t = rop == 0 ? PT_U32 : PT_PRED;
        pp_set_dst(c, i, 0, &o[0], t);
        i->type = (uint8_t)t;
        pp_set_src(c, i, 0, &o[1], PT_U32);
        if (c->n == 4)
            pp_set_src(c, i, 1, &o[2], PT_U32);
        pp_set_src(c, i, 2, &o[c->n - 1], PT_PRED);
        if (c->n == 3)
            i->s[1].kind = OK_NONE;
        return;
    }
    if (c->n < 1 || c->n > 2)
        pp_ierr(c, "'%s' takes 1 or 2 operands", c->opname);
    if (arrive && c->n != 2)
        pp_ierr(c, "'%s' needs a thread count", c->opname);
    pp_set_src(c, i, 0, &o[0], PT_U32);
    if (c->n == 2)
        pp_set_src(c, i, 1, &o[1], PT_U32);
}

/* 'bra' */
static void decode_bra(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    pp_inst_no_extras(c);
    pp_nops(c, 1);
    if (o[0].kind != RO_NAME)
        pp_ierr(c, "'%s' needs a label", c->opname);
    i->op = PX_BRA;
    i->lat = PTX_LAT_BRANCH;
    if (md->uni)
        i->flags |= PF_UNI;
    add_label_fix(c->P, (uint32_t)(i - c->P->m->ins), o[0].name, c->line);
}

/* 'call' */
static void decode_call(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    pp_inst_no_extras(c);
    i->op = PX_CALL;
    i->lat = PTX_LAT_BRANCH;
    int k = 0;
    const struct rop *rets = NULL, *args = NULL;
    if (k < c->n && o[k].kind == RO_LIST)
        rets = &o[k++];
    if (k >= c->n || o[k].kind != RO_NAME)
        pp_ierr(c, "'%s' needs a function name", c->opname);
    struct sym *f = pp_need_sym(c->P, o[k].name, c->line);
    if (f->kind != SY_FUNC)
        pp_ierr(c, "indirect calls are not supported ('%s' is not a function)", o[k].name);
    int tx = pp_tx_marker(o[k].name);
    k++;
    if (tx) {
        /* a transaction marker: no results, at most an empty argument list */
        if (rets || (k < c->n && (o[k].kind != RO_LIST || o[k].n)) || k + (k < c->n) != c->n)
            pp_ierr(c, "'%s' takes no arguments and returns nothing", o[k - 1].name);
        i->op = (uint16_t)tx;
        c->P->m->has_tx = true;
        return;
    }
    if (k < c->n && o[k].kind == RO_LIST)
        args = &o[k++];
    if (k != c->n)
        pp_ierr(c, "indirect calls with a prototype are not supported");
    struct ptx_module *m = c->P->m;
    GROW(c->P, m->calls, m->n_calls, c->P->cap_calls);
    struct px_call *cs = &m->calls[m->n_calls];
    memset(cs, 0, sizeof(*cs));
    struct px_func *callee = &m->funcs[f->idx];
    unsigned na = args ? args->n : 0, nr = rets ? rets->n : 0;
    if (na != callee->n_params || nr != callee->n_rets)
        pp_ierr(c, "call of '%s' with %u arguments and %u results; it has %u and %u", callee->name,
                na, nr, callee->n_params, callee->n_rets);
    /* device printf: CUDA's vprintf(const char *fmt, void *args), declared
     * .extern without a body; the interpreter records the call instead */
    bool is_printf = !strcmp(callee->name, "vprintf") && !callee->defined && na == 2 && nr <= 1 &&
                     callee->params[0].size == 8 && callee->params[1].size == 8 &&
                     (!nr || callee->rets[0].size == 4);
    if (nr > 4)
        pp_ierr(c, "more than 4 return values");
    for (unsigned a = 0; a < na + nr; a++) {
        const char *nm = a < na ? args->elem[a] : rets->elem[a - na];
        struct sym *s = pp_need_sym(c->P, nm, c->line);
        if (s->kind != SY_VAR || s->space != SP_PARAM || s->rel != AR_FRAME)
            pp_ierr(c, "call operand '%s' is not a .param variable of this function", nm);
        if (a < na) {
            cs->arg_off[a] = (uint32_t)s->off;
            cs->arg_size[a] = (uint32_t)s->size;
        } else {
            cs->ret_off[a - na] = (uint32_t)s->off;
            cs->ret_size[a - na] = (uint32_t)s->size;
        }
    }
    cs->n_args = na;
    cs->n_rets = nr;
    i->call = m->n_calls++;
    i->target = f->idx;
    if (md->uni)
        i->flags |= PF_UNI;
    if (is_printf) {
        i->op = PX_PRINTF;
        return;
    }
    add_edge(c->P, (uint32_t)(c->P->fn - m->funcs), f->idx, c->line);
}

/* 'ret', 'exit', 'trap' */
static void decode_ret_exit(struct ctx *c, struct px_inst *i)
{
    pp_inst_no_extras(c);
    pp_nops(c, 0);
    i->op = c->base[0] == 'r' ? PX_RET : c->base[0] == 'e' ? PX_EXIT : PX_TRAP;
    if (i->op == PX_RET && c->P->fn->is_entry)
        i->op = PX_EXIT;
    i->lat = PTX_LAT_BRANCH;
}

/* 'shfl' */
static void decode_shfl(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    static const char *const modes[] = {"up", "down", "bfly", "idx", NULL};
    int mode = pp_take_one(md, modes);
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    if (mode < 0 || t != PT_B32)
        pp_ierr(c, "bad form of '%s'", c->opname);
    if (!md->sync)
        pp_ierr(c, "'%s' without .sync is not supported", c->opname);
    pp_nops(c, 5);
    i->op = PX_SHFL;
    i->mod = (uint8_t)mode;
    i->type = PT_B32;
    i->lat = PTX_LAT_BRANCH;
    pp_set_dst(c, i, 0, &o[0], PT_B32);
    if (o[0].pipe[0]) {
        i->d[1] = pp_pred_opnd(c->P, o[0].pipe, false, c->line);
        i->n_dst = 2;
    }
    for (int s = 0; s < 4; s++)
        pp_set_src(c, i, s, &o[1 + s], PT_B32);
}

/* 'vote' */
static void decode_vote(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    static const char *const modes[] = {"all", "any", "uni", "ballot", NULL};
    int mode = pp_take_one(md, modes);
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    if (mode < 0 || (mode == 3) != (t == PT_B32) || (mode != 3 && t != PT_PRED))
        pp_ierr(c, "bad form of '%s'", c->opname);
    pp_nops(c, md->sync ? 3 : 2);
    i->op = PX_VOTE;
    i->mod = (uint8_t)mode;
    i->type = (uint8_t)t;
    i->lat = PTX_LAT_BRANCH;
    pp_set_dst(c, i, 0, &o[0], t);
    pp_set_src(c, i, 0, &o[1], PT_PRED);
    if (md->sync)
        pp_set_src(c, i, 1, &o[2], PT_U32);
}

/* 'activemask' */
static void decode_activemask(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    pp_nops(c, 1);
    i->op = PX_ACTIVEMASK;
    i->type = (uint8_t)t;
    i->lat = PTX_LAT_BRANCH;
    pp_set_dst(c, i, 0, &o[0], PT_B32);
}

/* 'match' */
static void decode_match(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    static const char *const modes[] = {"any", "all", NULL};
    int mode = pp_take_one(md, modes);
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    if (mode < 0 || (t != PT_B32 && t != PT_B64) || !md->sync)
        pp_ierr(c, "bad form of '%s'", c->opname);
    pp_nops(c, 3);
    i->op = PX_MATCH;
    i->mod = (uint8_t)mode;
    i->type = (uint8_t)t;
    i->lat = PTX_LAT_BRANCH;
    pp_set_dst(c, i, 0, &o[0], PT_B32);
    if (o[0].pipe[0]) {
        i->d[1] = pp_pred_opnd(c->P, o[0].pipe, false, c->line);
        i->n_dst = 2;
    }
    pp_set_src(c, i, 0, &o[1], t);
    pp_set_src(c, i, 1, &o[2], PT_U32);
}

/* 'redux' */
static void decode_redux(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    static const char *const ops[] = {"add", "min", "max", "and", "or", "xor", NULL};
    int k = pp_take_one(md, ops);
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    if (k < 0 || (t != PT_U32 && t != PT_S32 && t != PT_B32) || !md->sync)
        pp_ierr(c, "bad form of '%s'", c->opname);
    pp_nops(c, 3);
    i->op = PX_REDUX;
    i->mod = (uint8_t)k;
    i->type = (uint8_t)t;
    i->lat = PTX_LAT_BRANCH;
    pp_set_dst(c, i, 0, &o[0], t);
    pp_set_src(c, i, 0, &o[1], t);
    pp_set_src(c, i, 1, &o[2], PT_U32);
}

/* 'prefetch', 'prefetchu' */
static void decode_prefetch(struct ctx *c, struct px_inst *i)
{
    struct mods *md = c->md;
    pp_take(md, "L1");
    pp_take(md, "L2");
    pp_take(md, "tensormap");
    pp_inst_no_extras(c);
    pp_nops(c, 1);
    i->op = PX_NOP;
}

/* 'nanosleep' */
static void decode_nanosleep(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int t = pp_one_type(c, md);
    pp_inst_no_extras(c);
    pp_nops(c, 1);
    i->op = PX_NOP;
    pp_set_src(c, i, 0, &o[0], t);
    i->lat = PTX_LAT_BRANCH;
}

/* The decoders of the opcode families by base name; decode_inst tries the
 * plain arithmetic table first. */
static const struct {
    const char *name;
    void (*decode)(struct ctx *c, struct px_inst *i);
} decoders[] = {
    {"mul", pp_decode_mul_mad},
    {"mad", pp_decode_mul_mad},
    {"shl", pp_decode_shift},
    {"shr", pp_decode_shift},
    {"shf", pp_decode_shf},
    {"prmt", pp_decode_prmt},
    {"setp", pp_decode_setp},
    {"set", pp_decode_set},
    {"selp", pp_decode_selp},
    {"slct", pp_decode_slct},
    {"mov", pp_decode_mov},
    {"cvt", pp_decode_cvt},
    {"cvta", pp_decode_cvta},
    {"ld", decode_ld_st},
    {"ldu", decode_ld_st},
    {"st", decode_ld_st},
    {"atom", decode_atom_red},
    {"red", decode_atom_red},
    {"fence", decode_fence},
    {"membar", decode_fence},
    {"bar", decode_barrier},
    {"barrier", decode_barrier},
    {"bra", decode_bra},
    {"call", decode_call},
    {"ret", decode_ret_exit},
    {"exit", decode_ret_exit},
    {"trap", decode_ret_exit},
    {"shfl", decode_shfl},
    {"vote", decode_vote},
    {"activemask", decode_activemask},
    {"match", decode_match},
    {"redux", decode_redux},
    {"prefetch", decode_prefetch},
    {"prefetchu", decode_prefetch},
    {"nanosleep", decode_nanosleep},
};

/* One instruction: its common modifiers, then the plain arithmetic table or
 * its family's decoder. */
void pp_decode_inst(struct parser *P, struct px_inst *i, char *base, char *parts[], int np,
                    struct rop *o, int n, const char *opname, unsigned line)
{
    struct mods md;
    struct ctx cx = {P, opname, line, o, n, base, &md};
    struct ctx *c = &cx;
    pp_split_mods(P, parts, np, &md, opname, line);
    if (md.ftz)
        i->flags |= PF_FTZ;
    if (md.sat)
        i->flags |= PF_SAT;
    if (md.approx)
        i->flags |= PF_APPROX;
    if (md.intrnd)
        i->flags |= PF_INTRND;
    i->mod = (uint8_t)md.rnd;
    i->lat = PTX_LAT_INT;

    /* ---- plain arithmetic: d, a, b[, c] ---- */
    static const struct {
        const char *name;
        int op, nsrc;
    } arith[] = {
        {"add", PX_ADD, 2},   {"sub", PX_SUB, 2},
        {"div", PX_DIV, 2},   {"rem", PX_REM, 2},
        {"min", PX_MIN, 2},   {"max", PX_MAX, 2},
        {"abs", PX_ABS, 1},   {"neg", PX_NEG, 1},
        {"and", PX_AND, 2},   {"or", PX_OR, 2},
        {"xor", PX_XOR, 2},   {"not", PX_NOT, 1},
        {"cnot", PX_CNOT, 1}, {"popc", PX_POPC, 1},
        {"clz", PX_CLZ, 1},   {"brev", PX_BREV, 1},
        {"bfe", PX_BFE, 3},   {"bfi", PX_BFI, 4},
        {"fma", PX_FMA, 3},   {"sqrt", PX_SQRT, 1},
        {"rcp", PX_RCP, 1},   {"rsqrt", PX_RSQRT, 1},
        {"ex2", PX_EX2, 1},   {"lg2", PX_LG2, 1},
        {"sin", PX_SIN, 1},   {"cos", PX_COS, 1},
        {"tanh", PX_TANH, 1}, {"copysign", PX_COPYSIGN, 2},
    };
    for (size_t k = 0; k < ARRAY_LEN(arith); k++) {
        if (strcmp(base, arith[k].name))
            continue;
        int t = pp_one_type(c, &md);
        if (pp_take(&md, "cc") || !strcmp(base, "addc") || !strcmp(base, "subc"))
            pp_punsup(P, line, "carry arithmetic ('%s') is not supported", opname);
        if (type_half(t)) {
            pp_decode_half(c, i, arith[k].op, arith[k].nsrc, &md, t);
            return;
        }
        if (pp_take(&md, "relu"))
            pp_punsup(P, line, "'.relu' outside half precision ('%s') is not supported", opname);
        pp_no_extras(P, &md, opname, line);
        pp_nops(c, 1 + arith[k].nsrc);
        i->op = (uint16_t)arith[k].op;
        i->type = (uint8_t)t;
        if (t == PT_PRED) {
            switch (arith[k].op) {
            case PX_AND:
                i->op = PX_PAND;
                break;
            case PX_OR:
                i->op = PX_POR;
                break;
            case PX_XOR:
                i->op = PX_PXOR;
                break;
            case PX_NOT:
                i->op = PX_PNOT;
                break;
            default:
                pp_perr(P, line, "'%s' on predicates is not valid PTX", opname);
            }
        }
        pp_set_dst(c, i, 0, &o[0], t);
        int st = t;
        for (int s = 0; s < arith[k].nsrc; s++) {
            int ty = st;
            if ((arith[k].op == PX_BFE && s > 0) || (arith[k].op == PX_BFI && s > 1))
                ty = PT_U32;
            pp_set_src(c, i, s, &o[1 + s], ty);
        }
        if (t == PT_F64)
            i->lat = PTX_LAT_FP64;
        else if (t == PT_F32)
            i->lat = PTX_LAT_FP32;
        if (arith[k].op == PX_DIV || arith[k].op == PX_REM || arith[k].op >= PX_SQRT)
            i->lat = (t == PT_F64 && arith[k].op < PX_SQRT) ? PTX_LAT_FP64 : PTX_LAT_SFU;
        if ((arith[k].op == PX_DIV || arith[k].op == PX_REM) && !px_type_float((unsigned)t))
            i->lat = PTX_LAT_SFU;
        if (arith[k].op == PX_DIV && t == PT_F64)
            i->lat = PTX_LAT_SFU;
        if (arith[k].op >= PX_SQRT && arith[k].op <= PX_TANH && !px_type_float((unsigned)t))
            pp_perr(P, line, "'%s' needs a float type", opname);
        return;
    }
    /* ---- every other family: its decoder ---- */
    for (size_t k = 0; k < ARRAY_LEN(decoders); k++)
        if (!strcmp(base, decoders[k].name)) {
            decoders[k].decode(c, i);
            return;
        }
    pp_perr(P, line, "unknown instruction '%s' (not a PTX instruction)", opname);
}

/* The opcode latency slot of an ALU instruction (enum ptx_oplat), the way
 * GPGPU-Sim's set_opcode_and_latency sorts opcodes: by operation, then f32,
 * f64 or anything else (integers, and half precision, which it times as
 * integers). Opcodes it does not list take one cycle (ONE). */
uint8_t pp_oplat_slot(const struct px_inst *i)
{
    if (i->op == PX_SHFL)
        return PTX_OPLAT_INT_SHFL;
    if (i->lat > PTX_LAT_SFU)
        return PTX_OPLAT_NONE;
    unsigned row; /* add, max, mul, mad, div as in -ptx_opcode_latency_* */
    switch (i->op) {
    case PX_ADD:
    case PX_SUB:
    case PX_HADD:
    case PX_HSUB:
        row = 0;
        break;
    case PX_MIN:
    case PX_MAX:
    case PX_HMIN:
    case PX_HMAX:
        row = 1;
        break;
    case PX_MUL:
    case PX_MUL_LO:
    case PX_MUL_HI:
    case PX_MUL_WIDE:
    case PX_HMUL:
        row = 2;
        break;
    case PX_MAD_LO:
    case PX_MAD_HI:
    case PX_MAD_WIDE:
    case PX_FMA:
    case PX_HFMA:
        row = 3;
        break;
    case PX_DIV:
    case PX_REM:
        row = 4;
        break;
    case PX_SQRT:
    case PX_RCP:
    case PX_RSQRT:
    case PX_EX2:
    case PX_LG2:
    case PX_SIN:
    case PX_COS:
    case PX_HEX2:
        return PTX_OPLAT_SFU;
    default:
        return PTX_OPLAT_ONE;
    }
    if (i->type == PT_F32)
        return (uint8_t)(PTX_OPLAT_FP_ADD + row);
    if (i->type == PT_F64)
        return (uint8_t)(PTX_OPLAT_DP_ADD + row);
    return (uint8_t)(PTX_OPLAT_INT_ADD + row);
}

/* Scoreboard slots: every register row and predicate the instruction touches. */
void pp_fill_sb(struct parser *P, struct px_inst *i)
{
    i->n_sb = 0;
    const struct px_opnd *ops[12];
    int n = 0;
    for (int k = 0; k < 4; k++)
        ops[n++] = &i->d[k];
    for (int k = 0; k < 5; k++)
        ops[n++] = &i->s[k];
    ops[n++] = &i->addr;
    for (int k = 0; k < n; k++) {
        const struct px_opnd *o = ops[k];
        uint32_t slot;
        if (o->kind == OK_REG)
            slot = o->idx;
        else if (o->kind == OK_PRED)
            slot = o->idx | 0x80000000u;
        else
            continue;
        bool dup = false;
        for (int j = 0; j < i->n_sb; j++)
            dup |= i->sb[j] == slot;
        if (dup)
            continue;
        if (i->n_sb >= PX_MAX_SB)
            pp_perr(P, i->line, "too many registers in one instruction");
        i->sb[i->n_sb++] = slot;
    }
    if (i->guard >= 0) {
        uint32_t slot = (uint32_t)i->guard | 0x80000000u;
        bool dup = false;
        for (int j = 0; j < i->n_sb; j++)
            dup |= i->sb[j] == slot;
        if (!dup) {
            if (i->n_sb >= PX_MAX_SB)
                pp_perr(P, i->line, "too many registers in one instruction");
            i->sb[i->n_sb++] = slot;
        }
    }
}
