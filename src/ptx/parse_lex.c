/*
 * parse_lex.c - the bottom of the PTX parser: its errors (set into the
 * caller's buffer, then a longjmp back to ptx_module_parse), its allocation,
 * the symbol table with scoped shadowing, the lexer (words, numbers, strings,
 * punctuation, with one token of look-ahead), PTX's integer and float
 * literals, and the type names.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/parse_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "file:line: message" into P->err. */
void pp_set_err(struct parser *P, unsigned line, const char *fmt, va_list ap)
{
    int n = snprintf(P->err, P->errlen, "%s:%u: ", P->file, line);
    if (n < 0 || (size_t)n >= P->errlen)
        n = 0;
    vsnprintf(P->err + n, P->errlen - (size_t)n, fmt, ap);
}

_Noreturn PRINTF_LIKE(3, 4) void pp_perr(struct parser *P, unsigned line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pp_set_err(P, line, fmt, ap);
    va_end(ap);
    longjmp(P->jb, 1);
}

/* An instruction gpucoh does not model (as opposed to malformed PTX): the
 * message goes to P->err like perr's, but the statement's caller catches it
 * (longjmp value 2), so only the function using it - and the kernels that call
 * it - are rejected, when launched (ptx_kernel_unsupported). */
_Noreturn PRINTF_LIKE(3, 4) void pp_punsup(struct parser *P, unsigned line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pp_set_err(P, line, fmt, ap);
    va_end(ap);
    longjmp(P->jb, 2);
}

void *pp_xrealloc(struct parser *P, void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        pp_perr(P, P->line, "out of memory");
    return q;
}

PRINTF_LIKE(2, 3) char *pp_xprintf(struct parser *P, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *out = NULL;
    int n = vasprintf(&out, fmt, ap);
    va_end(ap);
    if (n < 0)
        pp_perr(P, 0, "out of memory");
    return out;
}

char *pp_xstrndup(struct parser *P, const char *s, size_t n)
{
    char *d = pp_xrealloc(P, NULL, n + 1);
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

int *pp_symtab_slot(struct parser *P, struct symtab *t, const char *name, bool insert)
{
    if (insert && (t->n + 1) * 2 > t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 256;
        char **nk = calloc(ncap, sizeof(*nk));
        int *nv = calloc(ncap, sizeof(*nv));
        if (!nk || !nv)
            pp_perr(P, P->line, "out of memory");
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
    t->keys[j] = pp_xstrndup(P, name, strlen(name));
    t->val[j] = -1;
    t->n++;
    return &t->val[j];
}

void pp_symtab_free(struct symtab *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->keys[i]);
    free(t->keys);
    free(t->val);
    memset(t, 0, sizeof(*t));
}

struct sym *pp_sym_find(struct parser *P, const char *name)
{
    int *v = pp_symtab_slot(P, &P->tab, name, false);
    return (v && *v >= 0) ? &P->syms[*v] : NULL;
}

struct sym *pp_sym_add(struct parser *P, const char *name, unsigned line)
{
    int *v = pp_symtab_slot(P, &P->tab, name, true);
    if (*v >= 0 && *v >= (int)0 && P->fn && P->syms[*v].kind != SY_FUNC) {
        /* a redeclaration in the same function scope is an error only when it
         * is not shadowing an outer scope; scopes are tracked by sym index */
    }
    (void)line;
    GROW(P, P->syms, P->n_syms, P->cap_syms);
    struct sym *s = &P->syms[P->n_syms];
    memset(s, 0, sizeof(*s));
    s->name = pp_xstrndup(P, name, strlen(name));
    s->shadow = *v;
    *v = (int)P->n_syms++;
    return s;
}

/* Drop every symbol declared after `mark` (leaving a { } scope). */
void pp_sym_pop_to(struct parser *P, size_t mark)
{
    while (P->n_syms > mark) {
        struct sym *s = &P->syms[--P->n_syms];
        int *v = pp_symtab_slot(P, &P->tab, s->name, false);
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
            pp_perr(P, P->line, "unterminated string");
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

struct tok pp_peek(struct parser *P)
{
    if (!P->has_look) {
        P->look = lex(P);
        P->has_look = true;
    }
    return P->look;
}

struct tok pp_next(struct parser *P)
{
    struct tok t = pp_peek(P);
    P->has_look = false;
    return t;
}

bool pp_accept(struct parser *P, const char *s)
{
    if (tok_is(pp_peek(P), s)) {
        pp_next(P);
        return true;
    }
    return false;
}

const char *pp_tok_text(struct tok t, char *buf, size_t n)
{
    if (t.kind == TK_EOF)
        return "end of file";
    snprintf(buf, n, "%.*s", (int)(t.len > 60 ? 60 : t.len), t.s);
    return buf;
}

void pp_expect(struct parser *P, const char *s)
{
    struct tok t = pp_next(P);
    if (!tok_is(t, s)) {
        char b[64];
        pp_perr(P, t.line, "expected '%s', found '%s'", s, pp_tok_text(t, b, sizeof b));
    }
}

char *pp_word(struct parser *P, struct tok *out, const char *what)
{
    struct tok t = pp_next(P);
    if (t.kind != TK_WORD) {
        char b[64];
        pp_perr(P, t.line, "expected %s, found '%s'", what, pp_tok_text(t, b, sizeof b));
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
bool pp_parse_int_text(const char *s, unsigned len, uint64_t *v)
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
    errno = 0;
    *v = strtoull(q, &end, base);
    return *end == 0 && errno != ERANGE; /* a literal past 64 bits is no number */
}

bool pp_parse_num_text(const char *s, unsigned len, struct num *n)
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
    if (pp_parse_int_text(s, len, &n->bits))
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

const char *const pp_type_names[PT_N] = {
    [PT_PRED] = "pred",     [PT_B8] = "b8",   [PT_B16] = "b16",     [PT_B32] = "b32",
    [PT_B64] = "b64",       [PT_U8] = "u8",   [PT_U16] = "u16",     [PT_U32] = "u32",
    [PT_U64] = "u64",       [PT_S8] = "s8",   [PT_S16] = "s16",     [PT_S32] = "s32",
    [PT_S64] = "s64",       [PT_F16] = "f16", [PT_F16X2] = "f16x2", [PT_BF16] = "bf16",
    [PT_BF16X2] = "bf16x2", [PT_F32] = "f32", [PT_F64] = "f64",
};

int pp_type_of(const char *s)
{
    for (int i = 1; i < PT_N; i++)
        if (pp_type_names[i] && !strcmp(s, pp_type_names[i]))
            return i;
    return PT_NONE;
}
