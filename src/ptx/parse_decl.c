/*
 * parse_decl.c - the pieces of a module that are not instructions: the
 * immediate table, .loc and .file (each instruction's CUDA source line), a
 * new instruction slot, and the declarations (.reg ranges; .shared, .local,
 * .param, .const and .global variables with alignment, arrays and
 * initialisers), with the frame and shared-memory layout they build and the
 * per-function list of the .const variables read.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/parse_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ module pieces */

/* The dimensions [N][M]... after a variable's name: its size in bytes, at most
 * PX_SPACE_MAX_BYTES (a clear error past it, never a wrapped product). An
 * empty [] sets *unsized where UNSIZED is given (an extern .shared array). */
uint64_t pp_parse_dims(struct parser *P, unsigned line, const char *name, unsigned elem_bytes,
                       bool *unsized)
{
    uint64_t bytes = elem_bytes;
    while (pp_accept(P, "[")) {
        if (unsized && pp_accept(P, "]")) {
            *unsized = true;
            continue;
        }
        struct tok n = pp_next(P);
        uint64_t d;
        if (n.kind != TK_NUM || !pp_parse_int_text(n.s, n.len, &d))
            pp_perr(P, line, "bad array dimension of '%s'", name);
        pp_expect(P, "]");
        if (d && bytes > PX_SPACE_MAX_BYTES / d)
            pp_perr(P, line, "'%s' is larger than %u MB, the most a variable may take", name,
                    PX_SPACE_MAX_BYTES >> 20);
        bytes *= d;
    }
    return bytes;
}

/* Places SIZE bytes at the next ALIGN boundary of *CURSOR (a space's bytes so
 * far) and returns their offset; a clear error when the space would pass
 * PX_SPACE_MAX_BYTES. */
uint32_t pp_place(struct parser *P, unsigned line, const char *name, uint32_t *cursor,
                  uint32_t align, uint64_t size, const char *space)
{
    uint32_t off = align_up32(*cursor, align ? align : 1);
    if (off < *cursor || size > PX_SPACE_MAX_BYTES || off > PX_SPACE_MAX_BYTES - size)
        pp_perr(P, line, "'%s' takes %s past %u MB", name, space, PX_SPACE_MAX_BYTES >> 20);
    *cursor = off + (uint32_t)size;
    return off;
}

uint32_t pp_imm_row(struct parser *P, uint64_t v)
{
    struct ptx_module *m = P->m;
    if (m->n_imm + 1 > P->cap_imm) {
        P->cap_imm = P->cap_imm ? P->cap_imm * 2 : 64;
        m->imm = pp_xrealloc(P, m->imm, P->cap_imm * 32 * sizeof(uint64_t));
    }
    for (unsigned l = 0; l < 32; l++)
        m->imm[m->n_imm * 32 + l] = v;
    return m->n_imm++;
}

/* A number token of the directive on `line`, or false (left unread). */
static bool loc_number(struct parser *P, unsigned line, uint32_t *v)
{
    struct tok t = pp_peek(P);
    if (t.kind != TK_NUM || t.line != line || t.len > 10)
        return false;
    char b[16];
    snprintf(b, sizeof b, "%.*s", (int)t.len, t.s);
    char *end;
    unsigned long x = strtoul(b, &end, 10);
    if (*end || x > UINT32_MAX)
        return false;
    pp_next(P);
    *v = (uint32_t)x;
    return true;
}

/* .loc FILE LINE ...: the instructions that follow come from that line.
 * Malformed ones are ignored, as the hint they are. */
void pp_parse_loc(struct parser *P, unsigned line)
{
    struct px_loc l;
    if (loc_number(P, line, &l.file) && loc_number(P, line, &l.line) && l.file)
        P->loc = l;
}

/* .file N "name": the source file .loc lines call N (nvcc puts these last). */
void pp_parse_file(struct parser *P, unsigned line)
{
    uint32_t n;
    if (!loc_number(P, line, &n) || !n || n > 65535)
        return;
    struct tok name = pp_peek(P);
    if (name.kind != TK_STR || name.line != line || name.len < 2)
        return;
    pp_next(P);
    struct ptx_module *m = P->m;
    if (n >= m->n_src_files) {
        m->src_files = pp_xrealloc(P, m->src_files, (n + 1) * sizeof *m->src_files);
        memset(m->src_files + m->n_src_files, 0, (n + 1 - m->n_src_files) * sizeof *m->src_files);
        m->n_src_files = n + 1;
    }
    free(m->src_files[n]);
    m->src_files[n] = pp_xprintf(P, "%.*s", (int)name.len - 2, name.s + 1);
}

struct px_inst *pp_new_inst(struct parser *P, unsigned line)
{
    struct ptx_module *m = P->m;
    GROW(P, m->ins, m->n_ins, P->cap_ins);
    if (P->loc.file && P->cap_locs < P->cap_ins) { /* -lineinfo: locs follows ins */
        m->locs = pp_xrealloc(P, m->locs, P->cap_ins * sizeof *m->locs);
        memset(m->locs + P->cap_locs, 0, (P->cap_ins - P->cap_locs) * sizeof *m->locs);
        P->cap_locs = P->cap_ins;
    }
    if (m->locs)
        m->locs[m->n_ins] = P->loc;
    struct px_inst *i = &m->ins[m->n_ins++];
    memset(i, 0, sizeof(*i));
    i->guard = -1;
    i->vec = 1;
    i->line = line;
    i->op_lat = PTX_OPLAT_NONE; /* until decoded */
    return i;
}

/* ------------------------------------------------------------------ declarations */

static unsigned reg_count_for_function(struct parser *P, int type)
{
    (void)type;
    return P->n_regs;
}

static void set_reg_type(struct parser *P, uint32_t idx, int type)
{
    while (idx >= P->cap_reg_type) {
        size_t old = P->cap_reg_type;
        P->cap_reg_type = old ? old * 2 : 256;
        P->reg_type = pp_xrealloc(P, P->reg_type, P->cap_reg_type);
        memset(P->reg_type + old, 0, P->cap_reg_type - old);
    }
    P->reg_type[idx] = (uint8_t)type;
}

static void declare_reg(struct parser *P, const char *name, int type, unsigned line)
{
    struct sym *s = pp_sym_add(P, name, line);
    s->type = (uint8_t)type;
    if (type == PT_PRED) {
        s->kind = SY_PRED;
        s->idx = P->n_preds++;
    } else {
        s->kind = SY_REG;
        s->idx = reg_count_for_function(P, type);
        set_reg_type(P, s->idx, type);
        P->n_regs++;
    }
}

/* .reg .type name[<N>] {, name[<N>]} ;  `tw` is the type word when the
 * lexer already took it with .reg (".reg.b32", as cuda_fp16.h writes it). */
void pp_parse_reg_decl(struct parser *P, unsigned line, const char *tw)
{
    struct tok t;
    int vec = 1;
    if (!tw)
        tw = pp_word(P, &t, "a register type");
    if (!strcmp(tw, ".v2") || !strcmp(tw, ".v4"))
        pp_perr(P, line, "vector register declarations (.reg %s) are not supported", tw);
    int type = tw[0] == '.' ? pp_type_of(tw + 1) : PT_NONE;
    if (!type)
        pp_perr(P, line, "bad register type '%s'", tw);
    (void)vec;
    do {
        char name[128];
        pp_parse_name_into(P, name, "a register name");
        if (pp_accept(P, "<")) {
            struct tok n = pp_next(P);
            uint64_t cnt;
            if (n.kind != TK_NUM || !pp_parse_int_text(n.s, n.len, &cnt) || cnt > 1000000)
                pp_perr(P, line, "bad register range count");
            pp_expect(P, ">");
            for (uint64_t i = 0; i < cnt; i++) {
                char nm[160];
                snprintf(nm, sizeof nm, "%s%llu", name, (unsigned long long)i);
                declare_reg(P, nm, type, line);
            }
        } else {
            declare_reg(P, name, type, line);
        }
    } while (pp_accept(P, ","));
    pp_expect(P, ";");
}

/* Initialiser values into bytes; nested braces for multi-dimensional arrays. */
static void parse_init(struct parser *P, uint8_t *buf, uint64_t size, int type, uint64_t *pos,
                       unsigned line)
{
    unsigned eb = px_type_bytes((unsigned)type);
    if (pp_accept(P, "{")) {
        if (!pp_accept(P, "}")) {
            do
                parse_init(P, buf, size, type, pos, line);
            while (pp_accept(P, ","));
            pp_expect(P, "}");
        }
        return;
    }
    struct rop o;
    pp_parse_operand(P, &o);
    if (o.kind != RO_NUM)
        pp_perr(P, line, "unsupported initialiser (only numeric constants are supported)");
    uint64_t v = pp_literal_bits(P, &o, type);
    if (*pos + eb > size)
        pp_perr(P, line, "too many initialiser values");
    memcpy(buf + *pos, &v, eb);
    *pos += eb;
}

/* [.attribute(.managed)] [.align N] .type name[dims] [= init] ;  for
 * .shared/.local/.const/.global/.param. A __managed__ variable (.global
 * .attribute(.managed)) is an ordinary .global one to the kernels; the CUDA
 * stand-in maps it into the program too (docs/cuda.md). */
void pp_parse_var_decl(struct parser *P, int space, bool is_extern, unsigned line)
{
    uint32_t align = 0;
    struct tok t;
    char *w = pp_word(P, &t, "a type or .align");
    if (!strcmp(w, ".attribute")) {
        pp_expect(P, "(");
        char *a = pp_word(P, &t, "a variable attribute");
        if (strcmp(a, ".managed") || space != SP_GLOBAL)
            pp_perr(P, line, "unsupported variable attribute '%s'%s", a,
                    space != SP_GLOBAL ? " (only .global variables may be .managed)" : "");
        pp_expect(P, ")");
        w = pp_word(P, &t, "a type or .align");
    }
    if (!strcmp(w, ".align")) {
        struct tok n = pp_next(P);
        uint64_t a;
        if (n.kind != TK_NUM || !pp_parse_int_text(n.s, n.len, &a) || !a || (a & (a - 1)))
            pp_perr(P, line, "bad .align value");
        align = (uint32_t)a;
        w = pp_word(P, &t, "a type");
    }
    if (!strcmp(w, ".v2") || !strcmp(w, ".v4"))
        pp_perr(P, line, "vector-typed variables are not supported");
    int type = w[0] == '.' ? pp_type_of(w + 1) : PT_NONE;
    if (!type || type == PT_PRED)
        pp_perr(P, line, "bad variable type '%s'", w);
    char name[128];
    pp_parse_name_into(P, name, "a variable name");
    bool unsized = false;
    unsigned eb = px_type_bytes((unsigned)type);
    if (!align)
        align = eb;
    uint64_t size = pp_parse_dims(P, line, name, eb, &unsized);
    (void)is_extern;
    struct sym *s = pp_sym_add(P, name, line);
    s->kind = SY_VAR;
    s->type = (uint8_t)type;
    s->space = (uint8_t)space;
    s->size = size;
    uint8_t *init = NULL;
    if (pp_accept(P, "=")) {
        if (unsized)
            pp_perr(P, line, "initialiser for an unsized array");
        free(P->tmp_init);
        init = P->tmp_init = calloc(1, size ? size : 1);
        if (!init)
            pp_perr(P, line, "out of memory");
        uint64_t pos = 0;
        parse_init(P, init, size, type, &pos, line);
    }
    pp_expect(P, ";");
    struct ptx_module *m = P->m;
    switch (space) {
    case SP_SHARED:
        if (unsized) {
            s->rel = AR_DYNSHM;
            s->off = 0;
            if (P->fn)
                P->fn->uses_dynshm = true;
        } else if (P->fn && P->fn->is_entry) {
            /* relative to the kernel's base; fixed at function end */
            s->off = pp_place(P, line, name, &P->shared_own, align, size, "the kernel's .shared");
            s->rel = AR_ABS;
            s->idx = 1; /* marks "kernel-own": offset rebased when the module is complete */
        } else {
            s->off =
                pp_place(P, line, name, &m->shared_common, align, size, "the module's .shared");
            s->rel = AR_ABS;
        }
        break;
    case SP_LOCAL:
    case SP_PARAM:
        if (!P->fn)
            pp_perr(P, line, "module-level .%s variables are not supported",
                    space == SP_LOCAL ? "local" : "param");
        s->off = pp_place(P, line, name, &P->frame_cur, align, size, "the function's frame");
        s->rel = AR_FRAME;
        if (P->frame_cur > P->frame_max)
            P->frame_max = P->frame_cur;
        break;
    case SP_CONST:
        if (P->fn)
            pp_perr(P, line, "function-level .const variables are not supported");
        uint32_t cbank_end = m->cbank_bytes;
        m->cbank_bytes = pp_place(P, line, name, &cbank_end, align, size, "the constant bank");
        s->off = m->cbank_bytes;
        s->rel = AR_ABS;
        m->consts = pp_xrealloc(P, m->consts, (m->n_consts + 1) * sizeof *m->consts);
        m->consts[m->n_consts] = (struct ptx_var){
            .name = pp_xstrndup(P, name, strlen(name)),
            .offset = m->cbank_bytes,
            .bytes = (uint32_t)size,
            .line = line,
            .initialised = init != NULL,
        };
        s->idx = m->n_consts++; /* what the functions that name it record */
        m->cbank = pp_xrealloc(P, m->cbank, m->cbank_bytes + size + 1);
        memset(m->cbank + m->cbank_bytes, 0, size);
        if (init)
            memcpy(m->cbank + m->cbank_bytes, init, size);
        m->cbank_bytes += (uint32_t)size;
        break;
    case SP_GLOBAL:
        /* an offset in the module's block, which placing it rebases */
        if (P->fn)
            pp_perr(P, line, "function-level .global variables are not supported");
        if (size > PX_GLOBALS_MAX_BYTES - align_up32(m->gblock_bytes, align))
            pp_perr(P, line, "'%s' takes the module's .global variables past %u MB in all", name,
                    PX_GLOBALS_MAX_BYTES >> 20);
        m->gblock_bytes = align_up32(m->gblock_bytes, align);
        s->off = m->gblock_bytes;
        s->rel = AR_ABS;
        m->gblock = pp_xrealloc(P, m->gblock, m->gblock_bytes + size + 1);
        memset(m->gblock + m->gblock_bytes, 0, size);
        if (init)
            memcpy(m->gblock + m->gblock_bytes, init, size);
        m->globals = pp_xrealloc(P, m->globals, (m->n_globals + 1) * sizeof *m->globals);
        m->globals[m->n_globals++] = (struct ptx_var){
            .name = pp_xstrndup(P, name, strlen(name)),
            .offset = m->gblock_bytes,
            .bytes = (uint32_t)size,
            .line = line,
            .initialised = init != NULL,
        };
        m->gblock_bytes += (uint32_t)size;
        break;
    default:
        break;
    }
    free(init);
    P->tmp_init = NULL;
}

/* Record that function `fn` names .const variable `k` (once). */
void pp_add_const_read(struct parser *P, struct px_func *fn, uint32_t k)
{
    for (unsigned r = 0; r < fn->n_const_reads; r++)
        if (fn->const_reads[r] == k)
            return;
    fn->const_reads =
        pp_xrealloc(P, fn->const_reads, (fn->n_const_reads + 1) * sizeof *fn->const_reads);
    fn->const_reads[fn->n_const_reads++] = k;
}

/* The function being parsed names .const variable `s` (a load from it, or its
 * address): a launch checks that it has contents. */
void pp_note_const_read(struct parser *P, const struct sym *s)
{
    if (P->fn)
        pp_add_const_read(P, P->fn, s->idx);
}
