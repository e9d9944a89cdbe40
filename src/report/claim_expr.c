/*
 * claim_expr.c - recursive-descent parser and evaluator of claim
 * expressions (claim_expr.h).
 *
 *   expr    := and ('or' and)*
 *   and     := not ('and' not)*
 *   not     := 'not' not | cmp
 *   cmp     := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)*
 *   sum     := product (('+' | '-') product)*
 *   product := unary (('*' | '/') unary)*
 *   unary   := '-' unary | NUMBER | '(' expr ')' | call
 *   call    := ('min' | 'max' | 'spread') '(' expr (',' expr)* ')'
 *            | IDENT '(' NAME (',' NAME)* ')'
 *
 * NAME is a run of letters, digits and _ - . : so design names such as
 * tcw-fixed or lease:0 need no quoting.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "report/claim_expr.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum cx_kind { CX_NUM, CX_CALL, CX_BUILTIN, CX_NEG, CX_BIN, CX_CMP, CX_AND, CX_OR, CX_NOT };
enum cx_builtin { CX_MIN, CX_MAX, CX_SPREAD };

struct cx_node {
    enum cx_kind kind;
    char op[3]; /* CX_BIN: + - * /; CX_CMP: < <= > >= == != */
    double num;
    int builtin;
    struct cx_node *kid[CX_MAX_ARGS];
    unsigned n_kids;
    struct cx_call call; /* CX_CALL; its strings are owned */
};

struct cx_parser {
    const char *p;
    const struct cx_env *env;
    char *err;
    size_t errlen;
    bool failed;
};

static void fail(struct cx_parser *ps, const char *fmt, ...)
{
    if (ps->failed)
        return;
    ps->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err, ps->errlen, fmt, ap);
    va_end(ap);
}

static void skip(struct cx_parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static bool name_char(char c)
{
    return word_char(c) || c == '-' || c == '.' || c == ':';
}

/* The keyword kw next, as a whole word? Consumes it. */
static bool keyword(struct cx_parser *ps, const char *kw)
{
    skip(ps);
    size_t n = strlen(kw);
    if (strncmp(ps->p, kw, n) || word_char(ps->p[n]))
        return false;
    ps->p += n;
    return true;
}

static bool punct(struct cx_parser *ps, const char *t)
{
    skip(ps);
    size_t n = strlen(t);
    if (strncmp(ps->p, t, n))
        return false;
    ps->p += n;
    return true;
}

static struct cx_node *node(enum cx_kind k)
{
    struct cx_node *n = calloc(1, sizeof *n);
    if (!n)
        abort();
    n->kind = k;
    return n;
}

static struct cx_node *parse_or(struct cx_parser *ps);

/* What is at the cursor, for messages. */
static const char *here(struct cx_parser *ps)
{
    return *ps->p ? ps->p : "the end";
}

static struct cx_node *parse_call(struct cx_parser *ps, const char *name, size_t len)
{
    static const char *const builtins[] = {"min", "max", "spread"};
    for (int b = 0; b < 3; b++) {
        if (strlen(builtins[b]) != len || strncmp(name, builtins[b], len))
            continue;
        struct cx_node *n = node(CX_BUILTIN);
        n->builtin = b;
        do {
            if (n->n_kids == CX_MAX_ARGS) {
                fail(ps, "%s: at most %d arguments", builtins[b], CX_MAX_ARGS);
                return n;
            }
            n->kid[n->n_kids++] = parse_or(ps);
        } while (!ps->failed && punct(ps, ","));
        if (!ps->failed && !punct(ps, ")"))
            fail(ps, "expected ',' or ')' at '%s'", here(ps));
        return n;
    }
    struct cx_node *n = node(CX_CALL);
    n->call.fn = strndup(name, len);
    do {
        skip(ps);
        const char *a = ps->p;
        while (name_char(*ps->p))
            ps->p++;
        if (a == ps->p) {
            fail(ps, "%s: expected a name at '%s'", n->call.fn, here(ps));
            return n;
        }
        if (n->call.n_args == CX_MAX_ARGS) {
            fail(ps, "%s: at most %d arguments", n->call.fn, CX_MAX_ARGS);
            return n;
        }
        n->call.args[n->call.n_args++] = strndup(a, (size_t)(ps->p - a));
    } while (punct(ps, ","));
    if (!punct(ps, ")")) {
        fail(ps, "expected ',' or ')' at '%s'", here(ps));
        return n;
    }
    /* the text as written, spaces normalised to ", " */
    char text[256];
    size_t k = (size_t)snprintf(text, sizeof text, "%s(", n->call.fn);
    for (unsigned i = 0; i < n->call.n_args && k < sizeof text; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, "%s%s", i ? ", " : "", n->call.args[i]);
    if (k < sizeof text)
        snprintf(text + k, sizeof text - k, ")");
    n->call.text = strdup(text);
    char why[256];
    if (ps->env->check(ps->env->ctx, &n->call, why, sizeof why))
        fail(ps, "%s", why);
    return n;
}

static struct cx_node *parse_unary(struct cx_parser *ps)
{
    if (punct(ps, "-")) {
        struct cx_node *n = node(CX_NEG);
        n->kid[n->n_kids++] = parse_unary(ps);
        return n;
    }
    if (punct(ps, "(")) {
        struct cx_node *n = parse_or(ps);
        if (!ps->failed && !punct(ps, ")"))
            fail(ps, "expected ')' at '%s'", here(ps));
        return n;
    }
    skip(ps);
    if (isdigit((unsigned char)*ps->p) || *ps->p == '.') {
        char *end;
        struct cx_node *n = node(CX_NUM);
        n->num = strtod(ps->p, &end);
        ps->p = end;
        return n;
    }
    if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
        const char *name = ps->p;
        while (word_char(*ps->p))
            ps->p++;
        size_t len = (size_t)(ps->p - name);
        if (!punct(ps, "(")) {
            fail(ps, "'%.*s' is not a function call (expected '(' after it)", (int)len, name);
            return node(CX_NUM);
        }
        return parse_call(ps, name, len);
    }
    fail(ps, "expected a number, '(' or a call at '%s'", here(ps));
    return node(CX_NUM);
}

static struct cx_node *parse_binary(struct cx_parser *ps, bool sum)
{
    struct cx_node *l = sum ? parse_binary(ps, false) : parse_unary(ps);
    while (!ps->failed) {
        skip(ps);
        char c = *ps->p;
        if (sum ? c != '+' && c != '-' : c != '*' && c != '/')
            break;
        ps->p++;
        struct cx_node *n = node(CX_BIN);
        n->op[0] = c;
        n->kid[0] = l;
        n->kid[1] = sum ? parse_binary(ps, false) : parse_unary(ps);
        n->n_kids = 2;
        l = n;
    }
    return l;
}

static struct cx_node *parse_cmp(struct cx_parser *ps)
{
    static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
    struct cx_node *first = parse_binary(ps, true);
    struct cx_node *n = NULL;
    while (!ps->failed) {
        const char *op = NULL;
        for (unsigned i = 0; i < 6 && !op; i++)
            if (punct(ps, ops[i]))
                op = ops[i];
        if (!op)
            break;
        if (!n) {
            n = node(CX_CMP);
            n->kid[n->n_kids++] = first;
        }
        if (n->n_kids == CX_MAX_ARGS) {
            fail(ps, "a comparison chain of at most %d terms", CX_MAX_ARGS);
            break;
        }
        /* a chain a < b <= c: kid[0] is a, each later kid a link holding
         * its operator and its right-hand term */
        struct cx_node *rhs = parse_binary(ps, true);
        struct cx_node *link = node(CX_CMP);
        snprintf(link->op, sizeof link->op, "%s", op);
        link->kid[0] = rhs;
        link->n_kids = 1;
        n->kid[n->n_kids++] = link;
    }
    return n ? n : first;
}

static struct cx_node *parse_not(struct cx_parser *ps)
{
    if (keyword(ps, "not")) {
        struct cx_node *n = node(CX_NOT);
        n->kid[n->n_kids++] = parse_not(ps);
        return n;
    }
    return parse_cmp(ps);
}

static struct cx_node *parse_logic(struct cx_parser *ps, bool is_or)
{
    struct cx_node *l = is_or ? parse_logic(ps, false) : parse_not(ps);
    while (!ps->failed && keyword(ps, is_or ? "or" : "and")) {
        struct cx_node *n = node(is_or ? CX_OR : CX_AND);
        n->kid[0] = l;
        n->kid[1] = is_or ? parse_logic(ps, false) : parse_not(ps);
        n->n_kids = 2;
        l = n;
    }
    return l;
}

static struct cx_node *parse_or(struct cx_parser *ps)
{
    return parse_logic(ps, true);
}

struct cx_node *cx_parse(const char *text, const struct cx_env *env, char *err, size_t errlen)
{
    struct cx_parser ps = {.p = text, .env = env, .err = err, .errlen = errlen};
    struct cx_node *n = parse_or(&ps);
    skip(&ps);
    if (!ps.failed && *ps.p)
        fail(&ps, "unexpected '%s' after the expression", ps.p);
    if (ps.failed) {
        cx_free(n);
        return NULL;
    }
    return n;
}

void cx_free(struct cx_node *n)
{
    if (!n)
        return;
    for (unsigned i = 0; i < n->n_kids; i++)
        cx_free(n->kid[i]);
    if (n->kind == CX_CALL) {
        free((char *)n->call.fn);
        free((char *)n->call.text);
        for (unsigned i = 0; i < n->call.n_args; i++)
            free((char *)n->call.args[i]);
    }
    free(n);
}

/* ---- evaluation ---- */

struct cx_detail {
    char *buf;
    size_t len, used;
    const char *seen[64]; /* call texts already listed */
    unsigned n_seen;
};

static void note(struct cx_detail *d, const char *text, double v)
{
    if (!d->buf)
        return;
    for (unsigned i = 0; i < d->n_seen; i++)
        if (!strcmp(d->seen[i], text))
            return;
    if (d->n_seen < 64)
        d->seen[d->n_seen++] = text;
    if (d->used >= d->len)
        return;
    const char *sep = d->used ? ", " : "";
    if (isnan(v))
        d->used += (size_t)snprintf(d->buf + d->used, d->len - d->used, "%s%s unknown", sep, text);
    else if (v == floor(v) && (v == 0 || fabs(v) >= 10))
        d->used += (size_t)snprintf(d->buf + d->used, d->len - d->used, "%s%s %.0f", sep, text, v);
    else
        d->used += (size_t)snprintf(d->buf + d->used, d->len - d->used, "%s%s %.2f", sep, text, v);
}

static double truth(bool b)
{
    return b ? 1 : 0;
}

static double eval(const struct cx_node *n, const struct cx_env *env, struct cx_detail *d)
{
    switch (n->kind) {
    case CX_NUM:
        return n->num;
    case CX_CALL: {
        double v = env->value(env->ctx, &n->call);
        note(d, n->call.text, v);
        return v;
    }
    case CX_BUILTIN: {
        double lo = INFINITY, hi = -INFINITY;
        bool unknown = false;
        for (unsigned i = 0; i < n->n_kids; i++) {
            double v = eval(n->kid[i], env, d);
            unknown |= isnan(v);
            lo = fmin(lo, v), hi = fmax(hi, v);
        }
        if (unknown)
            return NAN;
        return n->builtin == CX_MIN ? lo : n->builtin == CX_MAX ? hi : hi / lo;
    }
    case CX_NEG:
        return -eval(n->kid[0], env, d);
    case CX_BIN: {
        double a = eval(n->kid[0], env, d), b = eval(n->kid[1], env, d);
        switch (n->op[0]) {
        case '+':
            return a + b;
        case '-':
            return a - b;
        case '*':
            return a * b;
        default:
            return a / b;
        }
    }
    case CX_CMP: {
        /* a chain: kid[0] the first term, each later kid a link (op, term) */
        double l = eval(n->kid[0], env, d), all = 1;
        for (unsigned i = 1; i < n->n_kids; i++) {
            const struct cx_node *link = n->kid[i];
            double r = eval(link->kid[0], env, d), t;
            if (isnan(l) || isnan(r))
                t = NAN;
            else if (!strcmp(link->op, "<"))
                t = truth(l < r);
            else if (!strcmp(link->op, "<="))
                t = truth(l <= r);
            else if (!strcmp(link->op, ">"))
                t = truth(l > r);
            else if (!strcmp(link->op, ">="))
                t = truth(l >= r);
            else if (!strcmp(link->op, "=="))
                t = truth(l == r);
            else
                t = truth(l != r);
            all = t == 0 || all == 0 ? 0 : isnan(t) || isnan(all) ? NAN : 1;
            l = r;
        }
        return all;
    }
    case CX_NOT: {
        double v = eval(n->kid[0], env, d);
        return isnan(v) ? NAN : truth(v == 0);
    }
    case CX_AND: {
        double a = eval(n->kid[0], env, d), b = eval(n->kid[1], env, d);
        if (a == 0 || b == 0)
            return 0;
        return isnan(a) || isnan(b) ? NAN : 1;
    }
    case CX_OR: {
        double a = eval(n->kid[0], env, d), b = eval(n->kid[1], env, d);
        if ((!isnan(a) && a != 0) || (!isnan(b) && b != 0))
            return 1;
        return isnan(a) || isnan(b) ? NAN : 0;
    }
    }
    return NAN;
}

double cx_eval(const struct cx_node *n, const struct cx_env *env, char *detail, size_t len)
{
    struct cx_detail d = {.buf = detail, .len = len};
    if (detail && len)
        detail[0] = 0;
    return eval(n, env, &d);
}

/* ---- how far an expression is from holding ---- */

/* One comparison's margin: (r - l) for l < r, scaled by the larger side so
 * that the links of a chain and the terms of an and, each in its own unit,
 * can be weighed against each other. */
static double link_margin(const char *op, double l, double r)
{
    double scale = fmax(fabs(l), fabs(r));
    double d = (r - l) / (scale > 0 ? scale : 1);
    if (op[0] == '<')
        return d;
    if (op[0] == '>')
        return -d;
    return op[0] == '=' ? -fabs(d) : fabs(d);
}

/* A term's value, its calls noted nowhere. */
static double value_of(const struct cx_node *n, const struct cx_env *env)
{
    struct cx_detail none = {0};
    return eval(n, env, &none);
}

static double margin(const struct cx_node *n, const struct cx_env *env)
{
    switch (n->kind) {
    case CX_CMP: {
        double l = value_of(n->kid[0], env), least = INFINITY;
        for (unsigned i = 1; i < n->n_kids; i++) {
            const struct cx_node *link = n->kid[i];
            double r = value_of(link->kid[0], env);
            if (isnan(l) || isnan(r))
                return NAN;
            least = fmin(least, link_margin(link->op, l, r));
            l = r;
        }
        return least;
    }
    case CX_NOT:
        return -margin(n->kid[0], env);
    case CX_AND:
    case CX_OR: {
        double a = margin(n->kid[0], env), b = margin(n->kid[1], env);
        if (isnan(a) || isnan(b))
            return NAN;
        return n->kind == CX_AND ? fmin(a, b) : fmax(a, b);
    }
    default: { /* a number as a truth value: true by 1, false by 1 */
        double v = value_of(n, env);
        return isnan(v) ? NAN : v != 0 ? 1 : -1;
    }
    }
}

double cx_margin(const struct cx_node *n, const struct cx_env *env)
{
    return margin(n, env);
}

/* ---- what the lint reads of an expression ---- */

static bool has_call(const struct cx_node *n)
{
    if (n->kind == CX_CALL)
        return true;
    for (unsigned i = 0; i < n->n_kids; i++)
        if (has_call(n->kid[i]))
            return true;
    return false;
}

static void constants(const struct cx_node *n, double *out, unsigned max, unsigned *k)
{
    /* a comparison is not a threshold, its terms are (a chain's later
     * terms sit in links of their own) */
    if (!has_call(n) && n->kind != CX_CMP) {
        static const struct cx_env none = {NULL, NULL, NULL};
        double v = eval(n, &none, &(struct cx_detail){0});
        if (*k < max && !isnan(v))
            out[(*k)++] = v;
        return;
    }
    for (unsigned i = 0; i < n->n_kids; i++)
        constants(n->kid[i], out, max, k);
}

unsigned cx_constants(const struct cx_node *n, double *out, unsigned max)
{
    unsigned k = 0;
    constants(n, out, max, &k);
    return k;
}

static void calls(const struct cx_node *n, const struct cx_call **out, unsigned max, unsigned *k)
{
    if (n->kind == CX_CALL && *k < max)
        out[(*k)++] = &n->call;
    for (unsigned i = 0; i < n->n_kids; i++)
        calls(n->kid[i], out, max, k);
}

unsigned cx_calls(const struct cx_node *n, const struct cx_call **out, unsigned max)
{
    unsigned k = 0;
    calls(n, out, max, &k);
    return k;
}
