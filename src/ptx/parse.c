/*
 * parse.c - PTX text to the decoded form of ir.h, in one pass per function.
 *
 * Accepts what nvcc 13 emits for sm_75..sm_90 (PTX ISA 9.0): module
 * directives, .entry/.func with parameters, .reg/.shared/.local/.param/.const
 * declarations (register ranges, arrays, alignment, initialisers), nested
 * { } scopes (nvcc's call sequences and inline-asm blocks), labels, guards,
 * vector operands and the instruction set listed in pp_decode_inst(). Anything
 * else is an error "file:line: ..." naming the construct; nothing is skipped
 * silently except hints that do not change results (.pragma, cache
 * operators, performance-tuning directives and the DWARF .section .debug_*
 * blocks of -lineinfo and -G). .loc and .file lines are kept as each
 * instruction's CUDA source line (ptx_module.locs), for fault dumps.
 * Half precision (.f16 .f16x2 .bf16 .bf16x2) covers what cuda_fp16.h and
 * cuda_bf16.h emit for sm_75..sm_90: add/sub/mul/fma/min/max/neg/abs,
 * ex2/tanh.approx, setp (p|q per element of packed operands), set, and the
 * packing cvt and mov forms; pp_decode_half() lists the modifiers per form.
 * Atomics on halves are atom/red.add.noftz (.f16 .bf16 .f16x2 .bf16x2) and
 * atom.cas.b16, what atomicAdd and atomicCAS on 16-bit types emit.
 * A call of the .extern vprintf (device printf) is decoded as PX_PRINTF
 * (printf.c), not as a call of a function without a body.
 * Errors unwind with longjmp to ptx_module_parse, which frees what was built.
 * NOT MODELED: module-level .global variables, indirect calls, recursion,
 * carry (.cc) arithmetic, texture/surface instructions, cp.async, mma,
 * vector atomics (atom.v2.f16 ...), fma.oob, fp8 and tf32 conversions.
 *
 * This file holds the statements, functions and module directives, the
 * module's finishing passes (call chains, frame and register sizes) and the
 * public ptx_module_* API; the lexer and symbols are in parse_lex.c,
 * operands and modifiers in parse_operand.c, declarations in parse_decl.c,
 * instruction decoding in parse_decode.c and parse_decode_alu.c, all
 * sharing parse_int.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/parse_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One statement inside a function body. Returns false at the closing brace of
 * the body. */
static void parse_body(struct parser *P);

/* Valid PTX instructions gpucoh does not model (PTX ISA 8.x names, up to the
 * first '.'). Their operands need not parse: the statement is skipped, and
 * the function is marked unable to run. A word that is in neither this list
 * nor decode_inst is not PTX at all: a syntax error of the module. */
static bool unmodelled(const char *op)
{
    static const char *const names[] = {"tex",
                                        "tld4",
                                        "txq",
                                        "suld",
                                        "sust",
                                        "sured",
                                        "suq",
                                        "istypep",
                                        "mma",
                                        "wmma",
                                        "wgmma",
                                        "tcgen05",
                                        "ldmatrix",
                                        "stmatrix",
                                        "movmatrix",
                                        "cp",
                                        "mbarrier",
                                        "mapa",
                                        "getctarank",
                                        "multimem",
                                        "tensormap",
                                        "elect",
                                        "griddepcontrol",
                                        "setmaxnreg",
                                        "alloca",
                                        "stacksave",
                                        "stackrestore",
                                        "pmevent",
                                        "brkpt",
                                        "brx",
                                        "applypriority",
                                        "madc",
                                        "discard",
                                        "createpolicy",
                                        "isspacep",
                                        "mul24",
                                        "mad24",
                                        "sad",
                                        "testp",
                                        "fns",
                                        "bmsk",
                                        "szext",
                                        "dp4a",
                                        "dp2a",
                                        "bfind",
                                        "lop3",
                                        "vadd",
                                        "vsub",
                                        "vabsdiff",
                                        "vmin",
                                        "vmax",
                                        "vshl",
                                        "vshr",
                                        "vmad",
                                        "vset",
                                        "vadd2",
                                        "vsub2",
                                        "vavrg2",
                                        "vabsdiff2",
                                        "vmin2",
                                        "vmax2",
                                        "vset2",
                                        "vadd4",
                                        "vsub4",
                                        "vavrg4",
                                        "vabsdiff4",
                                        "vmin4",
                                        "vmax4",
                                        "vset4",
                                        "clusterlaunchcontrol",
                                        NULL};
    size_t n = strcspn(op, ".");
    for (const char *const *k = names; *k; k++)
        if (strlen(*k) == n && !strncmp(*k, op, n))
            return true;
    return false;
}

/* Skip the rest of a statement up to its ';'. */
static void skip_statement(struct parser *P, unsigned line)
{
    for (;;) {
        struct tok t = pp_next(P);
        if (t.kind == TK_EOF)
            pp_perr(P, line, "missing ';' at the end of the statement");
        if (tok_is(t, ";"))
            return;
    }
}

/* Mark the function being parsed as unable to run, with the first reason:
 * `fmt` (at `line`), or when NULL the message punsup left in P->err. */
static PRINTF_LIKE(3, 4) void note_unsupported(struct parser *P, unsigned line, const char *fmt,
                                               ...)
{
    if (P->fn->unsupported)
        return;
    if (!fmt) {
        P->fn->unsupported = pp_xprintf(P, "%s", P->err);
        return;
    }
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    P->fn->unsupported = pp_xprintf(P, "%s:%u: %s", P->file, line, msg);
}

/* decode_inst and fill_sb, catching what is valid PTX but not modelled
 * (punsup): returns 0, or the longjmp value (1 malformed, 2 not modelled). */
static __attribute__((noinline)) int decode_catching(struct parser *P, struct px_inst *i,
                                                     char *base, char *parts[], int np,
                                                     struct rop *o, int n, const char *opname,
                                                     unsigned line)
{
    jmp_buf outer;
    memcpy(outer, P->jb, sizeof outer);
    int caught = setjmp(P->jb);
    if (!caught) {
        pp_decode_inst(P, i, base, parts, np, o, n, opname, line);
        pp_fill_sb(P, i);
        i->op_lat = pp_oplat_slot(i);
    }
    memcpy(P->jb, outer, sizeof outer);
    return caught;
}

static void parse_statement(struct parser *P, struct tok t)
{
    unsigned line = t.line;
    char w[256];
    snprintf(w, sizeof w, "%.*s", (int)t.len, t.s);
    if (!strcmp(w, ".reg") || !strncmp(w, ".reg.", 5)) {
        pp_parse_reg_decl(P, line, w[4] ? w + 4 : NULL);
        return;
    }
    if (!strcmp(w, ".local") || !strcmp(w, ".shared") || !strcmp(w, ".param") ||
        !strcmp(w, ".const") || !strcmp(w, ".global")) {
        int sp = w[1] == 'l'   ? SP_LOCAL
                 : w[2] == 'h' ? SP_SHARED
                 : w[1] == 'p' ? SP_PARAM
                 : w[1] == 'c' ? SP_CONST
                               : SP_GLOBAL;
        pp_parse_var_decl(P, sp, false, line);
        return;
    }
    if (!strcmp(w, ".pragma")) {
        struct tok s = pp_next(P);
        if (s.kind != TK_STR)
            pp_perr(P, line, "bad .pragma");
        pp_expect(P, ";");
        return;
    }
    if (!strcmp(w, ".loc") || !strcmp(w, ".file")) {
        if (!strcmp(w, ".loc")) /* .loc FILE LINE COLUMN [, inlining of -G]: where we are */
            pp_parse_loc(P, line);
        while (!tok_is(pp_peek(P), ";") && pp_peek(P).kind != TK_EOF && pp_peek(P).line == line)
            pp_next(P);
        pp_accept(P, ";");
        return;
    }
    if (w[0] == '.')
        pp_perr(P, line, "unsupported directive '%s' in a function body", w);
    /* label? */
    if (tok_is(pp_peek(P), ":")) {
        pp_next(P);
        int *v = pp_symtab_slot(P, &P->labels, w, true);
        if (*v >= 0)
            pp_perr(P, line, "label '%s' defined twice", w);
        *v = (int)P->m->n_ins;
        struct ptx_module *m = P->m;
        m->labels = pp_xrealloc(P, m->labels, (m->n_labels + 1) * sizeof *m->labels);
        m->labels[m->n_labels++] =
            (struct px_label){.name = pp_xstrndup(P, w, strlen(w)), .pc = m->n_ins};
        return;
    }
    /* guard */
    int guard = -1;
    bool gneg = false;
    char opw[256];
    snprintf(opw, sizeof opw, "%s", w);
    if (t.kind == TK_PUNCT && t.s[0] == '@') {
        gneg = pp_accept(P, "!");
        struct tok g;
        char *gname = pp_word(P, &g, "a guard predicate");
        struct sym *s = pp_need_sym(P, gname, line);
        if (s->kind != SY_PRED)
            pp_perr(P, line, "guard '%s' is not a predicate", gname);
        guard = (int)s->idx;
        struct tok ot;
        char *op = pp_word(P, &ot, "an instruction");
        snprintf(opw, sizeof opw, "%s", op);
        line = ot.line;
    } else if (t.kind != TK_WORD) {
        char b[64];
        pp_perr(P, line, "unexpected '%s'", pp_tok_text(t, b, sizeof b));
    }
    if (unmodelled(opw)) {
        skip_statement(P, line);
        struct px_inst *i = pp_new_inst(P, line);
        i->op = PX_NOP;
        note_unsupported(P, line, "unsupported instruction '%s'", opw);
        return;
    }
    /* operands */
    struct rop ops[8];
    int n = 0;
    if (!tok_is(pp_peek(P), ";")) {
        do {
            if (n >= 8)
                pp_perr(P, line, "too many operands for '%s'", opw);
            pp_parse_operand(P, &ops[n++]);
        } while (pp_accept(P, ","));
    }
    struct tok semi = pp_next(P);
    if (!tok_is(semi, ";")) {
        char b[64];
        pp_perr(P, semi.line, "expected ';' after '%s', found '%s'", opw,
                pp_tok_text(semi, b, sizeof b));
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", opw);
    char *parts[16];
    int np = 0;
    char *base = strtok(buf, ".");
    if (!base)
        pp_perr(P, line, "bad instruction '%s'", opw);
    char *q;
    while ((q = strtok(NULL, ".")) != NULL) {
        if (np >= 16)
            pp_perr(P, line, "too many modifiers in '%s'", opw);
        parts[np++] = q;
    }
    struct px_inst *i = pp_new_inst(P, line);
    i->guard = guard;
    if (gneg)
        i->flags |= PF_GNEG;
    const size_t at = (size_t)(i - P->m->ins);
    int caught = decode_catching(P, i, base, parts, np, ops, n, opw, line);
    if (caught == 1)
        longjmp(P->jb, 1); /* malformed: the whole module fails */
    if (caught == 2) {
        i = &P->m->ins[at];
        memset(i, 0, sizeof *i);
        i->guard = -1;
        i->vec = 1;
        i->line = line;
        i->op = PX_NOP; /* keeps the function's shape; it is never run */
        note_unsupported(P, line, NULL);
    }
}

#define PTX_MAX_BLOCK_NESTING 256

static void parse_body(struct parser *P)
{
    size_t mark = P->n_syms;
    uint32_t frame_mark = P->frame_cur;
    for (;;) {
        struct tok t = pp_next(P);
        if (t.kind == TK_EOF)
            pp_perr(P, t.line, "missing '}' at end of function");
        if (tok_is(t, "}"))
            break;
        if (tok_is(t, "{")) {
            /* each block is a level of recursion: bound it, so thousands of
             * nested braces are an error, not a stack overflow (found by
             * fuzzing); nvcc nests a handful */
            if (++P->block_depth > PTX_MAX_BLOCK_NESTING)
                pp_perr(P, t.line, "blocks nested more than %d deep", PTX_MAX_BLOCK_NESTING);
            parse_body(P);
            P->block_depth--;
            continue;
        }
        parse_statement(P, t);
    }
    pp_sym_pop_to(P, mark);
    /* call-site .param buffers die with their scope; the frame keeps its max */
    if (P->fn && mark > 0)
        P->frame_cur = frame_mark;
}

/* ( .param .type name, ... ) */
static void parse_params(struct parser *P, struct px_param **out, unsigned *n_out, bool is_entry,
                         unsigned line)
{
    pp_expect(P, "(");
    unsigned n = 0, cap = 0;
    struct px_param *ps = NULL;
    if (!pp_accept(P, ")")) {
        do {
            struct tok t;
            char *w = pp_word(P, &t, ".param");
            if (!strcmp(w, ".reg"))
                pp_perr(P, t.line, ".reg parameters are not supported");
            if (strcmp(w, ".param"))
                pp_perr(P, t.line, "expected .param, found '%s'", w);
            uint32_t align = 0;
            int type = PT_NONE;
            for (;;) {
                w = pp_word(P, &t, "a parameter type");
                if (!strcmp(w, ".align")) {
                    struct tok nt = pp_next(P);
                    uint64_t a;
                    if (nt.kind != TK_NUM || !pp_parse_int_text(nt.s, nt.len, &a) || !a)
                        pp_perr(P, t.line, "bad .align");
                    align = (uint32_t)a;
                    continue;
                }
                if (!strcmp(w, ".ptr") || !strcmp(w, ".global") || !strcmp(w, ".shared") ||
                    !strcmp(w, ".const") || !strcmp(w, ".local"))
                    continue;
                break;
            }
            type = w[0] == '.' ? pp_type_of(w + 1) : PT_NONE;
            if (!type || type == PT_PRED)
                pp_perr(P, t.line, "bad parameter type '%s'", w);
            char name[128];
            pp_parse_name_into(P, name, "a parameter name");
            uint64_t bytes = pp_parse_dims(P, t.line, name, px_type_bytes((unsigned)type), NULL);
            if (n >= cap) {
                cap = cap ? cap * 2 : 8;
                ps = pp_xrealloc(P, ps, cap * sizeof(*ps));
                *out = ps;
            }
            struct px_param *pp = &ps[n++];
            pp->name = NULL;
            *n_out = n;
            pp->name = pp_xstrndup(P, name, strlen(name));
            pp->size = (uint32_t)bytes;
            pp->align = align ? align : px_type_bytes((unsigned)type);
            pp->off = 0;
        } while (pp_accept(P, ","));
        pp_expect(P, ")");
    }
    *out = ps;
    *n_out = n;
    (void)is_entry;
    (void)line;
}

/* Declares a function's parameters as variables of its scope. */
static void declare_params(struct parser *P, struct px_func *f, unsigned line)
{
    uint32_t off = 0;
    for (unsigned k = 0; k < f->n_rets + f->n_params; k++) {
        struct px_param *pp = k < f->n_rets ? &f->rets[k] : &f->params[k - f->n_rets];
        struct sym *s = pp_sym_add(P, pp->name, line);
        s->kind = SY_VAR;
        s->type = PT_B8;
        s->space = SP_PARAM;
        s->size = pp->size;
        if (f->is_entry) {
            /* CUDA layout: each parameter aligned to its size (or .align) */
            pp->off =
                pp_place(P, line, pp->name, &off, pp->align, pp->size, "the kernel's parameters");
            s->rel = AR_KPARAM;
        } else {
            pp->off = pp_place(P, line, pp->name, &P->frame_cur, pp->align, pp->size,
                               "the function's frame");
            P->frame_max = MAX(P->frame_max, P->frame_cur);
            s->rel = AR_FRAME;
        }
        s->off = pp->off;
    }
    if (f->is_entry)
        f->info.param_bytes = off;
}

static void resolve_labels(struct parser *P)
{
    struct ptx_module *m = P->m;
    for (size_t k = 0; k < P->n_fix; k++) {
        int *v = pp_symtab_slot(P, &P->labels, P->fix[k].name, false);
        if (!v || *v < 0)
            pp_perr(P, P->fix[k].line, "undefined label '%s'", P->fix[k].name);
        m->ins[P->fix[k].pc].target = (uint32_t)*v;
        free(P->fix[k].name);
        P->fix[k].name = NULL; /* an error on a later label must not free it again */
    }
    P->n_fix = 0;
    pp_symtab_free(&P->labels);
}

/* .entry / .func, the prototype or the body */
static void parse_function(struct parser *P, bool is_entry, unsigned line)
{
    struct ptx_module *m = P->m;
    /* parameter lists live in the parser until the function owns them, so
     * that an error in between frees them */
    if (!is_entry && tok_is(pp_peek(P), "("))
        parse_params(P, &P->pend_p[0], &P->pend_n[0], false, line);
    char name[128];
    pp_parse_name_into(P, name, "a function name");
    if (tok_is(pp_peek(P), "("))
        parse_params(P, &P->pend_p[1], &P->pend_n[1], is_entry, line);
    /* performance-tuning directives: accepted, they do not change results */
    for (;;) {
        struct tok t = pp_peek(P);
        if (tok_is(t, ".maxntid") || tok_is(t, ".reqntid") || tok_is(t, ".minnctapersm") ||
            tok_is(t, ".maxnctapersm") || tok_is(t, ".maxnreg") || tok_is(t, ".noreturn") ||
            tok_is(t, ".pragma") || tok_is(t, ".explicitcluster") ||
            tok_is(t, ".reqnctapercluster") || tok_is(t, ".maxclusterrank")) {
            pp_next(P);
            while (pp_peek(P).kind == TK_NUM || tok_is(pp_peek(P), ",") ||
                   pp_peek(P).kind == TK_STR)
                pp_next(P);
            pp_accept(P, ";");
            continue;
        }
        break;
    }
    if (P->pend_n[0] > 4)
        pp_perr(P, line, "more than 4 return values");
    struct sym *prev = pp_sym_find(P, name);
    struct px_func *f;
    if (prev && prev->kind == SY_FUNC) {
        f = &m->funcs[prev->idx];
        for (unsigned k = 0; k < f->n_params; k++)
            free(f->params[k].name);
        for (unsigned k = 0; k < f->n_rets; k++)
            free(f->rets[k].name);
        free(f->params);
        free(f->rets);
        f->params = f->rets = NULL; /* an error below must not free them again */
        f->n_params = f->n_rets = 0;
        if (f->defined && !tok_is(pp_peek(P), ";"))
            pp_perr(P, line, "function '%s' defined twice", name);
    } else {
        if (prev)
            pp_perr(P, line, "'%s' declared twice", name);
        GROW(P, m->funcs, m->n_funcs, P->cap_funcs);
        f = &m->funcs[m->n_funcs];
        memset(f, 0, sizeof(*f));
        f->name = pp_xstrndup(P, name, strlen(name));
        struct sym *s = pp_sym_add(P, name, line);
        s->kind = SY_FUNC;
        s->idx = m->n_funcs++;
    }
    f->is_entry = is_entry;
    f->rets = P->pend_p[0];
    f->n_rets = P->pend_n[0];
    f->params = P->pend_p[1];
    f->n_params = P->pend_n[1];
    P->pend_p[0] = P->pend_p[1] = NULL;
    P->pend_n[0] = P->pend_n[1] = 0;
    if (pp_accept(P, ";"))
        return; /* prototype */
    pp_expect(P, "{");
    if (f->defined)
        pp_perr(P, line, "function '%s' defined twice", name);
    f->defined = true;
    P->fn = f;
    P->n_regs = P->n_preds = 0;
    P->frame_cur = P->frame_max = 0;
    P->shared_own = 0;
    size_t mark = P->n_syms;
    declare_params(P, f, line);
    f->first = m->n_ins;
    P->block_depth = 0;
    parse_body(P);
    pp_sym_pop_to(P, mark);
    f->end = m->n_ins;
    if (f->end == f->first)
        pp_perr(P, line, "function '%s' has no instructions", name);
    resolve_labels(P);
    f->frame_bytes = align_up32(P->frame_max, 16);
    f->own_shmem_end = P->shared_own;
    f->n_rows = P->n_regs;
    f->n_preds = P->n_preds;
    P->fn = NULL;
    int last = m->ins[f->end - 1].op;
    if (last != PX_RET && last != PX_EXIT && last != PX_BRA && last != PX_TRAP)
        pp_perr(P, m->ins[f->end - 1].line, "function '%s' can run off its end", name);
    char err[256];
    if (px_cfg_reconvergence(m, f, err, sizeof err))
        pp_perr(P, line, "%s", err);
}

static void parse_module(struct parser *P)
{
    bool seen_version = false;
    for (;;) {
        struct tok t = pp_next(P);
        if (t.kind == TK_EOF)
            break;
        char w[128];
        snprintf(w, sizeof w, "%.*s", (int)t.len, t.s);
        if (!strcmp(w, ".version")) {
            struct tok v = pp_next(P);
            if (v.kind != TK_NUM)
                pp_perr(P, t.line, "bad .version");
            double ver = strtod(v.s, NULL);
            if (ver < 6.0 || ver >= 10.0)
                pp_perr(P, t.line, "unsupported PTX version %.*s", (int)v.len, v.s);
            seen_version = true;
            continue;
        }
        if (!seen_version)
            pp_perr(P, t.line, "expected .version first, found '%s'", w);
        if (!strcmp(w, ".target")) {
            do {
                struct tok tg;
                char *tw = pp_word(P, &tg, "a target");
                if (strncmp(tw, "sm_", 3) && strcmp(tw, "texmode_independent") &&
                    strcmp(tw, "debug") && strcmp(tw, "map_f64_to_f32"))
                    pp_perr(P, t.line, "unsupported target '%s'", tw);
                if (!strcmp(tw, "texmode_independent"))
                    pp_perr(P, t.line, "unsupported target option '%s'", tw);
            } while (pp_accept(P, ","));
            continue;
        }
        if (!strcmp(w, ".address_size")) {
            struct tok v = pp_next(P);
            if (!tok_is(v, "64"))
                pp_perr(P, t.line, "only .address_size 64 is supported");
            continue;
        }
        if (!strcmp(w, ".file") || !strcmp(w, ".loc")) {
            if (!strcmp(w, ".file")) /* .file N "name" [, timestamp, size] */
                pp_parse_file(P, t.line);
            while (pp_peek(P).kind != TK_EOF && pp_peek(P).line == t.line)
                pp_next(P);
            continue;
        }
        if (!strcmp(w, ".section")) {
            /* -lineinfo and -G add DWARF in .debug_* sections: data for debuggers,
             * nothing a kernel runs, so it is skipped whole */
            struct tok name = pp_next(P);
            if (name.len < 6 || strncmp(name.s, ".debug", 6))
                pp_perr(P, t.line,
                        "section '%.*s' is not supported (only .debug_* sections, "
                        "which are skipped)",
                        (int)name.len, name.s);
            pp_expect(P, "{");
            for (unsigned depth = 1; depth;) {
                struct tok x = pp_next(P);
                if (x.kind == TK_EOF)
                    pp_perr(P, t.line, "section '%.*s' has no closing '}'", (int)name.len, name.s);
                if (tok_is(x, "{"))
                    depth++;
                else if (tok_is(x, "}"))
                    depth--;
            }
            continue;
        }
        bool is_extern = false;
        while (!strcmp(w, ".visible") || !strcmp(w, ".extern") || !strcmp(w, ".weak") ||
               !strcmp(w, ".common")) {
            if (!strcmp(w, ".extern"))
                is_extern = true;
            struct tok n = pp_next(P);
            snprintf(w, sizeof w, "%.*s", (int)n.len, n.s);
            t = n;
        }
        if (!strcmp(w, ".entry") || !strcmp(w, ".func")) {
            parse_function(P, w[1] == 'e', t.line);
            continue;
        }
        if (!strcmp(w, ".shared") || !strcmp(w, ".const") || !strcmp(w, ".global")) {
            int sp = w[1] == 's' ? SP_SHARED : w[1] == 'c' ? SP_CONST : SP_GLOBAL;
            pp_parse_var_decl(P, sp, is_extern, t.line);
            continue;
        }
        char b[64];
        pp_perr(P, t.line, "unsupported module directive '%s'", pp_tok_text(t, b, sizeof b));
    }
}

/* Frame (local) and register-file sizes along the deepest call chain. */
static void size_chains(struct parser *P)
{
    struct ptx_module *m = P->m;
    unsigned nf = m->n_funcs;
    /* iterative longest path with recursion detection (depth-first, colours) */
    uint8_t *state = calloc(nf ? nf : 1, 1);
    uint32_t *stack_mem = calloc(nf ? nf : 1, sizeof(uint32_t));
    uint32_t *stack_reg = calloc(nf ? nf : 1, sizeof(uint32_t));
    uint32_t *stack_pred = calloc(nf ? nf : 1, sizeof(uint32_t));
    uint32_t *stack_shm = calloc(nf ? nf : 1, sizeof(uint32_t));
    if (!state || !stack_mem || !stack_reg || !stack_pred || !stack_shm) {
        free(state);
        free(stack_mem);
        free(stack_reg);
        free(stack_pred);
        free(stack_shm);
        pp_perr(P, 0, "out of memory");
    }
    for (unsigned f = 0; f < nf; f++)
        if (m->funcs[f].uses_dynshm)
            stack_shm[f] = 1;
    /* relax until fixed point; detect cycles by bounding iterations */
    bool changed = true;
    unsigned iter = 0;
    for (unsigned f = 0; f < nf; f++) {
        stack_mem[f] = m->funcs[f].frame_bytes;
        stack_reg[f] = m->funcs[f].n_rows;
        stack_pred[f] = m->funcs[f].n_preds;
    }
    while (changed) {
        changed = false;
        if (++iter > nf + 2) {
            free(state);
            free(stack_mem);
            free(stack_reg);
            free(stack_pred);
            free(stack_shm);
            pp_perr(P, 0, "recursive device-function calls are not supported");
        }
        for (size_t e = 0; e + 2 < P->n_edges; e += 3) {
            uint32_t a = P->edges[e], b = P->edges[e + 1];
            struct px_func *fa = &m->funcs[a];
            uint32_t mem = fa->frame_bytes + stack_mem[b];
            uint32_t reg = fa->n_rows + stack_reg[b];
            uint32_t pr = fa->n_preds + stack_pred[b];
            if (mem > stack_mem[a] || reg > stack_reg[a] || pr > stack_pred[a] ||
                (stack_shm[b] && !stack_shm[a])) {
                stack_mem[a] = MAX(stack_mem[a], mem);
                stack_reg[a] = MAX(stack_reg[a], reg);
                stack_pred[a] = MAX(stack_pred[a], pr);
                stack_shm[a] |= stack_shm[b];
                changed = true;
            }
        }
    }
    for (unsigned f = 0; f < nf; f++) {
        struct px_func *fn = &m->funcs[f];
        if (!fn->defined && fn->is_entry) {
            free(state);
            free(stack_mem);
            free(stack_reg);
            free(stack_pred);
            free(stack_shm);
            pp_perr(P, 0, "kernel '%s' has no body", fn->name);
        }
        fn->max_stack = stack_mem[f];
        fn->n_rows_chain = stack_reg[f];
        fn->n_preds_chain = stack_pred[f];
        fn->uses_dynshm = stack_shm[f];
    }
    free(state);
    free(stack_mem);
    free(stack_reg);
    free(stack_pred);
    free(stack_shm);
    /* a call of a function without a body (device malloc, printf) or of one
     * that cannot run makes its caller unable to run, up to the kernels */
    for (size_t e = 0; e + 2 < P->n_edges; e += 3) {
        struct px_func *caller = &m->funcs[P->edges[e]], *callee = &m->funcs[P->edges[e + 1]];
        if (!callee->defined && !caller->unsupported)
            caller->unsupported = pp_xprintf(P,
                                             "%s:%u: call of '%s', which has no body in this "
                                             "module",
                                             P->file, P->edges[e + 2], callee->name);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t e = 0; e + 2 < P->n_edges; e += 3) {
            struct px_func *caller = &m->funcs[P->edges[e]];
            struct px_func *callee = &m->funcs[P->edges[e + 1]];
            if (callee->unsupported && !caller->unsupported) {
                caller->unsupported = pp_xprintf(P, "%s (called at %s:%u)", callee->unsupported,
                                                 P->file, P->edges[e + 2]);
                changed = true;
            }
        }
    }
}

/* Whether i addresses a variable by name (its `target` says which kind):
 * a mov of the variable's address, or a memory access to it. */
static bool names_variable(const struct px_inst *i)
{
    return i->op == PX_MOV || i->op == PX_LD || i->op == PX_ST || i->op == PX_ATOM ||
           i->op == PX_RED;
}

/* Place i's variable at `base`: the address a mov loads, or the offset an
 * access adds, moves by base, and i no longer names a variable. */
static void rebase_variable(struct ptx_module *m, struct px_inst *i, uint64_t base)
{
    if (i->op == PX_MOV) {
        uint64_t *row = &m->imm[i->s[0].idx * 32];
        for (unsigned l = 0; l < 32; l++)
            row[l] += base;
    } else {
        i->off += (int64_t)base;
    }
    i->target = 0;
}

/* Whether no instruction of m can make a CTA's run depend on the timing of
 * another CTA's (ptx_kernel_info.cta_independent). The whole module is
 * looked at, so every callee of every kernel is: conservative and simple. */
static bool module_cta_independent(const struct ptx_module *m)
{
    for (uint32_t pc = 0; pc < m->n_ins; pc++) {
        const struct px_inst *i = &m->ins[pc];
        bool beyond_cta = i->space == SP_GLOBAL || i->space == SP_GENERIC;
        switch (i->op) {
        case PX_ATOM:
        case PX_RED:
            if (beyond_cta)
                return false;
            break;
        case PX_LD:
        case PX_ST:
            if (beyond_cta && i->sem != SEM_WEAK)
                return false;
            break;
        case PX_FENCE:
        case PX_TXBEGIN:
        case PX_TXCOMMIT:
            return false;
        case PX_MOV_SREG:
            switch (i->mod) {
            case SR_CLOCK:
            case SR_CLOCK_HI:
            case SR_CLOCK64:
            case SR_GLOBALTIMER:
            case SR_GLOBALTIMER_LO:
            case SR_GLOBALTIMER_HI:
                return false;
            default:
                break;
            }
            break;
        default:
            break;
        }
    }
    return true;
}

static void finish_module(struct parser *P)
{
    struct ptx_module *m = P->m;
    size_chains(P);
    /* a caller names the .const variables its callees name (size_chains has
     * refused recursion, so this ends) */
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t e = 0; e + 2 < P->n_edges; e += 3) {
            struct px_func *caller = &m->funcs[P->edges[e]];
            const struct px_func *callee = &m->funcs[P->edges[e + 1]];
            for (unsigned r = 0; r < callee->n_const_reads; r++) {
                unsigned before = caller->n_const_reads;
                pp_add_const_read(P, caller, callee->const_reads[r]);
                changed |= caller->n_const_reads != before;
            }
        }
    }
    /* rebase kernel-own shared variables after the common ones */
    uint32_t base = align_up32(m->shared_common, 16);
    for (unsigned f = 0; f < m->n_funcs; f++) {
        struct px_func *fn = &m->funcs[f];
        if (!fn->is_entry || !fn->defined)
            continue;
        for (uint32_t pc = fn->first; pc < fn->end; pc++) {
            struct px_inst *i = &m->ins[pc];
            if (i->target == 1 && names_variable(i))
                rebase_variable(m, i, base);
        }
    }
    bool independent = module_cta_independent(m);
    unsigned nk = 0;
    for (unsigned f = 0; f < m->n_funcs; f++)
        nk += m->funcs[f].is_entry;
    m->kernels = calloc(nk ? nk : 1, sizeof(*m->kernels));
    m->kernel_names = calloc(nk + 1, sizeof(char *));
    if (!m->kernels || !m->kernel_names)
        pp_perr(P, 0, "out of memory");
    for (unsigned f = 0; f < m->n_funcs; f++) {
        struct px_func *fn = &m->funcs[f];
        if (!fn->is_entry)
            continue;
        struct ptx_kernel *k = &m->kernels[m->n_kernels];
        k->m = m;
        k->f = fn;
        m->kernel_names[m->n_kernels++] = fn->name;
        fn->param_offset_arr = calloc(fn->n_params + 1, sizeof(uint32_t));
        fn->param_size_arr = calloc(fn->n_params + 1, sizeof(uint32_t));
        if (!fn->param_offset_arr || !fn->param_size_arr)
            pp_perr(P, 0, "out of memory");
        for (unsigned p = 0; p < fn->n_params; p++) {
            fn->param_offset_arr[p] = fn->params[p].off;
            fn->param_size_arr[p] = fn->params[p].size;
        }
        struct ptx_kernel_info *ki = &fn->info;
        ki->name = fn->name;
        ki->n_params = fn->n_params;
        ki->param_offset = fn->param_offset_arr;
        ki->param_size = fn->param_size_arr;
        ki->static_shmem_bytes = (fn->own_shmem_end ? base + fn->own_shmem_end : m->shared_common);
        ki->local_bytes = fn->max_stack;
        ki->regs_per_thread = fn->n_rows_chain + (fn->n_preds_chain + 31) / 32;
        ki->cta_independent = independent;
        fn->dynshm_base = align_up32(ki->static_shmem_bytes, 16);
    }
}

struct ptx_module *ptx_module_parse(const char *text, const char *filename, char *err,
                                    size_t errlen)
{
    struct parser *P = calloc(1, sizeof(*P));
    struct ptx_module *m0 = calloc(1, sizeof(*m0));
    if (!P || !m0) {
        free(P);
        free(m0);
        snprintf(err, errlen, "%s: out of memory", filename);
        return NULL;
    }
    P->text = P->p = text;
    P->file = filename;
    P->line = 1;
    P->err = err;
    P->errlen = errlen;
    P->m = m0;
    m0->filename = strdup(filename);
    volatile bool ok = false;
    if (setjmp(P->jb) == 0) {
        parse_module(P);
        finish_module(P);
        ok = true;
    }
    struct ptx_module *m = P->m;
    pp_sym_pop_to(P, 0);
    free(P->syms);
    pp_symtab_free(&P->tab);
    for (size_t k = 0; k < P->n_fix; k++)
        free(P->fix[k].name);
    free(P->fix);
    pp_symtab_free(&P->labels);
    free(P->reg_type);
    free(P->edges);
    free(P->tmp_init);
    for (int k = 0; k < 2; k++) {
        for (unsigned j = 0; j < P->pend_n[k]; j++)
            free(P->pend_p[k][j].name);
        free(P->pend_p[k]);
    }
    free(P);
    if (!ok) {
        ptx_module_free(m);
        return NULL;
    }
    m->text = strdup(text);
    if (!m->text) {
        ptx_module_free(m);
        snprintf(err, errlen, "%s: out of memory", filename);
        return NULL;
    }
    return m;
}

void ptx_module_free(struct ptx_module *m)
{
    if (!m)
        return;
    for (unsigned f = 0; f < m->n_funcs; f++) {
        struct px_func *fn = &m->funcs[f];
        for (unsigned k = 0; k < fn->n_params; k++)
            free(fn->params[k].name);
        for (unsigned k = 0; k < fn->n_rets; k++)
            free(fn->rets[k].name);
        free(fn->params);
        free(fn->rets);
        free(fn->param_offset_arr);
        free(fn->param_size_arr);
        free(fn->unsupported);
        free(fn->const_reads);
        free(fn->name);
    }
    free(m->funcs);
    for (unsigned k = 0; k < m->n_consts; k++)
        free(m->consts[k].name);
    free(m->consts);
    for (unsigned k = 0; k < m->n_globals; k++)
        free(m->globals[k].name);
    free(m->globals);
    free(m->gblock);
    for (uint32_t k = 0; k < m->n_labels; k++)
        free(m->labels[k].name);
    free(m->labels);
    free(m->ins);
    free(m->kernels);
    free(m->kernel_names);
    free(m->imm);
    free(m->cbank);
    free(m->calls);
    free(m->filename);
    free(m->text);
    free(m->locs);
    for (uint32_t f = 0; f < m->n_src_files; f++)
        free(m->src_files[f]);
    free(m->src_files);
    free(m);
}

const struct ptx_kernel *ptx_module_kernel(const struct ptx_module *m, const char *name)
{
    for (unsigned k = 0; k < m->n_kernels; k++)
        if (!strcmp(m->kernels[k].f->name, name))
            return &m->kernels[k];
    return NULL;
}

const char *const *ptx_module_kernel_names(const struct ptx_module *m)
{
    return m->kernel_names;
}

const struct ptx_module *ptx_kernel_module(const struct ptx_kernel *k)
{
    return k->m;
}

const char *ptx_module_filename(const struct ptx_module *m)
{
    return m->filename;
}

uint32_t ptx_module_n_insts(const struct ptx_module *m)
{
    return m->n_ins;
}

const char *ptx_module_text(const struct ptx_module *m)
{
    return m->text ? m->text : "";
}

uint32_t ptx_module_inst_line(const struct ptx_module *m, uint32_t pc)
{
    return pc < m->n_ins ? m->ins[pc].line : 0;
}

const char *ptx_module_inst_source(const struct ptx_module *m, uint32_t pc, uint32_t *line)
{
    const struct px_loc *l = m->locs && pc < m->n_ins ? &m->locs[pc] : NULL;
    if (l && l->line && l->file < m->n_src_files && m->src_files[l->file]) {
        *line = l->line;
        return m->src_files[l->file];
    }
    *line = 0;
    return NULL;
}

const struct ptx_kernel_info *ptx_kernel_info(const struct ptx_kernel *k)
{
    return &k->f->info;
}

const char *ptx_kernel_unsupported(const struct ptx_kernel *k)
{
    return k->f->unsupported;
}

const struct ptx_var *ptx_module_const(const struct ptx_module *m, const char *name)
{
    for (unsigned k = 0; k < m->n_consts; k++)
        if (!strcmp(m->consts[k].name, name))
            return &m->consts[k];
    return NULL;
}

void ptx_module_const_write(struct ptx_module *m, const struct ptx_var *c, uint32_t offset,
                            const void *src, uint32_t n)
{
    struct ptx_var *own = &m->consts[c - m->consts];
    memcpy(m->cbank + own->offset + offset, src, n);
    own->set = true;
}

void ptx_module_const_read(const struct ptx_module *m, const struct ptx_var *c, uint32_t offset,
                           void *dst, uint32_t n)
{
    memcpy(dst, m->cbank + c->offset + offset, n);
}

const struct ptx_var *ptx_module_global(const struct ptx_module *m, const char *name)
{
    for (unsigned k = 0; k < m->n_globals; k++)
        if (!strcmp(m->globals[k].name, name))
            return &m->globals[k];
    return NULL;
}

const uint8_t *ptx_module_globals(const struct ptx_module *m, uint32_t *bytes)
{
    *bytes = m->gblock_bytes;
    return m->gblock;
}

void ptx_module_place_globals(struct ptx_module *m, addr_t base)
{
    panic_if(m->gblock_base, "%s: its .global variables are placed twice", m->filename);
    m->gblock_base = base;
    for (uint32_t pc = 0; pc < m->n_ins; pc++) {
        struct px_inst *i = &m->ins[pc];
        if (i->target == PX_GLOBAL_VAR && names_variable(i))
            rebase_variable(m, i, base);
    }
}

addr_t ptx_module_globals_base(const struct ptx_module *m)
{
    return m->gblock_base;
}

unsigned ptx_kernel_n_consts(const struct ptx_kernel *k)
{
    return k->f->n_const_reads;
}

const struct ptx_var *ptx_kernel_const(const struct ptx_kernel *k, unsigned i)
{
    return &k->m->consts[k->f->const_reads[i]];
}

const struct ptx_var *ptx_kernel_unset_const(const struct ptx_kernel *k)
{
    for (unsigned i = 0; i < k->f->n_const_reads; i++) {
        const struct ptx_var *c = ptx_kernel_const(k, i);
        if (!c->initialised && !c->set)
            return c;
    }
    return NULL;
}
