/*
 * launchspec_lex.c - the launch-spec line cursor (one line at a time,
 * comments stripped: whitespace, identifiers, keywords, paths) and the small
 * recursive-descent parser of expressions built on it (C operators and
 * precedence, NAME[EXPR] / NAME.init[EXPR] for buffer elements), with the
 * limits on nesting and operators that keep it off deep recursion.
 * INVARIANT: a parsed expression only names buffers, constants and functions
 * that exist; anything else was a file:line error.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/launchspec_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void lp_error(struct lp *lp, const char *fmt, ...)
{
    if (lp->failed)
        return; /* keep the first message */
    lp->failed = true;
    int n = snprintf(lp->err, lp->errlen, "%s:%d: ", lp->s->filename, lp->line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < lp->errlen)
        vsnprintf(lp->err + n, lp->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

void lp_skip_ws(struct lp *lp)
{
    while (*lp->p == ' ' || *lp->p == '\t' || *lp->p == '\r')
        lp->p++;
}

bool lp_at_end(struct lp *lp)
{
    lp_skip_ws(lp);
    return !*lp->p;
}

/* Consume `c` if it is next. */
bool lp_accept(struct lp *lp, char c)
{
    lp_skip_ws(lp);
    if (*lp->p == c) {
        lp->p++;
        return true;
    }
    return false;
}

bool lp_expect(struct lp *lp, char c, const char *after)
{
    if (lp_accept(lp, c))
        return true;
    lp_error(lp, "expected '%c' after %s", c, after);
    return false;
}

/* What comes next, quoted for messages. */
const char *lp_next_desc(struct lp *lp, char *buf, size_t len)
{
    lp_skip_ws(lp);
    if (!*lp->p)
        return "end of line";
    size_t n = 0;
    while (lp->p[n] && lp->p[n] != ' ' && lp->p[n] != '\t' && n < 24)
        n++;
    snprintf(buf, len, "'%.*s'", (int)n, lp->p);
    return buf;
}

/* An identifier, into buf; false (no error) when none is next. */
bool lp_ident(struct lp *lp, char *buf, size_t len)
{
    lp_skip_ws(lp);
    const char *q = lp->p;
    if (!isalpha((unsigned char)*q) && *q != '_')
        return false;
    size_t n = 0;
    while (isalnum((unsigned char)q[n]) || q[n] == '_')
        n++;
    if (n >= len) {
        lp_error(lp, "name '%.*s...' is too long", 16, q);
        return false;
    }
    memcpy(buf, q, n);
    buf[n] = 0;
    lp->p = q + n;
    return true;
}

/* Is the next word the keyword kw (followed by a non-name character)? */
bool lp_keyword(struct lp *lp, const char *kw)
{
    lp_skip_ws(lp);
    size_t n = strlen(kw);
    if (strncmp(lp->p, kw, n) || isalnum((unsigned char)lp->p[n]) || lp->p[n] == '_')
        return false;
    lp->p += n;
    return true;
}

int lp_find_type(const char *name)
{
    for (int t = 0; t < LSPEC_NTYPES; t++)
        if (!strcmp(name, lspec_type_names[t]))
            return t;
    return -1;
}

int lp_find_const(const struct lp *lp, const char *name)
{
    for (unsigned i = 0; i < lp->n_consts; i++)
        if (!strcmp(lp->consts[i].name, name))
            return (int)i;
    return -1;
}

bool lp_reserved(const char *name)
{
    static const char *const words[] = {"i",    "zeros",  "const", "iota", "random",
                                        "file", "values", "inf",   "nan",  "tol"};
    for (size_t k = 0; k < ARRAY_LEN(words); k++)
        if (!strcmp(name, words[k]))
            return true;
    for (int f = 0; f < FN_N; f++)
        if (!strcmp(name, lx_fns[f].name))
            return true;
    return lp_find_type(name) >= 0;
}

struct lspec_expr *lp_node(struct lp *lp, enum lx_op op)
{
    struct lspec_expr *x = xcalloc(1, sizeof *x);
    x->op = (uint8_t)op;
    x->next_alloc = lp->s->exprs;
    lp->s->exprs = x;
    return x;
}

static struct lspec_expr *parse_number(struct lp *lp)
{
    const char *q = lp->p;
    char *end_i, *end_f;
    errno = 0;
    bool hex = q[0] == '0' && (q[1] == 'x' || q[1] == 'X');
    unsigned long long u = strtoull(q, &end_i, hex ? 16 : 10);
    bool overflow = errno == ERANGE;
    double d = strtod(q, &end_f);
    struct lspec_expr *x = lp_node(lp, LX_NUM);
    if (hex || end_i >= end_f) {
        if (overflow) {
            lp_error(lp, "integer %.*s is too large for 64 bits", (int)(end_i - q), q);
            return NULL;
        }
        x->num = vint((int64_t)u);
        lp->p = end_i;
    } else {
        x->num = vflt(d);
        lp->p = end_f;
    }
    if (isalnum((unsigned char)*lp->p) || *lp->p == '_' || *lp->p == '.') {
        lp_error(lp, "malformed number '%.*s'", (int)(lp->p - q) + 1, q);
        return NULL;
    }
    return x;
}

static struct lspec_expr *parse_primary(struct lp *lp)
{
    char name[64], tmp[40];
    lp_skip_ws(lp);
    if (isdigit((unsigned char)*lp->p) || (*lp->p == '.' && isdigit((unsigned char)lp->p[1])))
        return parse_number(lp);
    if (lp_accept(lp, '(')) {
        struct lspec_expr *x = lp_parse_expr(lp);
        if (x && !lp_expect(lp, ')', "a parenthesized expression"))
            return NULL;
        return x;
    }
    if (!lp_ident(lp, name, sizeof name)) {
        if (!lp->failed)
            lp_error(lp, "expected a number, a name or '(' but found %s",
                     lp_next_desc(lp, tmp, sizeof tmp));
        return NULL;
    }
    if (!strcmp(name, "inf") || !strcmp(name, "nan")) {
        struct lspec_expr *x = lp_node(lp, LX_NUM);
        x->num = vflt(name[0] == 'i' ? INFINITY : NAN);
        return x;
    }
    if (!strcmp(name, "i")) {
        if (lp->refs == REFS_NONE) {
            lp_error(lp, "'i' (the element index) has no meaning here");
            return NULL;
        }
        return lp_node(lp, LX_INDEX);
    }
    lp_skip_ws(lp);
    if (*lp->p == '(') {
        for (int f = 0; f < FN_N; f++) {
            if (strcmp(name, lx_fns[f].name))
                continue;
            lp->p++;
            struct lspec_expr *x = lp_node(lp, LX_CALL);
            x->fn = (uint8_t)f;
            for (unsigned k = 0; k < lx_fns[f].n_args; k++) {
                if (k && !lp_expect(lp, ',', "a function argument"))
                    return NULL;
                if (!(x->a[k] = lp_parse_expr(lp)))
                    return NULL;
            }
            if (!lp_accept(lp, ')')) {
                lp_error(lp, "%s() takes %u argument%s", name, lx_fns[f].n_args,
                         lx_fns[f].n_args == 1 ? "" : "s");
                return NULL;
            }
            return x;
        }
        lp_error(lp, "unknown function '%s'", name);
        return NULL;
    }
    int c = lp_find_const(lp, name);
    if (c >= 0) {
        struct lspec_expr *x = lp_node(lp, LX_NUM);
        x->num = lp->consts[c].val;
        return x;
    }
    int b = launchspec_find_buffer(lp->s, name);
    if (b < 0 && lp->defining && !strcmp(name, lp->defining)) {
        lp_error(lp, "buffer '%s' is not initialized yet here (only earlier buffers can be used)",
                 name);
        return NULL;
    }
    if (b < 0) {
        lp_error(lp, "unknown name '%s'", name);
        return NULL;
    }
    bool init = false;
    if (!strncmp(lp->p, ".init", 5) && !isalnum((unsigned char)lp->p[5])) {
        lp->p += 5;
        init = true;
    }
    if (lp->refs == REFS_NONE) {
        lp_error(lp, "buffer '%s' cannot be used in a constant expression", name);
        return NULL;
    }
    if (lp->refs == REFS_INIT && (unsigned)b >= lp->refs_below) {
        lp_error(lp, "buffer '%s' is not initialized yet here (only earlier buffers can be used)",
                 name);
        return NULL;
    }
    if (!lp_accept(lp, '[')) {
        lp_error(lp, "buffer '%s' needs an index: %s[i]", name, name);
        return NULL;
    }
    struct lspec_expr *x = lp_node(lp, LX_BUF);
    x->buf = (unsigned)b;
    x->init = init || lp->refs == REFS_INIT;
    if (!(x->a[0] = lp_parse_expr(lp)) || !lp_expect(lp, ']', "a buffer index"))
        return NULL;
    return x;
}

/* The expression parser recurses once per '(' or unary operator: bound it,
 * so a pathological expression is an error instead of a stack overflow
 * (found by fuzzing). */
#define LSPEC_MAX_NESTING 64
/* Binary operators chain without recursion in the parser, but each is a level
 * of the tree that the evaluator recurses through: bound them per expression
 * too (a chain of thousands of '^' overflowed the evaluator's stack under
 * fuzzing). */
#define LSPEC_MAX_OPERATORS 1024

static struct lspec_expr *parse_unary_nested(struct lp *lp);

static struct lspec_expr *parse_unary(struct lp *lp)
{
    if (lp->depth == LSPEC_MAX_NESTING) {
        lp_error(lp, "expression nested more than %d deep", LSPEC_MAX_NESTING);
        return NULL;
    }
    lp->depth++;
    struct lspec_expr *x = parse_unary_nested(lp);
    lp->depth--;
    return x;
}

static struct lspec_expr *parse_unary_nested(struct lp *lp)
{
    lp_skip_ws(lp);
    enum lx_op op;
    if (*lp->p == '-')
        op = LX_NEG;
    else if (*lp->p == '~')
        op = LX_NOT;
    else if (*lp->p == '+') {
        lp->p++;
        return parse_unary(lp);
    } else
        return parse_primary(lp);
    lp->p++;
    struct lspec_expr *x = lp_node(lp, op);
    if (!(x->a[0] = parse_unary(lp)))
        return NULL;
    return x;
}

/* Binary operators by precedence level, loosest first (C's order). */
static const struct {
    const char *tok;
    uint8_t op, level;
} lx_binops[] = {
    {"|", LX_OR, 0},  {"^", LX_XOR, 1}, {"&", LX_AND, 2}, {"<<", LX_SHL, 3}, {">>", LX_SHR, 3},
    {"+", LX_ADD, 4}, {"-", LX_SUB, 4}, {"*", LX_MUL, 5}, {"/", LX_DIV, 5},  {"%", LX_MOD, 5},
};
#define LX_LEVELS 6

static struct lspec_expr *parse_level(struct lp *lp, unsigned level)
{
    if (level == LX_LEVELS)
        return parse_unary(lp);
    struct lspec_expr *x = parse_level(lp, level + 1);
    while (x) {
        lp_skip_ws(lp);
        size_t k;
        for (k = 0; k < ARRAY_LEN(lx_binops); k++) {
            size_t n = strlen(lx_binops[k].tok);
            if (lx_binops[k].level == level && !strncmp(lp->p, lx_binops[k].tok, n) &&
                (n == 2 || (lp->p[1] != lp->p[0]))) /* '<' of '<<' is not an operator */
                break;
        }
        if (k == ARRAY_LEN(lx_binops))
            return x;
        if (++lp->ops > LSPEC_MAX_OPERATORS) {
            lp_error(lp, "expression has more than %d binary operators", LSPEC_MAX_OPERATORS);
            return NULL;
        }
        lp->p += strlen(lx_binops[k].tok);
        struct lspec_expr *y = lp_node(lp, (enum lx_op)lx_binops[k].op);
        y->a[0] = x;
        if (!(y->a[1] = parse_level(lp, level + 1)))
            return NULL;
        x = y;
    }
    return NULL;
}

struct lspec_expr *lp_parse_expr(struct lp *lp)
{
    if (lp->depth == 0) /* an expression of its own, not one inside another */
        lp->ops = 0;
    return parse_level(lp, 0);
}

/* A constant expression, evaluated now. */
bool lp_const_expr(struct lp *lp, struct lspec_val *out)
{
    enum lp_refs saved = lp->refs;
    lp->refs = REFS_NONE;
    struct lspec_expr *x = lp_parse_expr(lp);
    lp->refs = saved;
    if (!x)
        return false;
    char msg[256];
    bool failed = false;
    struct lx_env e = {
        .s = lp->s, .line = lp->line, .msg = msg, .msglen = sizeof msg, .failed = &failed};
    *out = lx_eval(x, &e);
    if (failed)
        lp_error(lp, "%s", msg);
    return !failed;
}

/* A constant integer in [lo, hi]; `what` names it in messages. */
bool lp_const_uint(struct lp *lp, const char *what, uint64_t lo, uint64_t hi, uint64_t *out)
{
    struct lspec_val v;
    if (!lp_const_expr(lp, &v))
        return false;
    if (v.is_float) {
        lp_error(lp, "%s must be an integer, not %g", what, v.f);
        return false;
    }
    if (v.i < 0 || (uint64_t)v.i < lo || (uint64_t)v.i > hi) {
        lp_error(lp, "%s %lld is out of range [%llu, %llu]", what, (long long)v.i,
                 (unsigned long long)lo, (unsigned long long)hi);
        return false;
    }
    *out = (uint64_t)v.i;
    return true;
}

/* A path: "quoted" or up to the closing parenthesis (in file(...)) or to the
 * end of the line / whitespace. Resolved against the spec's folder. */
char *lp_parse_path(struct lp *lp, char stop)
{
    lp_skip_ws(lp);
    const char *q = lp->p;
    size_t n = 0;
    if (*q == '"') {
        q++;
        while (q[n] && q[n] != '"')
            n++;
        if (!q[n]) {
            lp_error(lp, "unterminated quoted path");
            return NULL;
        }
        lp->p = q + n + 1;
    } else {
        while (q[n] && q[n] != stop && q[n] != ' ' && q[n] != '\t')
            n++;
        lp->p = q + n;
    }
    if (!n) {
        lp_error(lp, "expected a file name");
        return NULL;
    }
    if (q[0] == '/' || !lp->s->dir[0]) {
        char *r = xcalloc(1, n + 1);
        memcpy(r, q, n);
        return r;
    }
    size_t dl = strlen(lp->s->dir);
    char *r = xcalloc(1, dl + n + 2);
    memcpy(r, lp->s->dir, dl);
    r[dl] = '/';
    memcpy(r + dl + 1, q, n);
    return r;
}
