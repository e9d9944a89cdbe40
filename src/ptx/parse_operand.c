/*
 * parse_operand.c - an instruction's operands as written (names, numbers,
 * vectors, [addresses], lists, the _ sink) and their resolution against the
 * symbol table into the px_opnd of ir.h (registers, predicates, immediates
 * with their literal bits); and the split of an opcode's dotted modifiers
 * into the common ones (rounding, .ftz, .sat ...) and the op-specific rest.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/parse_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pp_parse_name_into(struct parser *P, char *dst, const char *what)
{
    struct tok t;
    const char *w = pp_word(P, &t, what);
    snprintf(dst, 128, "%s", w);
}

void pp_parse_operand(struct parser *P, struct rop *o)
{
    memset(o, 0, sizeof(*o));
    struct tok t = pp_peek(P);
    o->line = t.line;
    if (pp_accept(P, "{")) {
        o->kind = RO_VEC;
        do {
            if (o->n >= 16)
                pp_perr(P, t.line, "vector operand with more than 16 elements");
            struct tok e = pp_peek(P);
            bool minus = e.kind == TK_PUNCT && e.s[0] == '-';
            if (minus) {
                pp_next(P);
                e = pp_peek(P);
            }
            if (pp_accept(P, "_")) {
                snprintf(o->elem[o->n++], 128, "_");
            } else if (e.kind == TK_NUM) {
                /* an immediate element ({0, %rs1} in cuda_bf16.h), kept as text */
                pp_next(P);
                snprintf(o->elem[o->n++], 128, "%s%.*s", minus ? "-" : "",
                         (int)(e.len > 120 ? 120 : e.len), e.s);
            } else {
                if (minus)
                    pp_perr(P, e.line, "'-' before a register in a vector operand");
                pp_parse_name_into(P, o->elem[o->n++], "a register in a vector operand");
            }
        } while (pp_accept(P, ","));
        pp_expect(P, "}");
        return;
    }
    if (pp_accept(P, "(")) {
        o->kind = RO_LIST;
        if (!pp_accept(P, ")")) {
            do {
                if (o->n >= 16)
                    pp_perr(P, t.line, "more than 16 call parameters");
                pp_parse_name_into(P, o->elem[o->n++], "a parameter name");
            } while (pp_accept(P, ","));
            pp_expect(P, ")");
        }
        return;
    }
    if (pp_accept(P, "[")) {
        o->kind = RO_ADDR;
        struct tok a = pp_peek(P);
        if (a.kind == TK_WORD) {
            pp_parse_name_into(P, o->name, "an address");
            if (pp_accept(P, "+")) {
                bool neg = pp_accept(P, "-");
                struct tok n = pp_next(P);
                uint64_t v;
                if (n.kind != TK_NUM || !pp_parse_int_text(n.s, n.len, &v))
                    pp_perr(P, n.line, "bad address offset");
                o->off = neg ? -(int64_t)v : (int64_t)v;
            } else if (pp_accept(P, "-")) {
                struct tok n = pp_next(P);
                uint64_t v;
                if (n.kind != TK_NUM || !pp_parse_int_text(n.s, n.len, &v))
                    pp_perr(P, n.line, "bad address offset");
                o->off = -(int64_t)v;
            }
        } else {
            bool neg = pp_accept(P, "-");
            struct tok n = pp_next(P);
            uint64_t v;
            if (n.kind != TK_NUM || !pp_parse_int_text(n.s, n.len, &v)) {
                char b[64];
                pp_perr(P, n.line, "bad address operand '%s'", pp_tok_text(n, b, sizeof b));
            }
            o->off = neg ? -(int64_t)v : (int64_t)v;
        }
        pp_expect(P, "]");
        return;
    }
    if (pp_accept(P, "!")) {
        o->neg = true;
        t = pp_peek(P);
    }
    if (pp_accept(P, "-")) {
        o->minus = true;
        t = pp_peek(P);
    }
    if (t.kind == TK_NUM) {
        pp_next(P);
        if (!pp_parse_num_text(t.s, t.len, &o->num)) {
            char b[64];
            pp_perr(P, t.line, "bad number '%s'", pp_tok_text(t, b, sizeof b));
        }
        o->kind = RO_NUM;
        return;
    }
    if (t.kind == TK_WORD) {
        pp_parse_name_into(P, o->name, "an operand");
        o->kind = tok_is(t, "_") ? RO_SINK : RO_NAME;
        if (pp_accept(P, "|"))
            pp_parse_name_into(P, o->pipe, "a predicate after '|'");
        if (pp_accept(P, "+")) {
            /* symbol+offset as an address value (mov, cvta) */
            struct tok n = pp_next(P);
            uint64_t v;
            if (n.kind != TK_NUM || !pp_parse_int_text(n.s, n.len, &v))
                pp_perr(P, n.line, "bad symbol offset");
            o->off = (int64_t)v;
        }
        return;
    }
    char b[64];
    pp_perr(P, t.line, "bad operand '%s'", pp_tok_text(t, b, sizeof b));
}

/* ------------------------------------------------------------------ operand resolution */

/* The transaction markers (docs/transactions.md): calls of these functions,
 * under their C or C++ (Itanium-mangled) names, begin and commit a
 * transaction instead of calling. Returns PX_TXBEGIN, PX_TXCOMMIT or 0. */
int pp_tx_marker(const char *name)
{
    if (!strcmp(name, "gpucoh_tx_begin") || !strcmp(name, "_Z15gpucoh_tx_beginv"))
        return PX_TXBEGIN;
    if (!strcmp(name, "gpucoh_tx_commit") || !strcmp(name, "_Z16gpucoh_tx_commitv"))
        return PX_TXCOMMIT;
    return 0;
}

struct sym *pp_need_sym(struct parser *P, const char *name, unsigned line)
{
    struct sym *s = pp_sym_find(P, name);
    if (!s) {
        if (name[0] == '%')
            pp_perr(P, line, "undeclared register '%s'", name);
        pp_perr(P, line, "undeclared identifier '%s'", name);
    }
    return s;
}

struct px_opnd pp_reg_opnd(struct parser *P, const char *name, unsigned line)
{
    struct sym *s = pp_need_sym(P, name, line);
    if (s->kind == SY_REG)
        return (struct px_opnd){OK_REG, 0, s->idx};
    if (s->kind == SY_PRED)
        pp_perr(P, line, "predicate '%s' used where a register is expected", name);
    pp_perr(P, line, "'%s' is not a register", name);
}

struct px_opnd pp_pred_opnd(struct parser *P, const char *name, bool neg, unsigned line)
{
    struct sym *s = pp_need_sym(P, name, line);
    if (s->kind != SY_PRED)
        pp_perr(P, line, "'%s' is not a predicate", name);
    return (struct px_opnd){OK_PRED, neg, s->idx};
}

/* Converts a literal to the bit pattern of `type`. */
uint64_t pp_literal_bits(struct parser *P, const struct rop *o, int type)
{
    struct num n = o->num;
    if (type == PT_F32) {
        float f;
        if (n.is_float == 1) {
            f = f32_from_bits((uint32_t)n.bits);
        } else if (n.is_float == 2) {
            f = (float)f64_from_bits(n.bits);
        } else {
            f = (float)n.bits;
        }
        if (o->minus)
            f = -f;
        return f32_bits(f);
    }
    if (type == PT_F64) {
        double d;
        if (n.is_float == 1) {
            d = f32_from_bits((uint32_t)n.bits);
        } else if (n.is_float == 2) {
            d = f64_from_bits(n.bits);
        } else {
            d = (double)n.bits;
        }
        if (o->minus)
            d = -d;
        return f64_bits(d);
    }
    if (n.is_float && (type == PT_F16 || type == PT_BF16 || type == PT_F16X2 || type == PT_BF16X2))
        pp_perr(P, o->line,
                "floating-point literal for a .%s operand (PTX writes half "
                "constants as bit patterns, e.g. mov.b16 %%h, 0x3c00)",
                pp_type_names[type]);
    if (n.is_float) {
        /* hex float literal used as raw bits for a bit-size operand */
        if (n.is_float == 2 && px_type_bytes((unsigned)type) < 8)
            pp_perr(P, o->line, "double literal for a %s operand", pp_type_names[type]);
        return n.bits;
    }
    uint64_t v = o->minus ? (uint64_t)(-(int64_t)n.bits) : n.bits;
    unsigned bytes = px_type_bytes((unsigned)type);
    if (bytes && bytes < 8)
        v &= (1ull << (bytes * 8)) - 1;
    return v;
}

/* A source element of a vector operand: a register or an immediate of `type`. */
struct px_opnd pp_vec_src(struct parser *P, const char *e, int type, unsigned line)
{
    if (e[0] != '-' && !isdigit((unsigned char)e[0]))
        return pp_reg_opnd(P, e, line);
    struct rop o;
    memset(&o, 0, sizeof o);
    o.kind = RO_NUM;
    o.line = line;
    o.minus = e[0] == '-';
    const char *d = e + o.minus;
    if (!pp_parse_num_text(d, (unsigned)strlen(d), &o.num))
        pp_perr(P, line, "bad number '%s' in a vector operand", e);
    return pp_val_opnd(P, &o, type);
}

struct px_opnd pp_val_opnd(struct parser *P, const struct rop *o, int type)
{
    if (o->kind == RO_NUM)
        return (struct px_opnd){OK_IMM, 0, pp_imm_row(P, pp_literal_bits(P, o, type))};
    if (o->kind == RO_NAME) {
        if (o->minus)
            pp_perr(P, o->line, "'-%s' is not a valid operand", o->name);
        return pp_reg_opnd(P, o->name, o->line);
    }
    pp_perr(P, o->line, "bad operand: expected a register or an immediate");
}

const char *pp_take(struct mods *md, const char *w)
{
    for (int i = 0; i < md->n_extra; i++)
        if (md->extra[i] && !strcmp(md->extra[i], w)) {
            const char *r = md->extra[i];
            md->extra[i] = NULL;
            return r;
        }
    return NULL;
}

/* Takes the first remaining extra that is one of `names` (NULL-terminated);
 * returns its index in names, or -1. */
int pp_take_one(struct mods *md, const char *const *names)
{
    for (int i = 0; i < md->n_extra; i++) {
        if (!md->extra[i])
            continue;
        for (int k = 0; names[k]; k++)
            if (!strcmp(md->extra[i], names[k])) {
                md->extra[i] = NULL;
                return k;
            }
    }
    return -1;
}

void pp_no_extras(struct parser *P, struct mods *md, const char *opname, unsigned line)
{
    for (int i = 0; i < md->n_extra; i++)
        if (md->extra[i])
            pp_punsup(P, line, "unsupported modifier '.%s' in '%s'", md->extra[i], opname);
}

void pp_split_mods(struct parser *P, char *parts[], int n, struct mods *md, const char *opname,
                   unsigned line)
{
    memset(md, 0, sizeof(*md));
    md->sem = md->scope = -1;
    md->vec = 1;
    for (int i = 0; i < n; i++) {
        const char *w = parts[i];
        int t = pp_type_of(w);
        if (t) {
            if (md->nt >= 3)
                pp_perr(P, line, "too many types in '%s'", opname);
            md->types[md->nt++] = t;
        } else if (!strcmp(w, "global"))
            md->space = SP_GLOBAL;
        else if (!strcmp(w, "shared") || !strcmp(w, "shared::cta"))
            md->space = SP_SHARED;
        else if (!strcmp(w, "local"))
            md->space = SP_LOCAL;
        else if (!strcmp(w, "param"))
            md->space = SP_PARAM;
        else if (!strcmp(w, "const"))
            md->space = SP_CONST;
        else if (!strcmp(w, "weak"))
            md->sem = SEM_WEAK;
        else if (!strcmp(w, "volatile"))
            md->sem = SEM_VOLATILE;
        else if (!strcmp(w, "relaxed"))
            md->sem = SEM_RELAXED;
        else if (!strcmp(w, "acquire"))
            md->sem = SEM_ACQUIRE;
        else if (!strcmp(w, "release"))
            md->sem = SEM_RELEASE;
        else if (!strcmp(w, "acq_rel"))
            md->sem = SEM_ACQ_REL;
        else if (!strcmp(w, "sc"))
            md->sem = SEM_SC;
        else if (!strcmp(w, "cta"))
            md->scope = SCOPE_CTA;
        else if (!strcmp(w, "gpu"))
            md->scope = SCOPE_GPU;
        else if (!strcmp(w, "sys"))
            md->scope = SCOPE_SYS;
        else if (!strcmp(w, "v2"))
            md->vec = 2;
        else if (!strcmp(w, "v4"))
            md->vec = 4;
        else if (!strcmp(w, "rn"))
            md->rnd = RND_RN;
        else if (!strcmp(w, "rz"))
            md->rnd = RND_RZ;
        else if (!strcmp(w, "rm"))
            md->rnd = RND_RM;
        else if (!strcmp(w, "rp"))
            md->rnd = RND_RP;
        else if (!strcmp(w, "rna"))
            md->rnd = RND_RNA;
        else if (!strcmp(w, "rni"))
            md->rnd = RND_RN, md->intrnd = true;
        else if (!strcmp(w, "rzi"))
            md->rnd = RND_RZ, md->intrnd = true;
        else if (!strcmp(w, "rmi"))
            md->rnd = RND_RM, md->intrnd = true;
        else if (!strcmp(w, "rpi"))
            md->rnd = RND_RP, md->intrnd = true;
        else if (!strcmp(w, "ftz"))
            md->ftz = true;
        else if (!strcmp(w, "sat"))
            md->sat = true;
        else if (!strcmp(w, "approx"))
            md->approx = true;
        else if (!strcmp(w, "full"))
            md->full = true;
        else if (!strcmp(w, "uni"))
            md->uni = true;
        else if (!strcmp(w, "sync"))
            md->sync = true;
        else if (!strcmp(w, "aligned"))
            md->aligned = true;
        else if (!strcmp(w, "NaN"))
            md->nan = true;
        /* cache operators and eviction hints: accepted, they do not change values */
        else if (!strcmp(w, "ca") || !strcmp(w, "cg") || !strcmp(w, "cs") || !strcmp(w, "lu") ||
                 !strcmp(w, "cv") || !strcmp(w, "wb") || !strcmp(w, "wt") || !strcmp(w, "nc") ||
                 !strncmp(w, "L1::", 4) || !strncmp(w, "L2::", 4))
            ;
        else if (!strcmp(w, "cluster") || !strcmp(w, "shared::cluster"))
            pp_punsup(P, line, "unsupported modifier '.%s' in '%s' (clusters are not modelled)", w,
                      opname);
        else {
            if (md->n_extra >= MAX_MODS)
                pp_perr(P, line, "too many modifiers in '%s'", opname);
            md->extra[md->n_extra++] = w;
        }
    }
}
