/*
 * parse.c - PTX text to the decoded form of ir.h, in one pass per function.
 *
 * Accepts what nvcc 13 emits for sm_75..sm_90 (PTX ISA 9.0): module
 * directives, .entry/.func with parameters, .reg/.shared/.local/.param/.const
 * declarations (register ranges, arrays, alignment, initialisers), nested
 * { } scopes (nvcc's call sequences and inline-asm blocks), labels, guards,
 * vector operands and the instruction set listed in decode_inst(). Anything
 * else is an error "file:line: ..." naming the construct; nothing is skipped
 * silently except hints that do not change results (.pragma, cache
 * operators, performance-tuning directives and the DWARF .section .debug_*
 * blocks of -lineinfo and -G). .loc and .file lines are kept as each
 * instruction's CUDA source line (ptx_module.locs), for fault dumps.
 * Half precision (.f16 .f16x2 .bf16 .bf16x2) covers what cuda_fp16.h and
 * cuda_bf16.h emit for sm_75..sm_90: add/sub/mul/fma/min/max/neg/abs,
 * ex2/tanh.approx, setp (p|q per element of packed operands), set, and the
 * packing cvt and mov forms; decode_half() lists the modifiers per form.
 * Atomics on halves are atom/red.add.noftz (.f16 .bf16 .f16x2 .bf16x2) and
 * atom.cas.b16, what atomicAdd and atomicCAS on 16-bit types emit.
 * A call of the .extern vprintf (device printf) is decoded as PX_PRINTF
 * (printf.c), not as a call of a function without a body.
 * Errors unwind with longjmp to ptx_module_parse, which frees what was built.
 * NOT MODELED: module-level .global variables, indirect calls, recursion,
 * carry (.cc) arithmetic, texture/surface instructions, cp.async, mma,
 * vector atomics (atom.v2.f16 ...), fma.oob, fp8 and tf32 conversions.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/ir.h"

#include "base/bits.h"
#include "base/log.h"

#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ lexer */

enum tok_kind { TK_EOF, TK_WORD, TK_NUM, TK_STR, TK_PUNCT };

struct tok {
    enum tok_kind kind;
    const char *s; /* start in the text */
    unsigned len;
    unsigned line;
};

/* ------------------------------------------------------------------ symbols */

enum sym_kind { SY_REG, SY_PRED, SY_VAR, SY_FUNC };

struct sym {
    char *name;
    uint8_t kind;    /* enum sym_kind */
    uint8_t type;    /* registers: px_type; variables: element type */
    uint8_t space;   /* variables: px_space */
    uint8_t rel;     /* variables: px_addr_rel */
    uint32_t idx;    /* register row / predicate / function index */
    uint64_t off;    /* variables: byte offset in their space */
    uint64_t size;
    int shadow;      /* previous symbol of the same name, -1 none */
};

/* name -> newest symbol index; open addressing, keys never removed */
struct symtab {
    char **keys;
    int *val;
    size_t cap, n;
};

struct labfix {
    uint32_t pc;   /* the branch */
    char *name;
    unsigned line;
};

struct parser {
    unsigned block_depth; /* nesting of { } blocks in the function being parsed */
    const char *text, *p, *file;
    unsigned line;
    struct tok look;
    bool has_look;
    char *err;
    size_t errlen;
    jmp_buf jb;
    struct ptx_module *m;
    size_t cap_ins, cap_funcs, cap_imm, cap_calls;
    struct sym *syms;
    size_t n_syms, cap_syms;
    struct symtab tab;
    /* the function being parsed */
    struct px_func *fn;
    uint32_t n_regs, n_preds;
    uint32_t frame_cur, frame_max;
    uint32_t shared_own;            /* kernel: own shared bytes so far */
    struct symtab labels;           /* label -> pc */
    struct labfix *fix;
    size_t n_fix, cap_fix;
    uint8_t *reg_type;              /* per register row of fn: px_type */
    size_t cap_reg_type;
    /* call graph, for frame and register-file sizes */
    uint32_t *edges;                /* triples (caller, callee, line of the call) */
    uint8_t *tmp_init;              /* initialiser being parsed (freed on error) */
    struct px_param *pend_p[2];     /* return and parameter lists being parsed */
    unsigned pend_n[2];
    size_t n_edges, cap_edges;
    struct px_loc loc;              /* the last .loc: the source of the instructions below */
    size_t cap_locs;
};

/* "file:line: message" into P->err. */
static void set_err(struct parser *P, unsigned line, const char *fmt, va_list ap)
{
    int n = snprintf(P->err, P->errlen, "%s:%u: ", P->file, line);
    if (n < 0 || (size_t)n >= P->errlen)
        n = 0;
    vsnprintf(P->err + n, P->errlen - (size_t)n, fmt, ap);
}

static _Noreturn PRINTF_LIKE(3, 4) void perr(struct parser *P, unsigned line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_err(P, line, fmt, ap);
    va_end(ap);
    longjmp(P->jb, 1);
}

/* An instruction gpucoh does not model (as opposed to malformed PTX): the
 * message goes to P->err like perr's, but the statement's caller catches it
 * (longjmp value 2), so only the function using it - and the kernels that call
 * it - are rejected, when launched (ptx_kernel_unsupported). */
static _Noreturn PRINTF_LIKE(3, 4) void punsup(struct parser *P, unsigned line, const char *fmt,
                                               ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_err(P, line, fmt, ap);
    va_end(ap);
    longjmp(P->jb, 2);
}

static void *xrealloc(struct parser *P, void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        perr(P, P->line, "out of memory");
    return q;
}

#define GROW(P, arr, n, cap)                                                                       \
    do {                                                                                           \
        if ((n) >= (cap)) {                                                                        \
            (cap) = (cap) ? (cap)*2 : 16;                                                          \
            (arr) = xrealloc((P), (arr), (cap) * sizeof(*(arr)));                                  \
        }                                                                                          \
    } while (0)

static PRINTF_LIKE(2, 3) char *xprintf(struct parser *P, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *out = NULL;
    int n = vasprintf(&out, fmt, ap);
    va_end(ap);
    if (n < 0)
        perr(P, 0, "out of memory");
    return out;
}

static char *xstrndup(struct parser *P, const char *s, size_t n)
{
    char *d = xrealloc(P, NULL, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (uint8_t)*s++) * 1099511628211ull;
    return h;
}

static int *symtab_slot(struct parser *P, struct symtab *t, const char *name, bool insert)
{
    if (insert && (t->n + 1) * 2 > t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 256;
        char **nk = calloc(ncap, sizeof(*nk));
        int *nv = calloc(ncap, sizeof(*nv));
        if (!nk || !nv)
            perr(P, P->line, "out of memory");
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->keys[i])
                continue;
            size_t j = hash_str(t->keys[i]) & (ncap - 1);
            while (nk[j])
                j = (j + 1) & (ncap - 1);
            nk[j] = t->keys[i];
            nv[j] = t->val[i];
        }
        free(t->keys);
        free(t->val);
        t->keys = nk;
        t->val = nv;
        t->cap = ncap;
    }
    if (!t->cap)
        return NULL;
    size_t j = hash_str(name) & (t->cap - 1);
    while (t->keys[j]) {
        if (!strcmp(t->keys[j], name))
            return &t->val[j];
        j = (j + 1) & (t->cap - 1);
    }
    if (!insert)
        return NULL;
    t->keys[j] = xstrndup(P, name, strlen(name));
    t->val[j] = -1;
    t->n++;
    return &t->val[j];
}

static void symtab_free(struct symtab *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->keys[i]);
    free(t->keys);
    free(t->val);
    memset(t, 0, sizeof(*t));
}

static struct sym *sym_find(struct parser *P, const char *name)
{
    int *v = symtab_slot(P, &P->tab, name, false);
    return (v && *v >= 0) ? &P->syms[*v] : NULL;
}

static struct sym *sym_add(struct parser *P, const char *name, unsigned line)
{
    int *v = symtab_slot(P, &P->tab, name, true);
    if (*v >= 0 && *v >= (int)0 && P->fn && P->syms[*v].kind != SY_FUNC) {
        /* a redeclaration in the same function scope is an error only when it
         * is not shadowing an outer scope; scopes are tracked by sym index */
    }
    (void)line;
    GROW(P, P->syms, P->n_syms, P->cap_syms);
    struct sym *s = &P->syms[P->n_syms];
    memset(s, 0, sizeof(*s));
    s->name = xstrndup(P, name, strlen(name));
    s->shadow = *v;
    *v = (int)P->n_syms++;
    return s;
}

/* Drop every symbol declared after `mark` (leaving a { } scope). */
static void sym_pop_to(struct parser *P, size_t mark)
{
    while (P->n_syms > mark) {
        struct sym *s = &P->syms[--P->n_syms];
        int *v = symtab_slot(P, &P->tab, s->name, false);
        if (v)
            *v = s->shadow;
        free(s->name);
    }
}

/* ------------------------------------------------------------------ lexing */

static bool word_start(int c)
{
    return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

static bool word_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '.';
}

static struct tok lex(struct parser *P)
{
    const char *p = P->p;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            if (*p == '\n')
                P->line++;
            p++;
        }
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            p += 2;
            while (*p && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n')
                    P->line++;
                p++;
            }
            if (*p)
                p += 2;
            continue;
        }
        break;
    }
    struct tok t = {TK_EOF, p, 0, P->line};
    if (!*p) {
        P->p = p;
        return t;
    }
    const char *s = p;
    if (word_start((unsigned char)*p)) {
        p++;
        for (;;) {
            if (word_char((unsigned char)*p))
                p++;
            else if (p[0] == ':' && p[1] == ':')
                p += 2;
            else
                break;
        }
        t.kind = TK_WORD;
    } else if (isdigit((unsigned char)*p)) {
        while (isalnum((unsigned char)*p) || *p == '.' ||
               ((*p == '+' || *p == '-') && (p[-1] == 'e' || p[-1] == 'E') &&
                !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X' || s[1] == 'f' || s[1] == 'F' ||
                                  s[1] == 'd' || s[1] == 'D'))))
            p++;
        t.kind = TK_NUM;
    } else if (*p == '"') {
        p++;
        while (*p && *p != '"' && *p != '\n')
            p++;
        if (*p != '"')
            perr(P, P->line, "unterminated string");
        p++;
        t.kind = TK_STR;
    } else {
        p++;
        t.kind = TK_PUNCT;
    }
    t.s = s;
    t.len = (unsigned)(p - s);
    P->p = p;
    return t;
}

static struct tok peek(struct parser *P)
{
    if (!P->has_look) {
        P->look = lex(P);
        P->has_look = true;
    }
    return P->look;
}

static struct tok next(struct parser *P)
{
    struct tok t = peek(P);
    P->has_look = false;
    return t;
}

static bool tok_is(struct tok t, const char *s)
{
    return t.len == strlen(s) && !memcmp(t.s, s, t.len);
}

static bool accept(struct parser *P, const char *s)
{
    if (tok_is(peek(P), s)) {
        next(P);
        return true;
    }
    return false;
}

static const char *tok_text(struct tok t, char *buf, size_t n)
{
    if (t.kind == TK_EOF)
        return "end of file";
    snprintf(buf, n, "%.*s", (int)(t.len > 60 ? 60 : t.len), t.s);
    return buf;
}

static void expect(struct parser *P, const char *s)
{
    struct tok t = next(P);
    if (!tok_is(t, s)) {
        char b[64];
        perr(P, t.line, "expected '%s', found '%s'", s, tok_text(t, b, sizeof b));
    }
}

static char *word(struct parser *P, struct tok *out, const char *what)
{
    struct tok t = next(P);
    if (t.kind != TK_WORD) {
        char b[64];
        perr(P, t.line, "expected %s, found '%s'", what, tok_text(t, b, sizeof b));
    }
    if (out)
        *out = t;
    static char buf[4][256];
    static int k;
    char *d = buf[k++ & 3];
    snprintf(d, 256, "%.*s", (int)t.len, t.s);
    return d;
}

/* Integer literal: decimal, hex (0x), octal (0...), binary (0b), optional U. */
static bool parse_int_text(const char *s, unsigned len, uint64_t *v)
{
    char b[80];
    if (len == 0 || len >= sizeof b)
        return false;
    memcpy(b, s, len);
    b[len] = 0;
    if (b[len - 1] == 'U' || b[len - 1] == 'u')
        b[--len] = 0;
    char *end;
    int base = 10;
    const char *q = b;
    if (b[0] == '0' && (b[1] == 'x' || b[1] == 'X'))
        base = 16, q = b + 2;
    else if (b[0] == '0' && (b[1] == 'b' || b[1] == 'B'))
        base = 2, q = b + 2;
    else if (b[0] == '0' && b[1])
        base = 8, q = b + 1;
    if (!*q)
        return false;
    *v = strtoull(q, &end, base);
    return *end == 0;
}

/* A numeric token as integer or float. is_float: 1 = f32 bits, 2 = f64 bits. */
struct num {
    uint64_t bits;
    int is_float;
};

static bool parse_num_text(const char *s, unsigned len, struct num *n)
{
    n->is_float = 0;
    if (len > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F') && len == 10) {
        char b[16];
        memcpy(b, s + 2, 8);
        b[8] = 0;
        char *e;
        n->bits = strtoull(b, &e, 16);
        n->is_float = 1;
        return !*e;
    }
    if (len > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D') && len == 18) {
        char b[20];
        memcpy(b, s + 2, 16);
        b[16] = 0;
        char *e;
        n->bits = strtoull(b, &e, 16);
        n->is_float = 2;
        return !*e;
    }
    if (parse_int_text(s, len, &n->bits))
        return true;
    char b[80];
    if (len >= sizeof b)
        return false;
    memcpy(b, s, len);
    b[len] = 0;
    char *e;
    double d = strtod(b, &e);
    if (*e)
        return false;
    memcpy(&n->bits, &d, 8);
    n->is_float = 2;
    return true;
}

/* ------------------------------------------------------------------ types */

static const char *const type_names[PT_N] = {
    [PT_PRED] = "pred", [PT_B8] = "b8",   [PT_B16] = "b16",     [PT_B32] = "b32",
    [PT_B64] = "b64",   [PT_U8] = "u8",   [PT_U16] = "u16",     [PT_U32] = "u32",
    [PT_U64] = "u64",   [PT_S8] = "s8",   [PT_S16] = "s16",     [PT_S32] = "s32",
    [PT_S64] = "s64",   [PT_F16] = "f16", [PT_F16X2] = "f16x2", [PT_BF16] = "bf16",
    [PT_BF16X2] = "bf16x2", [PT_F32] = "f32", [PT_F64] = "f64",
};

static int type_of(const char *s)
{
    for (int i = 1; i < PT_N; i++)
        if (type_names[i] && !strcmp(s, type_names[i]))
            return i;
    return PT_NONE;
}

static uint32_t align_up32(uint32_t x, uint32_t a)
{
    return a ? (x + a - 1) / a * a : x;
}

/* ------------------------------------------------------------------ module pieces */

static uint32_t imm_row(struct parser *P, uint64_t v)
{
    struct ptx_module *m = P->m;
    if (m->n_imm + 1 > P->cap_imm) {
        P->cap_imm = P->cap_imm ? P->cap_imm * 2 : 64;
        m->imm = xrealloc(P, m->imm, P->cap_imm * 32 * sizeof(uint64_t));
    }
    for (unsigned l = 0; l < 32; l++)
        m->imm[m->n_imm * 32 + l] = v;
    return m->n_imm++;
}

/* A number token of the directive on `line`, or false (left unread). */
static bool loc_number(struct parser *P, unsigned line, uint32_t *v)
{
    struct tok t = peek(P);
    if (t.kind != TK_NUM || t.line != line || t.len > 10)
        return false;
    char b[16];
    snprintf(b, sizeof b, "%.*s", (int)t.len, t.s);
    char *end;
    unsigned long x = strtoul(b, &end, 10);
    if (*end || x > UINT32_MAX)
        return false;
    next(P);
    *v = (uint32_t)x;
    return true;
}

/* .loc FILE LINE ...: the instructions that follow come from that line.
 * Malformed ones are ignored, as the hint they are. */
static void parse_loc(struct parser *P, unsigned line)
{
    struct px_loc l;
    if (loc_number(P, line, &l.file) && loc_number(P, line, &l.line) && l.file)
        P->loc = l;
}

/* .file N "name": the source file .loc lines call N (nvcc puts these last). */
static void parse_file(struct parser *P, unsigned line)
{
    uint32_t n;
    if (!loc_number(P, line, &n) || !n || n > 65535)
        return;
    struct tok name = peek(P);
    if (name.kind != TK_STR || name.line != line || name.len < 2)
        return;
    next(P);
    struct ptx_module *m = P->m;
    if (n >= m->n_src_files) {
        m->src_files = xrealloc(P, m->src_files, (n + 1) * sizeof *m->src_files);
        memset(m->src_files + m->n_src_files, 0, (n + 1 - m->n_src_files) * sizeof *m->src_files);
        m->n_src_files = n + 1;
    }
    free(m->src_files[n]);
    m->src_files[n] = xprintf(P, "%.*s", (int)name.len - 2, name.s + 1);
}

static struct px_inst *new_inst(struct parser *P, unsigned line)
{
    struct ptx_module *m = P->m;
    GROW(P, m->ins, m->n_ins, P->cap_ins);
    if (P->loc.file && P->cap_locs < P->cap_ins) { /* -lineinfo: locs follows ins */
        m->locs = xrealloc(P, m->locs, P->cap_ins * sizeof *m->locs);
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
    return i;
}

/* ------------------------------------------------------------------ operands */

enum rop_kind { RO_NAME, RO_NUM, RO_VEC, RO_ADDR, RO_LIST, RO_SINK };

struct rop {
    uint8_t kind;
    bool neg;       /* !name */
    bool minus;     /* -number */
    char name[128]; /* RO_NAME; RO_ADDR base (may be empty) */
    struct num num;
    int64_t off;    /* RO_ADDR */
    char pipe[128]; /* name after '|' (setp, shfl) */
    unsigned n;     /* RO_VEC / RO_LIST elements */
    char elem[16][128];
    unsigned line;
};

static void parse_name_into(struct parser *P, char *dst, const char *what)
{
    struct tok t;
    const char *w = word(P, &t, what);
    snprintf(dst, 128, "%s", w);
}

static void parse_operand(struct parser *P, struct rop *o)
{
    memset(o, 0, sizeof(*o));
    struct tok t = peek(P);
    o->line = t.line;
    if (accept(P, "{")) {
        o->kind = RO_VEC;
        do {
            if (o->n >= 16)
                perr(P, t.line, "vector operand with more than 16 elements");
            struct tok e = peek(P);
            bool minus = e.kind == TK_PUNCT && e.s[0] == '-';
            if (minus) {
                next(P);
                e = peek(P);
            }
            if (accept(P, "_")) {
                snprintf(o->elem[o->n++], 128, "_");
            } else if (e.kind == TK_NUM) {
                /* an immediate element ({0, %rs1} in cuda_bf16.h), kept as text */
                next(P);
                snprintf(o->elem[o->n++], 128, "%s%.*s", minus ? "-" : "",
                         (int)(e.len > 120 ? 120 : e.len), e.s);
            } else {
                if (minus)
                    perr(P, e.line, "'-' before a register in a vector operand");
                parse_name_into(P, o->elem[o->n++], "a register in a vector operand");
            }
        } while (accept(P, ","));
        expect(P, "}");
        return;
    }
    if (accept(P, "(")) {
        o->kind = RO_LIST;
        if (!accept(P, ")")) {
            do {
                if (o->n >= 16)
                    perr(P, t.line, "more than 16 call parameters");
                parse_name_into(P, o->elem[o->n++], "a parameter name");
            } while (accept(P, ","));
            expect(P, ")");
        }
        return;
    }
    if (accept(P, "[")) {
        o->kind = RO_ADDR;
        struct tok a = peek(P);
        if (a.kind == TK_WORD) {
            parse_name_into(P, o->name, "an address");
            if (accept(P, "+")) {
                bool neg = accept(P, "-");
                struct tok n = next(P);
                uint64_t v;
                if (n.kind != TK_NUM || !parse_int_text(n.s, n.len, &v))
                    perr(P, n.line, "bad address offset");
                o->off = neg ? -(int64_t)v : (int64_t)v;
            } else if (accept(P, "-")) {
                struct tok n = next(P);
                uint64_t v;
                if (n.kind != TK_NUM || !parse_int_text(n.s, n.len, &v))
                    perr(P, n.line, "bad address offset");
                o->off = -(int64_t)v;
            }
        } else {
            bool neg = accept(P, "-");
            struct tok n = next(P);
            uint64_t v;
            if (n.kind != TK_NUM || !parse_int_text(n.s, n.len, &v)) {
                char b[64];
                perr(P, n.line, "bad address operand '%s'", tok_text(n, b, sizeof b));
            }
            o->off = neg ? -(int64_t)v : (int64_t)v;
        }
        expect(P, "]");
        return;
    }
    if (accept(P, "!")) {
        o->neg = true;
        t = peek(P);
    }
    if (accept(P, "-")) {
        o->minus = true;
        t = peek(P);
    }
    if (t.kind == TK_NUM) {
        next(P);
        if (!parse_num_text(t.s, t.len, &o->num)) {
            char b[64];
            perr(P, t.line, "bad number '%s'", tok_text(t, b, sizeof b));
        }
        o->kind = RO_NUM;
        return;
    }
    if (t.kind == TK_WORD) {
        parse_name_into(P, o->name, "an operand");
        o->kind = tok_is(t, "_") ? RO_SINK : RO_NAME;
        if (accept(P, "|"))
            parse_name_into(P, o->pipe, "a predicate after '|'");
        if (accept(P, "+")) {
            /* symbol+offset as an address value (mov, cvta) */
            struct tok n = next(P);
            uint64_t v;
            if (n.kind != TK_NUM || !parse_int_text(n.s, n.len, &v))
                perr(P, n.line, "bad symbol offset");
            o->off = (int64_t)v;
        }
        return;
    }
    char b[64];
    perr(P, t.line, "bad operand '%s'", tok_text(t, b, sizeof b));
}

/* ------------------------------------------------------------------ operand resolution */

/* The transaction markers (docs/transactions.md): calls of these functions,
 * under their C or C++ (Itanium-mangled) names, begin and commit a
 * transaction instead of calling. Returns PX_TXBEGIN, PX_TXCOMMIT or 0. */
static int tx_marker(const char *name)
{
    if (!strcmp(name, "gpucoh_tx_begin") || !strcmp(name, "_Z15gpucoh_tx_beginv"))
        return PX_TXBEGIN;
    if (!strcmp(name, "gpucoh_tx_commit") || !strcmp(name, "_Z16gpucoh_tx_commitv"))
        return PX_TXCOMMIT;
    return 0;
}

static struct sym *need_sym(struct parser *P, const char *name, unsigned line)
{
    struct sym *s = sym_find(P, name);
    if (!s) {
        if (name[0] == '%')
            perr(P, line, "undeclared register '%s'", name);
        perr(P, line, "undeclared identifier '%s'", name);
    }
    return s;
}

static struct px_opnd reg_opnd(struct parser *P, const char *name, unsigned line)
{
    struct sym *s = need_sym(P, name, line);
    if (s->kind == SY_REG)
        return (struct px_opnd){OK_REG, 0, s->idx};
    if (s->kind == SY_PRED)
        perr(P, line, "predicate '%s' used where a register is expected", name);
    perr(P, line, "'%s' is not a register", name);
}

static struct px_opnd pred_opnd(struct parser *P, const char *name, bool neg, unsigned line)
{
    struct sym *s = need_sym(P, name, line);
    if (s->kind != SY_PRED)
        perr(P, line, "'%s' is not a predicate", name);
    return (struct px_opnd){OK_PRED, neg, s->idx};
}

/* Converts a literal to the bit pattern of `type`. */
static uint64_t literal_bits(struct parser *P, const struct rop *o, int type)
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
    if (n.is_float && (type == PT_F16 || type == PT_BF16 || type == PT_F16X2 ||
                       type == PT_BF16X2))
        perr(P, o->line, "floating-point literal for a .%s operand (PTX writes half "
             "constants as bit patterns, e.g. mov.b16 %%h, 0x3c00)", type_names[type]);
    if (n.is_float) {
        /* hex float literal used as raw bits for a bit-size operand */
        if (n.is_float == 2 && px_type_bytes((unsigned)type) < 8)
            perr(P, o->line, "double literal for a %s operand", type_names[type]);
        return n.bits;
    }
    uint64_t v = o->minus ? (uint64_t)(-(int64_t)n.bits) : n.bits;
    unsigned bytes = px_type_bytes((unsigned)type);
    if (bytes && bytes < 8)
        v &= (1ull << (bytes * 8)) - 1;
    return v;
}

static struct px_opnd val_opnd(struct parser *P, const struct rop *o, int type);

/* A source element of a vector operand: a register or an immediate of `type`. */
static struct px_opnd vec_src(struct parser *P, const char *e, int type, unsigned line)
{
    if (e[0] != '-' && !isdigit((unsigned char)e[0]))
        return reg_opnd(P, e, line);
    struct rop o;
    memset(&o, 0, sizeof o);
    o.kind = RO_NUM;
    o.line = line;
    o.minus = e[0] == '-';
    const char *d = e + o.minus;
    if (!parse_num_text(d, (unsigned)strlen(d), &o.num))
        perr(P, line, "bad number '%s' in a vector operand", e);
    return val_opnd(P, &o, type);
}

static struct px_opnd val_opnd(struct parser *P, const struct rop *o, int type)
{
    if (o->kind == RO_NUM)
        return (struct px_opnd){OK_IMM, 0, imm_row(P, literal_bits(P, o, type))};
    if (o->kind == RO_NAME) {
        if (o->minus)
            perr(P, o->line, "'-%s' is not a valid operand", o->name);
        return reg_opnd(P, o->name, o->line);
    }
    perr(P, o->line, "bad operand: expected a register or an immediate");
}

/* ------------------------------------------------------------------ modifiers */

#define MAX_MODS 12

struct mods {
    int types[3];
    int nt;
    int space;        /* px_space, SP_NONE if absent */
    int sem;          /* -1 absent */
    int scope;        /* -1 absent */
    int vec;
    int rnd;
    bool intrnd, ftz, sat, approx, full, uni, sync, aligned, nan;
    const char *extra[MAX_MODS]; /* op-specific words, consumed by decode */
    int n_extra;
};

static const char *take(struct mods *md, const char *w)
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
static int take_one(struct mods *md, const char *const *names)
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

static void no_extras(struct parser *P, struct mods *md, const char *opname, unsigned line)
{
    for (int i = 0; i < md->n_extra; i++)
        if (md->extra[i])
            punsup(P, line, "unsupported modifier '.%s' in '%s'", md->extra[i], opname);
}

static void split_mods(struct parser *P, char *parts[], int n, struct mods *md, const char *opname,
                       unsigned line)
{
    memset(md, 0, sizeof(*md));
    md->sem = md->scope = -1;
    md->vec = 1;
    for (int i = 0; i < n; i++) {
        const char *w = parts[i];
        int t = type_of(w);
        if (t) {
            if (md->nt >= 3)
                perr(P, line, "too many types in '%s'", opname);
            md->types[md->nt++] = t;
        } else if (!strcmp(w, "global")) md->space = SP_GLOBAL;
        else if (!strcmp(w, "shared") || !strcmp(w, "shared::cta")) md->space = SP_SHARED;
        else if (!strcmp(w, "local")) md->space = SP_LOCAL;
        else if (!strcmp(w, "param")) md->space = SP_PARAM;
        else if (!strcmp(w, "const")) md->space = SP_CONST;
        else if (!strcmp(w, "weak")) md->sem = SEM_WEAK;
        else if (!strcmp(w, "volatile")) md->sem = SEM_VOLATILE;
        else if (!strcmp(w, "relaxed")) md->sem = SEM_RELAXED;
        else if (!strcmp(w, "acquire")) md->sem = SEM_ACQUIRE;
        else if (!strcmp(w, "release")) md->sem = SEM_RELEASE;
        else if (!strcmp(w, "acq_rel")) md->sem = SEM_ACQ_REL;
        else if (!strcmp(w, "sc")) md->sem = SEM_SC;
        else if (!strcmp(w, "cta")) md->scope = SCOPE_CTA;
        else if (!strcmp(w, "gpu")) md->scope = SCOPE_GPU;
        else if (!strcmp(w, "sys")) md->scope = SCOPE_SYS;
        else if (!strcmp(w, "v2")) md->vec = 2;
        else if (!strcmp(w, "v4")) md->vec = 4;
        else if (!strcmp(w, "rn")) md->rnd = RND_RN;
        else if (!strcmp(w, "rz")) md->rnd = RND_RZ;
        else if (!strcmp(w, "rm")) md->rnd = RND_RM;
        else if (!strcmp(w, "rp")) md->rnd = RND_RP;
        else if (!strcmp(w, "rna")) md->rnd = RND_RNA;
        else if (!strcmp(w, "rni")) md->rnd = RND_RN, md->intrnd = true;
        else if (!strcmp(w, "rzi")) md->rnd = RND_RZ, md->intrnd = true;
        else if (!strcmp(w, "rmi")) md->rnd = RND_RM, md->intrnd = true;
        else if (!strcmp(w, "rpi")) md->rnd = RND_RP, md->intrnd = true;
        else if (!strcmp(w, "ftz")) md->ftz = true;
        else if (!strcmp(w, "sat")) md->sat = true;
        else if (!strcmp(w, "approx")) md->approx = true;
        else if (!strcmp(w, "full")) md->full = true;
        else if (!strcmp(w, "uni")) md->uni = true;
        else if (!strcmp(w, "sync")) md->sync = true;
        else if (!strcmp(w, "aligned")) md->aligned = true;
        else if (!strcmp(w, "NaN")) md->nan = true;
        /* cache operators and eviction hints: accepted, they do not change values */
        else if (!strcmp(w, "ca") || !strcmp(w, "cg") || !strcmp(w, "cs") || !strcmp(w, "lu") ||
                 !strcmp(w, "cv") || !strcmp(w, "wb") || !strcmp(w, "wt") || !strcmp(w, "nc") ||
                 !strncmp(w, "L1::", 4) || !strncmp(w, "L2::", 4))
            ;
        else if (!strcmp(w, "cluster") || !strcmp(w, "shared::cluster"))
            punsup(P, line, "unsupported modifier '.%s' in '%s' (clusters are not modelled)", w,
                 opname);
        else {
            if (md->n_extra >= MAX_MODS)
                perr(P, line, "too many modifiers in '%s'", opname);
            md->extra[md->n_extra++] = w;
        }
    }
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
        P->reg_type = xrealloc(P, P->reg_type, P->cap_reg_type);
        memset(P->reg_type + old, 0, P->cap_reg_type - old);
    }
    P->reg_type[idx] = (uint8_t)type;
}

static void declare_reg(struct parser *P, const char *name, int type, unsigned line)
{
    struct sym *s = sym_add(P, name, line);
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
static void parse_reg_decl(struct parser *P, unsigned line, const char *tw)
{
    struct tok t;
    int vec = 1;
    if (!tw)
        tw = word(P, &t, "a register type");
    if (!strcmp(tw, ".v2") || !strcmp(tw, ".v4"))
        perr(P, line, "vector register declarations (.reg %s) are not supported", tw);
    int type = tw[0] == '.' ? type_of(tw + 1) : PT_NONE;
    if (!type)
        perr(P, line, "bad register type '%s'", tw);
    (void)vec;
    do {
        char name[128];
        parse_name_into(P, name, "a register name");
        if (accept(P, "<")) {
            struct tok n = next(P);
            uint64_t cnt;
            if (n.kind != TK_NUM || !parse_int_text(n.s, n.len, &cnt) || cnt > 1000000)
                perr(P, line, "bad register range count");
            expect(P, ">");
            for (uint64_t i = 0; i < cnt; i++) {
                char nm[160];
                snprintf(nm, sizeof nm, "%s%llu", name, (unsigned long long)i);
                declare_reg(P, nm, type, line);
            }
        } else {
            declare_reg(P, name, type, line);
        }
    } while (accept(P, ","));
    expect(P, ";");
}

/* Initialiser values into bytes; nested braces for multi-dimensional arrays. */
static void parse_init(struct parser *P, uint8_t *buf, uint64_t size, int type, uint64_t *pos,
                       unsigned line)
{
    unsigned eb = px_type_bytes((unsigned)type);
    if (accept(P, "{")) {
        if (!accept(P, "}")) {
            do
                parse_init(P, buf, size, type, pos, line);
            while (accept(P, ","));
            expect(P, "}");
        }
        return;
    }
    struct rop o;
    parse_operand(P, &o);
    if (o.kind != RO_NUM)
        perr(P, line, "unsupported initialiser (only numeric constants are supported)");
    uint64_t v = literal_bits(P, &o, type);
    if (*pos + eb > size)
        perr(P, line, "too many initialiser values");
    memcpy(buf + *pos, &v, eb);
    *pos += eb;
}

/* [.attribute(.managed)] [.align N] .type name[dims] [= init] ;  for
 * .shared/.local/.const/.global/.param. A __managed__ variable (.global
 * .attribute(.managed)) is an ordinary .global one to the kernels; the CUDA
 * stand-in maps it into the program too (docs/cuda.md). */
static void parse_var_decl(struct parser *P, int space, bool is_extern, unsigned line)
{
    uint32_t align = 0;
    struct tok t;
    char *w = word(P, &t, "a type or .align");
    if (!strcmp(w, ".attribute")) {
        expect(P, "(");
        char *a = word(P, &t, "a variable attribute");
        if (strcmp(a, ".managed") || space != SP_GLOBAL)
            perr(P, line, "unsupported variable attribute '%s'%s", a,
                 space != SP_GLOBAL ? " (only .global variables may be .managed)" : "");
        expect(P, ")");
        w = word(P, &t, "a type or .align");
    }
    if (!strcmp(w, ".align")) {
        struct tok n = next(P);
        uint64_t a;
        if (n.kind != TK_NUM || !parse_int_text(n.s, n.len, &a) || !a || (a & (a - 1)))
            perr(P, line, "bad .align value");
        align = (uint32_t)a;
        w = word(P, &t, "a type");
    }
    if (!strcmp(w, ".v2") || !strcmp(w, ".v4"))
        perr(P, line, "vector-typed variables are not supported");
    int type = w[0] == '.' ? type_of(w + 1) : PT_NONE;
    if (!type || type == PT_PRED)
        perr(P, line, "bad variable type '%s'", w);
    char name[128];
    parse_name_into(P, name, "a variable name");
    uint64_t count = 1;
    bool unsized = false;
    while (accept(P, "[")) {
        if (accept(P, "]")) {
            unsized = true;
            continue;
        }
        struct tok n = next(P);
        uint64_t d;
        if (n.kind != TK_NUM || !parse_int_text(n.s, n.len, &d))
            perr(P, line, "bad array dimension");
        expect(P, "]");
        count *= d;
    }
    unsigned eb = px_type_bytes((unsigned)type);
    if (!align)
        align = eb;
    uint64_t size = count * eb;
    (void)is_extern;
    struct sym *s = sym_add(P, name, line);
    s->kind = SY_VAR;
    s->type = (uint8_t)type;
    s->space = (uint8_t)space;
    s->size = size;
    uint8_t *init = NULL;
    if (accept(P, "=")) {
        if (unsized)
            perr(P, line, "initialiser for an unsized array");
        free(P->tmp_init);
        init = P->tmp_init = calloc(1, size ? size : 1);
        if (!init)
            perr(P, line, "out of memory");
        uint64_t pos = 0;
        parse_init(P, init, size, type, &pos, line);
    }
    expect(P, ";");
    struct ptx_module *m = P->m;
    switch (space) {
    case SP_SHARED:
        if (unsized) {
            s->rel = AR_DYNSHM;
            s->off = 0;
            if (P->fn)
                P->fn->uses_dynshm = true;
        } else if (P->fn && P->fn->is_entry) {
            P->shared_own = align_up32(P->shared_own, align);
            s->off = P->shared_own; /* relative to the kernel's base; fixed at function end */
            s->rel = AR_ABS;
            P->shared_own += (uint32_t)size;
            s->idx = 1; /* marks "kernel-own": offset rebased when the module is complete */
        } else {
            m->shared_common = align_up32(m->shared_common, align);
            s->off = m->shared_common;
            s->rel = AR_ABS;
            m->shared_common += (uint32_t)size;
        }
        break;
    case SP_LOCAL:
    case SP_PARAM:
        if (!P->fn)
            perr(P, line, "module-level .%s variables are not supported",
                 space == SP_LOCAL ? "local" : "param");
        P->frame_cur = align_up32(P->frame_cur, align);
        s->off = P->frame_cur;
        s->rel = AR_FRAME;
        P->frame_cur += (uint32_t)size;
        if (P->frame_cur > P->frame_max)
            P->frame_max = P->frame_cur;
        break;
    case SP_CONST:
        if (P->fn)
            perr(P, line, "function-level .const variables are not supported");
        m->cbank_bytes = align_up32(m->cbank_bytes, align);
        s->off = m->cbank_bytes;
        s->rel = AR_ABS;
        m->consts = xrealloc(P, m->consts, (m->n_consts + 1) * sizeof *m->consts);
        m->consts[m->n_consts] = (struct ptx_var){
            .name = xstrndup(P, name, strlen(name)),
            .offset = m->cbank_bytes,
            .bytes = (uint32_t)size,
            .line = line,
            .initialised = init != NULL,
        };
        s->idx = m->n_consts++; /* what the functions that name it record */
        m->cbank = xrealloc(P, m->cbank, m->cbank_bytes + size + 1);
        memset(m->cbank + m->cbank_bytes, 0, size);
        if (init)
            memcpy(m->cbank + m->cbank_bytes, init, size);
        m->cbank_bytes += (uint32_t)size;
        break;
    case SP_GLOBAL:
        /* an offset in the module's block, which placing it rebases */
        if (P->fn)
            perr(P, line, "function-level .global variables are not supported");
        if (size > PX_GLOBALS_MAX_BYTES - align_up32(m->gblock_bytes, align))
            perr(P, line, "'%s' takes the module's .global variables past %u MB in all", name,
                 PX_GLOBALS_MAX_BYTES >> 20);
        m->gblock_bytes = align_up32(m->gblock_bytes, align);
        s->off = m->gblock_bytes;
        s->rel = AR_ABS;
        m->gblock = xrealloc(P, m->gblock, m->gblock_bytes + size + 1);
        memset(m->gblock + m->gblock_bytes, 0, size);
        if (init)
            memcpy(m->gblock + m->gblock_bytes, init, size);
        m->globals = xrealloc(P, m->globals, (m->n_globals + 1) * sizeof *m->globals);
        m->globals[m->n_globals++] = (struct ptx_var){
            .name = xstrndup(P, name, strlen(name)),
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
static void add_const_read(struct parser *P, struct px_func *fn, uint32_t k)
{
    for (unsigned r = 0; r < fn->n_const_reads; r++)
        if (fn->const_reads[r] == k)
            return;
    fn->const_reads = xrealloc(P, fn->const_reads,
                               (fn->n_const_reads + 1) * sizeof *fn->const_reads);
    fn->const_reads[fn->n_const_reads++] = k;
}

/* The function being parsed names .const variable `s` (a load from it, or its
 * address): a launch checks that it has contents. */
static void note_const_read(struct parser *P, const struct sym *s)
{
    if (P->fn)
        add_const_read(P, P->fn, s->idx);
}

/* ------------------------------------------------------------------ instruction decode */

struct ctx {
    struct parser *P;
    const char *opname;  /* the full opcode text, for messages */
    unsigned line;
    struct rop *o;
    int n;               /* operands */
    const char *base;    /* the opcode's base name ("ld" of "ld.global.u32") */
    struct mods *md;     /* its modifiers (decoders consume the op-specific ones) */
};

/* Errors at the instruction being decoded: perr and punsup at its line. */
static _Noreturn PRINTF_LIKE(2, 3) void ierr(struct ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_err(c->P, c->line, fmt, ap);
    va_end(ap);
    longjmp(c->P->jb, 1);
}

static _Noreturn PRINTF_LIKE(2, 3) void iunsup(struct ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_err(c->P, c->line, fmt, ap);
    va_end(ap);
    longjmp(c->P->jb, 2);
}

/* The instruction has no modifier its decoder did not consume. */
static void inst_no_extras(struct ctx *c)
{
    no_extras(c->P, c->md, c->opname, c->line);
}

static void nops(struct ctx *c, int want)
{
    if (c->n != want)
        perr(c->P, c->line, "'%s' takes %d operands, found %d", c->opname, want, c->n);
}

static int one_type(struct ctx *c, struct mods *md)
{
    if (md->nt != 1)
        perr(c->P, c->line, "'%s' needs exactly one type", c->opname);
    return md->types[0];
}

static void set_dst(struct ctx *c, struct px_inst *i, int k, const struct rop *o, int type)
{
    if (o->kind != RO_NAME)
        perr(c->P, o->line, "destination of '%s' must be a register", c->opname);
    i->d[k] = type == PT_PRED ? pred_opnd(c->P, o->name, false, o->line)
                              : reg_opnd(c->P, o->name, o->line);
    if (i->n_dst < k + 1)
        i->n_dst = (uint8_t)(k + 1);
}

static void set_src(struct ctx *c, struct px_inst *i, int k, const struct rop *o, int type)
{
    if (type == PT_PRED) {
        if (o->kind == RO_NUM) {
            /* a literal predicate: a constant all-true / all-false mask via an imm row */
            perr(c->P, o->line, "literal predicate operand in '%s'", c->opname);
        }
        if (o->kind != RO_NAME)
            perr(c->P, o->line, "bad predicate operand in '%s'", c->opname);
        i->s[k] = pred_opnd(c->P, o->name, o->neg, o->line);
    } else {
        if (o->neg)
            perr(c->P, o->line, "'!' on a non-predicate operand in '%s'", c->opname);
        i->s[k] = val_opnd(c->P, o, type);
    }
    if (i->n_src < k + 1)
        i->n_src = (uint8_t)(k + 1);
}

static const char *const cmp_names[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                        "lo",  "ls",  "hi",  "hs",  "equ", "neu",
                                        "ltu", "leu", "gtu", "geu", "num", "nan", NULL};

static const struct {
    const char *name;
    int sreg;
} sreg_names[] = {
    {"%tid.x", SR_TID_X},         {"%tid.y", SR_TID_Y},         {"%tid.z", SR_TID_Z},
    {"%ntid.x", SR_NTID_X},       {"%ntid.y", SR_NTID_Y},       {"%ntid.z", SR_NTID_Z},
    {"%ctaid.x", SR_CTAID_X},     {"%ctaid.y", SR_CTAID_Y},     {"%ctaid.z", SR_CTAID_Z},
    {"%nctaid.x", SR_NCTAID_X},   {"%nctaid.y", SR_NCTAID_Y},   {"%nctaid.z", SR_NCTAID_Z},
    {"%laneid", SR_LANEID},       {"%warpid", SR_WARPID},       {"%nwarpid", SR_NWARPID},
    {"%smid", SR_SMID},           {"%nsmid", SR_NSMID},         {"%clock", SR_CLOCK},
    {"%clock_hi", SR_CLOCK_HI},   {"%clock64", SR_CLOCK64},     {"%globaltimer", SR_GLOBALTIMER},
    {"%globaltimer_lo", SR_GLOBALTIMER_LO}, {"%globaltimer_hi", SR_GLOBALTIMER_HI},
    {"%lanemask_eq", SR_LANEMASK_EQ}, {"%lanemask_lt", SR_LANEMASK_LT},
    {"%lanemask_le", SR_LANEMASK_LE}, {"%lanemask_gt", SR_LANEMASK_GT},
    {"%lanemask_ge", SR_LANEMASK_GE}, {"%dynamic_smem_size", SR_DYN_SMEM},
    {"%total_smem_size", SR_TOTAL_SMEM}, {"%gridid", SR_GRIDID},
    {"%tid", -2}, {"%ntid", -2}, {"%ctaid", -2}, {"%nctaid", -2},
};

static int sreg_of(const char *name)
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
        perr(P, o->line, "'%s' needs an [address] operand", c->opname);
    i->off = o->off;
    i->addr_rel = AR_ABS;
    if (!o->name[0])
        return;
    struct sym *s = need_sym(P, o->name, o->line);
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
        perr(P, o->line, "'%s' is not a variable or an address register", o->name);
    int vs = s->space;
    if (vs == SP_CONST)
        note_const_read(P, s);
    if (space != SP_GENERIC && vs != space &&
        !(space == SP_LOCAL && vs == SP_PARAM) && !(space == SP_PARAM && vs == SP_LOCAL))
        perr(P, o->line, "'%s' is a .%s variable, accessed as %s", o->name,
             vs == SP_SHARED ? "shared" : vs == SP_LOCAL ? "local" : vs == SP_PARAM ? "param"
                                                                                   : "const",
             c->opname);
    if (space == SP_GENERIC)
        punsup(P, o->line, "generic access to variable '%s' by name is not supported", o->name);
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
    P->fix[P->n_fix].name = xstrndup(P, name, strlen(name));
    P->fix[P->n_fix].line = line;
    P->n_fix++;
}

static void add_edge(struct parser *P, uint32_t from, uint32_t to, unsigned line)
{
    if (P->n_edges + 3 > P->cap_edges) {
        P->cap_edges = P->cap_edges ? P->cap_edges * 2 : 96;
        P->edges = xrealloc(P, P->edges, P->cap_edges * sizeof(uint32_t));
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
            perr(c->P, c->line, "bad memory order for '%s'", c->opname);
        if (scope < 0)
            scope = SCOPE_GPU;
    } else if (sem < 0 || sem == SEM_WEAK) {
        sem = SEM_WEAK;
        if (scope >= 0)
            perr(c->P, c->line, "a scope needs .relaxed, .acquire or .release in '%s'",
                 c->opname);
        scope = SCOPE_GPU;
    } else if (sem == SEM_VOLATILE) {
        scope = SCOPE_SYS;
    } else if (sem == SEM_RELAXED || sem == SEM_ACQUIRE || sem == SEM_RELEASE) {
        if (scope < 0)
            perr(c->P, c->line, "'%s' needs a scope (.cta, .gpu or .sys)", c->opname);
    } else {
        perr(c->P, c->line, "bad memory order for '%s'", c->opname);
    }
    i->sem = (uint8_t)sem;
    i->scope = (uint8_t)scope;
}

static bool type_half(int t)
{
    return t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_BF16X2;
}

/* Half-precision arithmetic: `op` is the generic op the opcode names (PX_ADD
 * for add ...). Only the modifiers PTX defines for each form are accepted:
 *   add/sub/mul{.rn}{.ftz}{.sat}.f16[x2]   add/sub/mul{.rn}.bf16[x2]
 *   fma.rn{.ftz}{.sat|.relu}.f16[x2]       fma.rn{.relu}.bf16[x2]
 *   min/max{.ftz}{.NaN}{.xorsign.abs}.f16[x2], the same without .ftz on bf16
 *   neg/abs{.ftz}.f16[x2]  neg/abs.bf16[x2]
 *   ex2.approx.f16[x2]  ex2.approx{.ftz}.bf16[x2]  tanh.approx.{f16,bf16}[x2] */
static void decode_half(struct ctx *c, struct px_inst *i, int op, int nsrc, struct mods *md,
                        int t)
{
    bool bf = t == PT_BF16 || t == PT_BF16X2;
    bool relu = take(md, "relu"), xorsign = take(md, "xorsign"), abs_ = take(md, "abs");
    inst_no_extras(c);
    int hop;
    switch (op) {
    case PX_ADD: hop = PX_HADD; break;
    case PX_SUB: hop = PX_HSUB; break;
    case PX_MUL: hop = PX_HMUL; break;
    case PX_FMA: hop = PX_HFMA; break;
    case PX_MIN: hop = PX_HMIN; break;
    case PX_MAX: hop = PX_HMAX; break;
    case PX_NEG: hop = PX_HNEG; break;
    case PX_ABS: hop = PX_HABS; break;
    case PX_EX2: hop = PX_HEX2; break;
    case PX_TANH: hop = PX_HTANH; break;
    default: ierr(c, "'%s': no such half-precision instruction in PTX", c->opname);
    }
    bool arith = hop == PX_HADD || hop == PX_HSUB || hop == PX_HMUL || hop == PX_HFMA;
    bool minmax = hop == PX_HMIN || hop == PX_HMAX, approx = hop == PX_HEX2 || hop == PX_HTANH;
    if (md->rnd && (!arith || md->rnd != RND_RN || md->intrnd))
        ierr(c, "bad rounding modifier in '%s' (half precision rounds .rn)", c->opname);
    if (hop == PX_HFMA && md->rnd != RND_RN)
        ierr(c, "'%s' needs .rn", c->opname);
    if (md->ftz && (bf ? hop != PX_HEX2 : approx))
        ierr(c, "'.ftz' is not defined for '%s'", c->opname);
    if (md->sat && (bf || !arith || relu))
        ierr(c, "'.sat' is not defined for '%s'", c->opname);
    if (relu && hop != PX_HFMA)
        ierr(c, "'.relu' is not defined for '%s'", c->opname);
    if ((md->nan || xorsign || abs_) && !minmax)
        ierr(c, "'%s': .NaN and .xorsign.abs belong to min and max", c->opname);
    if (xorsign != abs_)
        ierr(c, "'%s': .xorsign and .abs come together", c->opname);
    if (md->approx != approx)
        ierr(c, approx ? "'%s' needs .approx" : "'.approx' is not defined for '%s'",
             c->opname);
    nops(c, 1 + nsrc);
    i->op = (uint16_t)hop;
    i->type = (uint8_t)t;
    i->bop = (uint8_t)((relu ? PH_RELU : 0) | (md->nan ? PH_NAN : 0) |
                       (xorsign ? PH_XORSIGN : 0));
    i->lat = approx ? PTX_LAT_SFU : PTX_LAT_FP32;
    set_dst(c, i, 0, &c->o[0], t);
    for (int s = 0; s < nsrc; s++)
        set_src(c, i, s, &c->o[1 + s], t);
}

/* ---- decoding by opcode family: each reads c's operands and modifiers
 * (the latter consumed as it goes) and fills i ---- */

/* 'mul', 'mad' */
static void decode_mul_mad(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    bool mad = c->base[1] == 'a';
    int t = one_type(c, md);
    if (take(md, "cc"))
        iunsup(c, "carry arithmetic ('%s') is not supported", c->opname);
    bool lo = take(md, "lo"), hi = take(md, "hi"), wide = take(md, "wide");
    inst_no_extras(c);
    nops(c, mad ? 4 : 3);
    i->type = (uint8_t)t;
    if (px_type_float((unsigned)t)) {
        if (lo || hi || wide)
            ierr(c, "'.lo', '.hi' and '.wide' are for integers, not '%s'", c->opname);
        if (type_half(t) && mad)
            ierr(c, "'%s': no such half-precision instruction in PTX (use fma)", c->opname);
        if (type_half(t)) {
            decode_half(c, i, PX_MUL, 2, md, t);
            return;
        }
        i->op = mad ? PX_FMA : PX_MUL;
        i->lat = t == PT_F64 ? PTX_LAT_FP64 : PTX_LAT_FP32;
    } else {
        if (lo + hi + wide != 1)
            ierr(c, "'%s' needs one of .lo, .hi, .wide", c->opname);
        i->op = (uint16_t)(mad ? (lo ? PX_MAD_LO : hi ? PX_MAD_HI : PX_MAD_WIDE)
                               : (lo ? PX_MUL_LO : hi ? PX_MUL_HI : PX_MUL_WIDE));
        i->lat = PTX_LAT_IMUL;
    }
    int dt = t;
    if (wide) {
        static const int w2[PT_N] = {[PT_U16] = PT_U32, [PT_S16] = PT_S32,
                                     [PT_U32] = PT_U64, [PT_S32] = PT_S64};
        dt = w2[t];
        if (!dt)
            ierr(c, "bad type for '%s'", c->opname);
    }
    set_dst(c, i, 0, &o[0], dt);
    set_src(c, i, 0, &o[1], t);
    set_src(c, i, 1, &o[2], t);
    if (mad)
        set_src(c, i, 2, &o[3], dt);
}

/* 'shl', 'shr' */
static void decode_shift(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int t = one_type(c, md);
    inst_no_extras(c);
    nops(c, 3);
    i->op = c->base[2] == 'l' ? PX_SHL : PX_SHR;
    i->type = (uint8_t)t;
    set_dst(c, i, 0, &o[0], t);
    set_src(c, i, 0, &o[1], t);
    set_src(c, i, 1, &o[2], PT_U32);
}

/* 'shf' */
static void decode_shf(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    bool l = take(md, "l"), r = take(md, "r");
    bool clamp = take(md, "clamp"), wrap = take(md, "wrap");
    int t = one_type(c, md);
    inst_no_extras(c);
    if (l == r || clamp == wrap || t != PT_B32)
        ierr(c, "bad form of '%s'", c->opname);
    nops(c, 4);
    i->op = l ? PX_SHF_L : PX_SHF_R;
    i->type = PT_B32;
    if (clamp)
        i->flags |= PF_SHIFT_CLAMP;
    set_dst(c, i, 0, &o[0], t);
    for (int s = 0; s < 3; s++)
        set_src(c, i, s, &o[1 + s], PT_B32);
}

/* 'prmt' */
static void decode_prmt(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int t = one_type(c, md);
    inst_no_extras(c);
    if (t != PT_B32)
        ierr(c, "bad type for '%s'", c->opname);
    nops(c, 4);
    i->op = PX_PRMT;
    i->type = PT_B32;
    set_dst(c, i, 0, &o[0], t);
    for (int s = 0; s < 3; s++)
        set_src(c, i, s, &o[1 + s], PT_B32);
}

/* 'setp' */
static void decode_setp(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int cmp = take_one(md, cmp_names);
    static const char *const bops[] = {"and", "or", "xor", NULL};
    int bop = take_one(md, bops);
    int t = one_type(c, md);
    inst_no_extras(c);
    if (cmp < 0)
        ierr(c, "'%s' needs a comparison", c->opname);
    nops(c, bop >= 0 ? 4 : 3);
    if (type_half(t)) {
        if (cmp >= CMP_LO && cmp <= CMP_HS)
            ierr(c, "'%s': .lo/.ls/.hi/.hs compare integers", c->opname);
        if (md->ftz && (t == PT_BF16 || t == PT_BF16X2))
            ierr(c, "'.ftz' is not defined for '%s'", c->opname);
        if ((t == PT_F16X2 || t == PT_BF16X2) && !o[0].pipe[0])
            ierr(c, "'%s' writes two predicates: p|q, one per element", c->opname);
    }
    i->op = type_half(t) ? PX_HSETP : PX_SETP;
    i->type = (uint8_t)t;
    i->mod = (uint8_t)cmp;
    i->bop = (uint8_t)(bop >= 0 ? bop + 1 : BOP_NONE);
    set_dst(c, i, 0, &o[0], PT_PRED);
    if (o[0].pipe[0]) {
        i->d[1] = pred_opnd(c->P, o[0].pipe, false, c->line);
        i->n_dst = 2;
    }
    set_src(c, i, 0, &o[1], t);
    set_src(c, i, 1, &o[2], t);
    if (bop >= 0)
        set_src(c, i, 2, &o[3], PT_PRED);
    i->lat = t == PT_F64 ? PTX_LAT_FP64
             : t == PT_F32 || type_half(t) ? PTX_LAT_FP32 : PTX_LAT_INT;
}

/* 'set' */
static void decode_set(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int cmp = take_one(md, cmp_names);
    static const char *const bops[] = {"and", "or", "xor", NULL};
    int bop = take_one(md, bops);
    inst_no_extras(c);
    if (cmp < 0)
        ierr(c, "'%s' needs a comparison", c->opname);
    if (md->nt != 2)
        ierr(c, "'%s' needs a destination and a source type", c->opname);
    int dt = md->types[0], st = md->types[1];
    bool sx2 = st == PT_F16X2 || st == PT_BF16X2;
    bool dt_ok = sx2 ? (dt == st || dt == PT_U32 || dt == PT_S32)
                     : (dt == PT_U32 || dt == PT_S32 || dt == PT_F32 || dt == PT_F16 ||
                        dt == PT_BF16 ||
                        ((st == PT_F16 || st == PT_BF16) && (dt == PT_U16 || dt == PT_S16)));
    if (!dt_ok || st == PT_PRED || px_type_bytes((unsigned)st) < 2)
        ierr(c, "bad types in '%s'", c->opname);
    bool sflt = px_type_float((unsigned)st);
    if (sflt ? (cmp >= CMP_LO && cmp <= CMP_HS) : cmp > CMP_HS)
        ierr(c, "comparison not defined for the source type in '%s'", c->opname);
    if (md->ftz && (!sflt || st == PT_F64 || st == PT_BF16 || st == PT_BF16X2))
        ierr(c, "'.ftz' is not defined for '%s'", c->opname);
    nops(c, bop >= 0 ? 4 : 3);
    i->op = PX_SET;
    i->type = (uint8_t)dt;
    i->type2 = (uint8_t)st;
    i->mod = (uint8_t)cmp;
    i->bop = (uint8_t)(bop >= 0 ? bop + 1 : BOP_NONE);
    set_dst(c, i, 0, &o[0], dt);
    set_src(c, i, 0, &o[1], st);
    set_src(c, i, 1, &o[2], st);
    if (bop >= 0)
        set_src(c, i, 2, &o[3], PT_PRED);
    i->lat = st == PT_F64 ? PTX_LAT_FP64 : sflt ? PTX_LAT_FP32 : PTX_LAT_INT;
}

/* 'selp' */
static void decode_selp(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int t = one_type(c, md);
    inst_no_extras(c);
    nops(c, 4);
    i->op = PX_SELP;
    i->type = (uint8_t)t;
    set_dst(c, i, 0, &o[0], t);
    set_src(c, i, 0, &o[1], t);
    set_src(c, i, 1, &o[2], t);
    set_src(c, i, 2, &o[3], PT_PRED);
}

/* 'slct' */
static void decode_slct(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    if (md->nt != 2 || (md->types[1] != PT_S32 && md->types[1] != PT_F32))
        ierr(c, "bad form of '%s'", c->opname);
    inst_no_extras(c);
    nops(c, 4);
    i->op = PX_SLCT;
    i->type = (uint8_t)md->types[0];
    i->type2 = (uint8_t)md->types[1];
    set_dst(c, i, 0, &o[0], md->types[0]);
    set_src(c, i, 0, &o[1], md->types[0]);
    set_src(c, i, 1, &o[2], md->types[0]);
    set_src(c, i, 2, &o[3], md->types[1]);
}

/* 'mov' */
static void decode_mov(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int t = one_type(c, md);
    inst_no_extras(c);
    nops(c, 2);
    i->type = (uint8_t)t;
    if (o[0].kind == RO_VEC) {
        /* mov.b64 {a,b}, d: unpack */
        i->op = PX_MOV_UNPACK;
        unsigned eb = px_type_bytes((unsigned)t) / o[0].n;
        if (o[0].n < 2 || o[0].n > 4 || !eb)
            ierr(c, "bad vector in '%s'", c->opname);
        for (unsigned k = 0; k < o[0].n; k++)
            i->d[k] = strcmp(o[0].elem[k], "_") ? reg_opnd(c->P, o[0].elem[k], c->line)
                                                : (struct px_opnd){OK_NONE, 0, 0};
        i->n_dst = (uint8_t)o[0].n;
        set_src(c, i, 0, &o[1], t);
        return;
    }
    set_dst(c, i, 0, &o[0], t);
    if (o[1].kind == RO_VEC) {
        i->op = PX_MOV_PACK;
        if (o[1].n < 2 || o[1].n > 4)
            ierr(c, "bad vector in '%s'", c->opname);
        unsigned eb = px_type_bytes((unsigned)t) / o[1].n;
        static const int elem_type[9] = {[1] = PT_B8, [2] = PT_B16, [4] = PT_B32, [8] = PT_B64};
        if (!eb || eb > 8 || !elem_type[eb])
            ierr(c, "bad vector in '%s'", c->opname);
        for (unsigned k = 0; k < o[1].n; k++)
            i->s[k] = vec_src(c->P, o[1].elem[k], elem_type[eb], c->line);
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
        set_src(c, i, 0, &o[1], PT_PRED);
        return;
    }
    if (o[1].kind == RO_NAME) {
        int sr = sreg_of(o[1].name);
        if (sr == -2)
            ierr(c, "special register '%s' needs .x, .y or .z", o[1].name);
        if (sr >= 0) {
            i->op = PX_MOV_SREG;
            i->mod = (uint8_t)sr;
            return;
        }
        if (o[1].name[0] == '%' && !sym_find(c->P, o[1].name))
            ierr(c, "unsupported special register or undeclared register '%s'",
                 o[1].name);
        struct sym *s = need_sym(c->P, o[1].name, c->line);
        if (s->kind == SY_VAR || s->kind == SY_FUNC) {
            if (s->kind == SY_FUNC)
                iunsup(c, "function addresses ('%s') are not supported", o[1].name);
            if (s->space == SP_CONST)
                note_const_read(c->P, s); /* its address, for ld.const through a register */
            uint64_t a = s->off + (uint64_t)o[1].off;
            if (s->rel == AR_FRAME) {
                i->op = PX_MOV_FRAME;
                i->off = (int64_t)a;
            } else if (s->rel == AR_DYNSHM) {
                i->op = PX_MOV_DYNSHM;
                i->off = (int64_t)a;
            } else if (s->space == SP_PARAM) {
                iunsup(c, "taking the address of kernel parameter '%s' is not supported",
                     o[1].name);
            } else {
                i->op = PX_MOV;
                i->s[0] = (struct px_opnd){OK_IMM, 0, imm_row(c->P, a)};
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
    set_src(c, i, 0, &o[1], t);
}

/* 'cvt' */
static void decode_cvt(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    if (md->nt != 2)
        ierr(c, "'%s' needs a destination and a source type", c->opname);
    int dt = md->types[0], st = md->types[1];
    if ((dt == PT_F16X2 || dt == PT_BF16X2) && st == PT_F32) {
        /* cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a high, b low */
        bool relu = take(md, "relu"), satf = take(md, "satfinite");
        inst_no_extras(c);
        if ((md->rnd != RND_RN && md->rnd != RND_RZ) || md->intrnd || md->sat || md->ftz)
            ierr(c, "'%s' needs .rn or .rz and no other rounding or .sat/.ftz",
                 c->opname);
        nops(c, 3);
        i->op = PX_CVT_PACK;
        i->type = (uint8_t)dt;
        i->type2 = PT_F32;
        i->bop = (uint8_t)((relu ? PH_RELU : 0) | (satf ? PH_SATFIN : 0));
        set_dst(c, i, 0, &o[0], dt);
        set_src(c, i, 0, &o[1], PT_F32);
        set_src(c, i, 1, &o[2], PT_F32);
        return;
    }
    if (take(md, "relu") || take(md, "satfinite"))
        iunsup(c, "unsupported modifier in '%s'", c->opname);
    inst_no_extras(c);
    nops(c, 2);
    if (dt == PT_F16X2 || dt == PT_BF16X2 || st == PT_F16X2 || st == PT_BF16X2 ||
        dt == PT_PRED || st == PT_PRED)
        ierr(c, "unsupported conversion '%s'", c->opname);
    i->op = PX_CVT;
    i->type = (uint8_t)dt;
    i->type2 = (uint8_t)st;
    set_dst(c, i, 0, &o[0], dt);
    set_src(c, i, 0, &o[1], st);
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
static void decode_cvta(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    bool to = take(md, "to");
    int t = one_type(c, md);
    inst_no_extras(c);
    nops(c, 2);
    if (md->space == SP_NONE || md->space == SP_PARAM || md->space == SP_CONST)
        ierr(c, "unsupported state space in '%s'", c->opname);
    if (t != PT_U64 && t != PT_U32 && t != PT_B64 && t != PT_B32)
        ierr(c, "bad type for '%s'", c->opname);
    i->op = to ? PX_CVTA_TO : PX_CVTA_FROM;
    i->type = (uint8_t)t;
    i->space = (uint8_t)md->space;
    set_dst(c, i, 0, &o[0], t);
    if (o[1].kind == RO_NAME) {
        struct sym *s = need_sym(c->P, o[1].name, c->line);
        if (s->kind == SY_VAR)
            ierr(c, "cvta of a variable name ('%s') is not supported; mov it first",
                 o[1].name);
    }
    set_src(c, i, 0, &o[1], t);
}

/* 'ld', 'ldu', 'st' */
static void decode_ld_st(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    bool is_st = c->base[0] == 's';
    int t = one_type(c, md);
    if (take(md, "mmio"))
        ierr(c, "'.mmio' in '%s' is not supported", c->opname);
    inst_no_extras(c);
    nops(c, 2);
    i->op = is_st ? PX_ST : PX_LD;
    i->type = (uint8_t)t;
    i->vec = (uint8_t)md->vec;
    i->space = (uint8_t)(md->space ? md->space : SP_GENERIC);
    if (t == PT_PRED)
        ierr(c, "bad type for '%s'", c->opname);
    if (i->space != SP_GLOBAL && i->space != SP_GENERIC && md->sem >= 0 &&
        md->sem != SEM_WEAK && md->sem != SEM_VOLATILE && i->space != SP_SHARED)
        ierr(c, "memory order on a .%s access", i->space == SP_LOCAL ? "local" : "param");
    mem_order(c, i, md, false);
    if (is_st && md->sem == SEM_ACQUIRE)
        ierr(c, "st cannot be .acquire");
    if (!is_st && md->sem == SEM_RELEASE)
        ierr(c, "ld cannot be .release");
    const struct rop *data = is_st ? &o[1] : &o[0];
    const struct rop *ad = is_st ? &o[0] : &o[1];
    if (md->vec > 1) {
        if (data->kind != RO_VEC || data->n != (unsigned)md->vec)
            ierr(c, "'%s' needs a vector of %d registers", c->opname, md->vec);
        for (int k = 0; k < md->vec; k++) {
            if (!strcmp(data->elem[k], "_")) {
                if (is_st)
                    ierr(c, "sink '_' in a store");
                i->d[k] = (struct px_opnd){OK_NONE, 0, 0};
                continue;
            }
            struct px_opnd r = is_st ? vec_src(c->P, data->elem[k], t, c->line)
                                     : reg_opnd(c->P, data->elem[k], c->line);
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
        set_src(c, i, 1, data, t);
    } else {
        set_dst(c, i, 0, data, t);
    }
    set_addr(c, i, ad, i->space);
    if (i->space == SP_PARAM && i->addr_rel == AR_FRAME)
        i->space = SP_LOCAL; /* device-function params live in the frame */
    i->lat = (i->space == SP_GLOBAL || i->space == SP_GENERIC) ? PTX_LAT_GMEM : PTX_LAT_SHMEM;
    if (i->space == SP_PARAM && is_st)
        ierr(c, "st.param to a kernel parameter");
}

/* 'atom', 'red' */
static void decode_atom_red(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    bool red = c->base[0] == 'r';
    static const char *const kinds[] = {"add", "sub", "min", "max", "inc", "dec",
                                        "and", "or",  "xor", "exch", "cas", NULL};
    int k = take_one(md, kinds);
    bool noftz = take(md, "noftz");
    int t = one_type(c, md);
    inst_no_extras(c);
    if (k < 0)
        ierr(c, "'%s' needs an operation", c->opname);
    if (md->vec > 1)
        ierr(c, "vector atomics ('%s') are not supported", c->opname);
    int at = px_atom_type((unsigned)t);
    if (at < 0)
        ierr(c, "unsupported atomic type in '%s'", c->opname);
    bool half = type_half(t);
    if (half && (k != ATOM_ADD || !noftz))
        ierr(c, "half-precision atomics are add.noftz only ('%s')", c->opname);
    if (noftz && !half)
        ierr(c, "'.noftz' needs a half-precision type ('%s')", c->opname);
    if (t == PT_B16 && k != ATOM_CAS)
        ierr(c, "16-bit atomics are cas only ('%s')", c->opname);
    mem_order(c, i, md, true);
    i->op = red ? PX_RED : PX_ATOM;
    i->type = (uint8_t)t;
    i->mod = (uint8_t)k;
    i->space = (uint8_t)(md->space ? md->space : SP_GENERIC);
    if (i->space != SP_GLOBAL && i->space != SP_SHARED && i->space != SP_GENERIC)
        ierr(c, "atomics on this state space are not supported ('%s')", c->opname);
    int no = (k == ATOM_CAS ? 3 : 2) + (red ? 0 : 1);
    nops(c, no);
    int b = 0;
    if (!red)
        set_dst(c, i, 0, &o[b++], t);
    set_addr(c, i, &o[b++], i->space);
    set_src(c, i, 0, &o[b++], t);
    if (k == ATOM_CAS)
        set_src(c, i, 1, &o[b++], t);
    i->lat = i->space == SP_SHARED ? PTX_LAT_SHMEM : PTX_LAT_GMEM;
}

/* 'fence', 'membar' */
static void decode_fence(struct ctx *c, struct px_inst *i)
{
    struct mods *md = c->md;
    if (take(md, "proxy") || take(md, "mbarrier_init") || take(md, "op_restrict"))
        ierr(c, "'%s' is not supported", c->opname);
    bool gl = take(md, "gl");
    inst_no_extras(c);
    nops(c, 0);
    i->op = PX_FENCE;
    i->lat = PTX_LAT_GMEM;
    if (c->base[0] == 'm') {
        i->sem = SEM_SC;
        i->scope = gl ? SCOPE_GPU : md->scope;
        if (!gl && md->scope < 0)
            ierr(c, "'%s' needs .cta, .gl or .sys", c->opname);
    } else {
        if (md->sem != SEM_SC && md->sem != SEM_ACQ_REL)
            ierr(c, "'%s' needs .sc or .acq_rel", c->opname);
        if (md->scope < 0)
            ierr(c, "'%s' needs a scope", c->opname);
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
    if (take(md, "warp")) {
        if (!md->sync)
            ierr(c, "bad form of '%s'", c->opname);
        inst_no_extras(c);
        nops(c, 1);
        i->op = PX_BAR_WARP;
        set_src(c, i, 0, &o[0], PT_U32);
        return;
    }
    bool arrive = take(md, "arrive");
    bool red = take(md, "red");
    static const char *const rk[] = {"popc", "and", "or", NULL};
    int rop = red ? take_one(md, rk) : -1;
    inst_no_extras(c);
    if (red && rop < 0)
        ierr(c, "'%s' needs .popc, .and or .or", c->opname);
    if (!arrive && !red && !md->sync && strcmp(c->opname, "bar"))
        ierr(c, "bad form of '%s'", c->opname);
    i->mod = (uint8_t)(arrive ? 1 : red ? 2 + rop : 0);
    if (red) {
        /* bar.red.op.type d, a{, b}, {!}c */
        if (c->n != 3 && c->n != 4)
            ierr(c, "'%s' takes 3 or 4 operands", c->opname);
        int t = rop == 0 ? PT_U32 : PT_PRED;
        set_dst(c, i, 0, &o[0], t);
        i->type = (uint8_t)t;
        set_src(c, i, 0, &o[1], PT_U32);
        if (c->n == 4)
            set_src(c, i, 1, &o[2], PT_U32);
        set_src(c, i, 2, &o[c->n - 1], PT_PRED);
        if (c->n == 3)
            i->s[1].kind = OK_NONE;
        return;
    }
    if (c->n < 1 || c->n > 2)
        ierr(c, "'%s' takes 1 or 2 operands", c->opname);
    if (arrive && c->n != 2)
        ierr(c, "'%s' needs a thread count", c->opname);
    set_src(c, i, 0, &o[0], PT_U32);
    if (c->n == 2)
        set_src(c, i, 1, &o[1], PT_U32);
}

/* 'bra' */
static void decode_bra(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    inst_no_extras(c);
    nops(c, 1);
    if (o[0].kind != RO_NAME)
        ierr(c, "'%s' needs a label", c->opname);
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
    inst_no_extras(c);
    i->op = PX_CALL;
    i->lat = PTX_LAT_BRANCH;
    int k = 0;
    const struct rop *rets = NULL, *args = NULL;
    if (k < c->n && o[k].kind == RO_LIST)
        rets = &o[k++];
    if (k >= c->n || o[k].kind != RO_NAME)
        ierr(c, "'%s' needs a function name", c->opname);
    struct sym *f = need_sym(c->P, o[k].name, c->line);
    if (f->kind != SY_FUNC)
        ierr(c, "indirect calls are not supported ('%s' is not a function)",
             o[k].name);
    int tx = tx_marker(o[k].name);
    k++;
    if (tx) {
        /* a transaction marker: no results, at most an empty argument list */
        if (rets || (k < c->n && (o[k].kind != RO_LIST || o[k].n)) || k + (k < c->n) != c->n)
            ierr(c, "'%s' takes no arguments and returns nothing", o[k - 1].name);
        i->op = (uint16_t)tx;
        c->P->m->has_tx = true;
        return;
    }
    if (k < c->n && o[k].kind == RO_LIST)
        args = &o[k++];
    if (k != c->n)
        ierr(c, "indirect calls with a prototype are not supported");
    struct ptx_module *m = c->P->m;
    GROW(c->P, m->calls, m->n_calls, c->P->cap_calls);
    struct px_call *cs = &m->calls[m->n_calls];
    memset(cs, 0, sizeof(*cs));
    struct px_func *callee = &m->funcs[f->idx];
    unsigned na = args ? args->n : 0, nr = rets ? rets->n : 0;
    if (na != callee->n_params || nr != callee->n_rets)
        ierr(c, "call of '%s' with %u arguments and %u results; it has %u and %u",
             callee->name, na, nr, callee->n_params, callee->n_rets);
    /* device printf: CUDA's vprintf(const char *fmt, void *args), declared
     * .extern without a body; the interpreter records the call instead */
    bool is_printf = !strcmp(callee->name, "vprintf") && !callee->defined && na == 2 &&
                     nr <= 1 && callee->params[0].size == 8 && callee->params[1].size == 8 &&
                     (!nr || callee->rets[0].size == 4);
    if (nr > 4)
        ierr(c, "more than 4 return values");
    for (unsigned a = 0; a < na + nr; a++) {
        const char *nm = a < na ? args->elem[a] : rets->elem[a - na];
        struct sym *s = need_sym(c->P, nm, c->line);
        if (s->kind != SY_VAR || s->space != SP_PARAM || s->rel != AR_FRAME)
            ierr(c, "call operand '%s' is not a .param variable of this function", nm);
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
    inst_no_extras(c);
    nops(c, 0);
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
    int mode = take_one(md, modes);
    int t = one_type(c, md);
    inst_no_extras(c);
    if (mode < 0 || t != PT_B32)
        ierr(c, "bad form of '%s'", c->opname);
    if (!md->sync)
        ierr(c, "'%s' without .sync is not supported", c->opname);
    nops(c, 5);
    i->op = PX_SHFL;
    i->mod = (uint8_t)mode;
    i->type = PT_B32;
    i->lat = PTX_LAT_BRANCH;
    set_dst(c, i, 0, &o[0], PT_B32);
    if (o[0].pipe[0]) {
        i->d[1] = pred_opnd(c->P, o[0].pipe, false, c->line);
        i->n_dst = 2;
    }
    for (int s = 0; s < 4; s++)
        set_src(c, i, s, &o[1 + s], PT_B32);
}

/* 'vote' */
static void decode_vote(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    static const char *const modes[] = {"all", "any", "uni", "ballot", NULL};
    int mode = take_one(md, modes);
    int t = one_type(c, md);
    inst_no_extras(c);
    if (mode < 0 || (mode == 3) != (t == PT_B32) || (mode != 3 && t != PT_PRED))
        ierr(c, "bad form of '%s'", c->opname);
    nops(c, md->sync ? 3 : 2);
    i->op = PX_VOTE;
    i->mod = (uint8_t)mode;
    i->type = (uint8_t)t;
    i->lat = PTX_LAT_BRANCH;
    set_dst(c, i, 0, &o[0], t);
    set_src(c, i, 0, &o[1], PT_PRED);
    if (md->sync)
        set_src(c, i, 1, &o[2], PT_U32);
}

/* 'activemask' */
static void decode_activemask(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int t = one_type(c, md);
    inst_no_extras(c);
    nops(c, 1);
    i->op = PX_ACTIVEMASK;
    i->type = (uint8_t)t;
    i->lat = PTX_LAT_BRANCH;
    set_dst(c, i, 0, &o[0], PT_B32);
}

/* 'match' */
static void decode_match(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    static const char *const modes[] = {"any", "all", NULL};
    int mode = take_one(md, modes);
    int t = one_type(c, md);
    inst_no_extras(c);
    if (mode < 0 || (t != PT_B32 && t != PT_B64) || !md->sync)
        ierr(c, "bad form of '%s'", c->opname);
    nops(c, 3);
    i->op = PX_MATCH;
    i->mod = (uint8_t)mode;
    i->type = (uint8_t)t;
    i->lat = PTX_LAT_BRANCH;
    set_dst(c, i, 0, &o[0], PT_B32);
    if (o[0].pipe[0]) {
        i->d[1] = pred_opnd(c->P, o[0].pipe, false, c->line);
        i->n_dst = 2;
    }
    set_src(c, i, 0, &o[1], t);
    set_src(c, i, 1, &o[2], PT_U32);
}

/* 'redux' */
static void decode_redux(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    static const char *const ops[] = {"add", "min", "max", "and", "or", "xor", NULL};
    int k = take_one(md, ops);
    int t = one_type(c, md);
    inst_no_extras(c);
    if (k < 0 || (t != PT_U32 && t != PT_S32 && t != PT_B32) || !md->sync)
        ierr(c, "bad form of '%s'", c->opname);
    nops(c, 3);
    i->op = PX_REDUX;
    i->mod = (uint8_t)k;
    i->type = (uint8_t)t;
    i->lat = PTX_LAT_BRANCH;
    set_dst(c, i, 0, &o[0], t);
    set_src(c, i, 0, &o[1], t);
    set_src(c, i, 1, &o[2], PT_U32);
}

/* 'prefetch', 'prefetchu' */
static void decode_prefetch(struct ctx *c, struct px_inst *i)
{
    struct mods *md = c->md;
    take(md, "L1");
    take(md, "L2");
    take(md, "tensormap");
    inst_no_extras(c);
    nops(c, 1);
    i->op = PX_NOP;
}

/* 'nanosleep' */
static void decode_nanosleep(struct ctx *c, struct px_inst *i)
{
    struct rop *o = c->o;
    struct mods *md = c->md;
    int t = one_type(c, md);
    inst_no_extras(c);
    nops(c, 1);
    i->op = PX_NOP;
    set_src(c, i, 0, &o[0], t);
    i->lat = PTX_LAT_BRANCH;
}

/* The decoders of the opcode families by base name; decode_inst tries the
 * plain arithmetic table first. */
static const struct {
    const char *name;
    void (*decode)(struct ctx *c, struct px_inst *i);
} decoders[] = {
    {"mul", decode_mul_mad},
    {"mad", decode_mul_mad},
    {"shl", decode_shift},
    {"shr", decode_shift},
    {"shf", decode_shf},
    {"prmt", decode_prmt},
    {"setp", decode_setp},
    {"set", decode_set},
    {"selp", decode_selp},
    {"slct", decode_slct},
    {"mov", decode_mov},
    {"cvt", decode_cvt},
    {"cvta", decode_cvta},
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
static void decode_inst(struct parser *P, struct px_inst *i, char *base, char *parts[], int np,
                        struct rop *o, int n, const char *opname, unsigned line)
{
    struct mods md;
    struct ctx cx = {P, opname, line, o, n, base, &md};
    struct ctx *c = &cx;
    split_mods(P, parts, np, &md, opname, line);
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
        {"add", PX_ADD, 2},   {"sub", PX_SUB, 2},    {"div", PX_DIV, 2},   {"rem", PX_REM, 2},
        {"min", PX_MIN, 2},   {"max", PX_MAX, 2},    {"abs", PX_ABS, 1},   {"neg", PX_NEG, 1},
        {"and", PX_AND, 2},   {"or", PX_OR, 2},      {"xor", PX_XOR, 2},   {"not", PX_NOT, 1},
        {"cnot", PX_CNOT, 1}, {"popc", PX_POPC, 1},  {"clz", PX_CLZ, 1},   {"brev", PX_BREV, 1},
        {"bfe", PX_BFE, 3},   {"bfi", PX_BFI, 4},    {"fma", PX_FMA, 3},   {"sqrt", PX_SQRT, 1},
        {"rcp", PX_RCP, 1},   {"rsqrt", PX_RSQRT, 1},{"ex2", PX_EX2, 1},   {"lg2", PX_LG2, 1},
        {"sin", PX_SIN, 1},   {"cos", PX_COS, 1},    {"tanh", PX_TANH, 1}, {"copysign", PX_COPYSIGN, 2},
    };
    for (size_t k = 0; k < ARRAY_LEN(arith); k++) {
        if (strcmp(base, arith[k].name))
            continue;
        int t = one_type(c, &md);
        if (take(&md, "cc") || !strcmp(base, "addc") || !strcmp(base, "subc"))
            punsup(P, line, "carry arithmetic ('%s') is not supported", opname);
        if (type_half(t)) {
            decode_half(c, i, arith[k].op, arith[k].nsrc, &md, t);
            return;
        }
        if (take(&md, "relu"))
            punsup(P, line, "'.relu' outside half precision ('%s') is not supported", opname);
        no_extras(P, &md, opname, line);
        nops(c, 1 + arith[k].nsrc);
        i->op = (uint16_t)arith[k].op;
        i->type = (uint8_t)t;
        if (t == PT_PRED) {
            switch (arith[k].op) {
            case PX_AND: i->op = PX_PAND; break;
            case PX_OR: i->op = PX_POR; break;
            case PX_XOR: i->op = PX_PXOR; break;
            case PX_NOT: i->op = PX_PNOT; break;
            default: perr(P, line, "'%s' on predicates is not valid PTX", opname);
            }
        }
        set_dst(c, i, 0, &o[0], t);
        int st = t;
        for (int s = 0; s < arith[k].nsrc; s++) {
            int ty = st;
            if ((arith[k].op == PX_BFE && s > 0) || (arith[k].op == PX_BFI && s > 1))
                ty = PT_U32;
            set_src(c, i, s, &o[1 + s], ty);
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
            perr(P, line, "'%s' needs a float type", opname);
        return;
    }
    /* ---- every other family: its decoder ---- */
    for (size_t k = 0; k < ARRAY_LEN(decoders); k++)
        if (!strcmp(base, decoders[k].name)) {
            decoders[k].decode(c, i);
            return;
        }
    perr(P, line, "unknown instruction '%s' (not a PTX instruction)", opname);
}

/* Scoreboard slots: every register row and predicate the instruction touches. */
static void fill_sb(struct parser *P, struct px_inst *i)
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
            perr(P, i->line, "too many registers in one instruction");
        i->sb[i->n_sb++] = slot;
    }
    if (i->guard >= 0) {
        uint32_t slot = (uint32_t)i->guard | 0x80000000u;
        bool dup = false;
        for (int j = 0; j < i->n_sb; j++)
            dup |= i->sb[j] == slot;
        if (!dup) {
            if (i->n_sb >= PX_MAX_SB)
                perr(P, i->line, "too many registers in one instruction");
            i->sb[i->n_sb++] = slot;
        }
    }
}

/* One statement inside a function body. Returns false at the closing brace of
 * the body. */
static void parse_body(struct parser *P);

/* Valid PTX instructions gpucoh does not model (PTX ISA 8.x names, up to the
 * first '.'). Their operands need not parse: the statement is skipped, and
 * the function is marked unable to run. A word that is in neither this list
 * nor decode_inst is not PTX at all: a syntax error of the module. */
static bool unmodelled(const char *op)
{
    static const char *const names[] = {
        "tex", "tld4", "txq", "suld", "sust", "sured", "suq", "istypep", "mma", "wmma",
        "wgmma", "tcgen05", "ldmatrix", "stmatrix", "movmatrix", "cp", "mbarrier", "mapa",
        "getctarank", "multimem", "tensormap", "elect", "griddepcontrol", "setmaxnreg",
        "alloca", "stacksave", "stackrestore", "pmevent", "brkpt", "brx", "applypriority", "madc",
        "discard", "createpolicy", "isspacep", "mul24", "mad24", "sad", "testp", "fns", "bmsk",
        "szext", "dp4a", "dp2a", "bfind", "lop3", "vadd", "vsub", "vabsdiff", "vmin", "vmax",
        "vshl", "vshr", "vmad", "vset", "vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2",
        "vmax2", "vset2", "vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4", "vset4",
        "clusterlaunchcontrol", NULL};
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
        struct tok t = next(P);
        if (t.kind == TK_EOF)
            perr(P, line, "missing ';' at the end of the statement");
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
        P->fn->unsupported = xprintf(P, "%s", P->err);
        return;
    }
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    P->fn->unsupported = xprintf(P, "%s:%u: %s", P->file, line, msg);
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
        decode_inst(P, i, base, parts, np, o, n, opname, line);
        fill_sb(P, i);
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
        parse_reg_decl(P, line, w[4] ? w + 4 : NULL);
        return;
    }
    if (!strcmp(w, ".local") || !strcmp(w, ".shared") || !strcmp(w, ".param") ||
        !strcmp(w, ".const") || !strcmp(w, ".global")) {
        int sp = w[1] == 'l' ? SP_LOCAL : w[2] == 'h' ? SP_SHARED : w[1] == 'p' ? SP_PARAM
                 : w[1] == 'c' ? SP_CONST : SP_GLOBAL;
        parse_var_decl(P, sp, false, line);
        return;
    }
    if (!strcmp(w, ".pragma")) {
        struct tok s = next(P);
        if (s.kind != TK_STR)
            perr(P, line, "bad .pragma");
        expect(P, ";");
        return;
    }
    if (!strcmp(w, ".loc") || !strcmp(w, ".file")) {
        if (!strcmp(w, ".loc")) /* .loc FILE LINE COLUMN [, inlining of -G]: where we are */
            parse_loc(P, line);
        while (!tok_is(peek(P), ";") && peek(P).kind != TK_EOF && peek(P).line == line)
            next(P);
        accept(P, ";");
        return;
    }
    if (w[0] == '.')
        perr(P, line, "unsupported directive '%s' in a function body", w);
    /* label? */
    if (tok_is(peek(P), ":")) {
        next(P);
        int *v = symtab_slot(P, &P->labels, w, true);
        if (*v >= 0)
            perr(P, line, "label '%s' defined twice", w);
        *v = (int)P->m->n_ins;
        struct ptx_module *m = P->m;
        m->labels = xrealloc(P, m->labels, (m->n_labels + 1) * sizeof *m->labels);
        m->labels[m->n_labels++] = (struct px_label){.name = xstrndup(P, w, strlen(w)),
                                                     .pc = m->n_ins};
        return;
    }
    /* guard */
    int guard = -1;
    bool gneg = false;
    char opw[256];
    snprintf(opw, sizeof opw, "%s", w);
    if (t.kind == TK_PUNCT && t.s[0] == '@') {
        gneg = accept(P, "!");
        struct tok g;
        char *gname = word(P, &g, "a guard predicate");
        struct sym *s = need_sym(P, gname, line);
        if (s->kind != SY_PRED)
            perr(P, line, "guard '%s' is not a predicate", gname);
        guard = (int)s->idx;
        struct tok ot;
        char *op = word(P, &ot, "an instruction");
        snprintf(opw, sizeof opw, "%s", op);
        line = ot.line;
    } else if (t.kind != TK_WORD) {
        char b[64];
        perr(P, line, "unexpected '%s'", tok_text(t, b, sizeof b));
    }
    if (unmodelled(opw)) {
        skip_statement(P, line);
        struct px_inst *i = new_inst(P, line);
        i->op = PX_NOP;
        note_unsupported(P, line, "unsupported instruction '%s'", opw);
        return;
    }
    /* operands */
    struct rop ops[8];
    int n = 0;
    if (!tok_is(peek(P), ";")) {
        do {
            if (n >= 8)
                perr(P, line, "too many operands for '%s'", opw);
            parse_operand(P, &ops[n++]);
        } while (accept(P, ","));
    }
    struct tok semi = next(P);
    if (!tok_is(semi, ";")) {
        char b[64];
        perr(P, semi.line, "expected ';' after '%s', found '%s'", opw,
             tok_text(semi, b, sizeof b));
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", opw);
    char *parts[16];
    int np = 0;
    char *base = strtok(buf, ".");
    if (!base)
        perr(P, line, "bad instruction '%s'", opw);
    char *q;
    while ((q = strtok(NULL, ".")) != NULL) {
        if (np >= 16)
            perr(P, line, "too many modifiers in '%s'", opw);
        parts[np++] = q;
    }
    struct px_inst *i = new_inst(P, line);
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
        struct tok t = next(P);
        if (t.kind == TK_EOF)
            perr(P, t.line, "missing '}' at end of function");
        if (tok_is(t, "}"))
            break;
        if (tok_is(t, "{")) {
            /* each block is a level of recursion: bound it, so thousands of
             * nested braces are an error, not a stack overflow (found by
             * fuzzing); nvcc nests a handful */
            if (++P->block_depth > PTX_MAX_BLOCK_NESTING)
                perr(P, t.line, "blocks nested more than %d deep", PTX_MAX_BLOCK_NESTING);
            parse_body(P);
            P->block_depth--;
            continue;
        }
        parse_statement(P, t);
    }
    sym_pop_to(P, mark);
    /* call-site .param buffers die with their scope; the frame keeps its max */
    if (P->fn && mark > 0)
        P->frame_cur = frame_mark;
}

/* ( .param .type name, ... ) */
static void parse_params(struct parser *P, struct px_param **out, unsigned *n_out, bool is_entry,
                         unsigned line)
{
    expect(P, "(");
    unsigned n = 0, cap = 0;
    struct px_param *ps = NULL;
    if (!accept(P, ")")) {
        do {
            struct tok t;
            char *w = word(P, &t, ".param");
            if (!strcmp(w, ".reg"))
                perr(P, t.line, ".reg parameters are not supported");
            if (strcmp(w, ".param"))
                perr(P, t.line, "expected .param, found '%s'", w);
            uint32_t align = 0;
            int type = PT_NONE;
            for (;;) {
                w = word(P, &t, "a parameter type");
                if (!strcmp(w, ".align")) {
                    struct tok nt = next(P);
                    uint64_t a;
                    if (nt.kind != TK_NUM || !parse_int_text(nt.s, nt.len, &a) || !a)
                        perr(P, t.line, "bad .align");
                    align = (uint32_t)a;
                    continue;
                }
                if (!strcmp(w, ".ptr") || !strcmp(w, ".global") || !strcmp(w, ".shared") ||
                    !strcmp(w, ".const") || !strcmp(w, ".local"))
                    continue;
                break;
            }
            type = w[0] == '.' ? type_of(w + 1) : PT_NONE;
            if (!type || type == PT_PRED)
                perr(P, t.line, "bad parameter type '%s'", w);
            char name[128];
            parse_name_into(P, name, "a parameter name");
            uint64_t count = 1;
            while (accept(P, "[")) {
                struct tok nt = next(P);
                uint64_t d;
                if (nt.kind != TK_NUM || !parse_int_text(nt.s, nt.len, &d))
                    perr(P, t.line, "bad parameter array size");
                expect(P, "]");
                count *= d;
            }
            if (n >= cap) {
                cap = cap ? cap * 2 : 8;
                ps = xrealloc(P, ps, cap * sizeof(*ps));
                *out = ps;
            }
            struct px_param *pp = &ps[n++];
            pp->name = NULL;
            *n_out = n;
            pp->name = xstrndup(P, name, strlen(name));
            pp->size = (uint32_t)(count * px_type_bytes((unsigned)type));
            pp->align = align ? align : px_type_bytes((unsigned)type);
            pp->off = 0;
        } while (accept(P, ","));
        expect(P, ")");
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
        struct sym *s = sym_add(P, pp->name, line);
        s->kind = SY_VAR;
        s->type = PT_B8;
        s->space = SP_PARAM;
        s->size = pp->size;
        if (f->is_entry) {
            /* CUDA layout: each parameter aligned to its size (or .align) */
            off = align_up32(off, pp->align);
            pp->off = off;
            off += pp->size;
            s->rel = AR_KPARAM;
        } else {
            P->frame_cur = align_up32(P->frame_cur, pp->align);
            pp->off = P->frame_cur;
            P->frame_cur += pp->size;
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
        int *v = symtab_slot(P, &P->labels, P->fix[k].name, false);
        if (!v || *v < 0)
            perr(P, P->fix[k].line, "undefined label '%s'", P->fix[k].name);
        m->ins[P->fix[k].pc].target = (uint32_t)*v;
        free(P->fix[k].name);
        P->fix[k].name = NULL; /* an error on a later label must not free it again */
    }
    P->n_fix = 0;
    symtab_free(&P->labels);
}

/* .entry / .func, the prototype or the body */
static void parse_function(struct parser *P, bool is_entry, unsigned line)
{
    struct ptx_module *m = P->m;
    /* parameter lists live in the parser until the function owns them, so
     * that an error in between frees them */
    if (!is_entry && tok_is(peek(P), "("))
        parse_params(P, &P->pend_p[0], &P->pend_n[0], false, line);
    char name[128];
    parse_name_into(P, name, "a function name");
    if (tok_is(peek(P), "("))
        parse_params(P, &P->pend_p[1], &P->pend_n[1], is_entry, line);
    /* performance-tuning directives: accepted, they do not change results */
    for (;;) {
        struct tok t = peek(P);
        if (tok_is(t, ".maxntid") || tok_is(t, ".reqntid") || tok_is(t, ".minnctapersm") ||
            tok_is(t, ".maxnctapersm") || tok_is(t, ".maxnreg") || tok_is(t, ".noreturn") ||
            tok_is(t, ".pragma") || tok_is(t, ".explicitcluster") ||
            tok_is(t, ".reqnctapercluster") || tok_is(t, ".maxclusterrank")) {
            next(P);
            while (peek(P).kind == TK_NUM || tok_is(peek(P), ",") || peek(P).kind == TK_STR)
                next(P);
            accept(P, ";");
            continue;
        }
        break;
    }
    if (P->pend_n[0] > 4)
        perr(P, line, "more than 4 return values");
    struct sym *prev = sym_find(P, name);
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
        if (f->defined && !tok_is(peek(P), ";"))
            perr(P, line, "function '%s' defined twice", name);
    } else {
        if (prev)
            perr(P, line, "'%s' declared twice", name);
        GROW(P, m->funcs, m->n_funcs, P->cap_funcs);
        f = &m->funcs[m->n_funcs];
        memset(f, 0, sizeof(*f));
        f->name = xstrndup(P, name, strlen(name));
        struct sym *s = sym_add(P, name, line);
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
    if (accept(P, ";"))
        return; /* prototype */
    expect(P, "{");
    if (f->defined)
        perr(P, line, "function '%s' defined twice", name);
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
    sym_pop_to(P, mark);
    f->end = m->n_ins;
    if (f->end == f->first)
        perr(P, line, "function '%s' has no instructions", name);
    resolve_labels(P);
    f->frame_bytes = align_up32(P->frame_max, 16);
    f->own_shmem_end = P->shared_own;
    f->n_rows = P->n_regs;
    f->n_preds = P->n_preds;
    P->fn = NULL;
    int last = m->ins[f->end - 1].op;
    if (last != PX_RET && last != PX_EXIT && last != PX_BRA && last != PX_TRAP)
        perr(P, m->ins[f->end - 1].line, "function '%s' can run off its end", name);
    char err[256];
    if (px_cfg_reconvergence(m, f, err, sizeof err))
        perr(P, line, "%s", err);
}

static void parse_module(struct parser *P)
{
    bool seen_version = false;
    for (;;) {
        struct tok t = next(P);
        if (t.kind == TK_EOF)
            break;
        char w[128];
        snprintf(w, sizeof w, "%.*s", (int)t.len, t.s);
        if (!strcmp(w, ".version")) {
            struct tok v = next(P);
            if (v.kind != TK_NUM)
                perr(P, t.line, "bad .version");
            double ver = strtod(v.s, NULL);
            if (ver < 6.0 || ver >= 10.0)
                perr(P, t.line, "unsupported PTX version %.*s", (int)v.len, v.s);
            seen_version = true;
            continue;
        }
        if (!seen_version)
            perr(P, t.line, "expected .version first, found '%s'", w);
        if (!strcmp(w, ".target")) {
            do {
                struct tok tg;
                char *tw = word(P, &tg, "a target");
                if (strncmp(tw, "sm_", 3) && strcmp(tw, "texmode_independent") &&
                    strcmp(tw, "debug") && strcmp(tw, "map_f64_to_f32"))
                    perr(P, t.line, "unsupported target '%s'", tw);
                if (!strcmp(tw, "texmode_independent"))
                    perr(P, t.line, "unsupported target option '%s'", tw);
            } while (accept(P, ","));
            continue;
        }
        if (!strcmp(w, ".address_size")) {
            struct tok v = next(P);
            if (!tok_is(v, "64"))
                perr(P, t.line, "only .address_size 64 is supported");
            continue;
        }
        if (!strcmp(w, ".file") || !strcmp(w, ".loc")) {
            if (!strcmp(w, ".file")) /* .file N "name" [, timestamp, size] */
                parse_file(P, t.line);
            while (peek(P).kind != TK_EOF && peek(P).line == t.line)
                next(P);
            continue;
        }
        if (!strcmp(w, ".section")) {
            /* -lineinfo and -G add DWARF in .debug_* sections: data for debuggers,
             * nothing a kernel runs, so it is skipped whole */
            struct tok name = next(P);
            if (name.len < 6 || strncmp(name.s, ".debug", 6))
                perr(P, t.line, "section '%.*s' is not supported (only .debug_* sections, "
                     "which are skipped)", (int)name.len, name.s);
            expect(P, "{");
            for (unsigned depth = 1; depth;) {
                struct tok x = next(P);
                if (x.kind == TK_EOF)
                    perr(P, t.line, "section '%.*s' has no closing '}'", (int)name.len, name.s);
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
            struct tok n = next(P);
            snprintf(w, sizeof w, "%.*s", (int)n.len, n.s);
            t = n;
        }
        if (!strcmp(w, ".entry") || !strcmp(w, ".func")) {
            parse_function(P, w[1] == 'e', t.line);
            continue;
        }
        if (!strcmp(w, ".shared") || !strcmp(w, ".const") || !strcmp(w, ".global")) {
            int sp = w[1] == 's' ? SP_SHARED : w[1] == 'c' ? SP_CONST : SP_GLOBAL;
            parse_var_decl(P, sp, is_extern, t.line);
            continue;
        }
        char b[64];
        perr(P, t.line, "unsupported module directive '%s'", tok_text(t, b, sizeof b));
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
        free(state); free(stack_mem); free(stack_reg); free(stack_pred); free(stack_shm);
        perr(P, 0, "out of memory");
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
            free(state); free(stack_mem); free(stack_reg); free(stack_pred); free(stack_shm);
            perr(P, 0, "recursive device-function calls are not supported");
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
            free(state); free(stack_mem); free(stack_reg); free(stack_pred); free(stack_shm);
            perr(P, 0, "kernel '%s' has no body", fn->name);
        }
        fn->max_stack = stack_mem[f];
        fn->n_rows_chain = stack_reg[f];
        fn->n_preds_chain = stack_pred[f];
        fn->uses_dynshm = stack_shm[f];
    }
    free(state); free(stack_mem); free(stack_reg); free(stack_pred); free(stack_shm);
    /* a call of a function without a body (device malloc, printf) or of one
     * that cannot run makes its caller unable to run, up to the kernels */
    for (size_t e = 0; e + 2 < P->n_edges; e += 3) {
        struct px_func *caller = &m->funcs[P->edges[e]], *callee = &m->funcs[P->edges[e + 1]];
        if (!callee->defined && !caller->unsupported)
            caller->unsupported = xprintf(P, "%s:%u: call of '%s', which has no body in this "
                                             "module", P->file, P->edges[e + 2], callee->name);
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t e = 0; e + 2 < P->n_edges; e += 3) {
            struct px_func *caller = &m->funcs[P->edges[e]];
            struct px_func *callee = &m->funcs[P->edges[e + 1]];
            if (callee->unsupported && !caller->unsupported) {
                caller->unsupported = xprintf(P, "%s (called at %s:%u)", callee->unsupported,
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
            case SR_CLOCK: case SR_CLOCK_HI: case SR_CLOCK64:
            case SR_GLOBALTIMER: case SR_GLOBALTIMER_LO: case SR_GLOBALTIMER_HI:
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
                add_const_read(P, caller, callee->const_reads[r]);
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
        perr(P, 0, "out of memory");
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
            perr(P, 0, "out of memory");
        for (unsigned p = 0; p < fn->n_params; p++) {
            fn->param_offset_arr[p] = fn->params[p].off;
            fn->param_size_arr[p] = fn->params[p].size;
        }
        struct ptx_kernel_info *ki = &fn->info;
        ki->name = fn->name;
        ki->n_params = fn->n_params;
        ki->param_offset = fn->param_offset_arr;
        ki->param_size = fn->param_size_arr;
        ki->static_shmem_bytes = (fn->own_shmem_end ? base + fn->own_shmem_end
                                                    : m->shared_common);
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
    sym_pop_to(P, 0);
    free(P->syms);
    symtab_free(&P->tab);
    for (size_t k = 0; k < P->n_fix; k++)
        free(P->fix[k].name);
    free(P->fix);
    symtab_free(&P->labels);
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
