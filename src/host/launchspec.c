/*
 * launchspec.c - parse, resolve and run launch-spec files (launchspec.h,
 * format in docs/launch-spec.md).
 *
 * The parser is a cursor over one line at a time (comments stripped) with a
 * small recursive-descent expression language: integers (64-bit, wrapping)
 * and doubles, C operators and precedence, a few functions, `i` for the
 * element index and NAME[EXPR] / NAME.init[EXPR] for buffer elements.
 * Expected values of a check are computed in the checked buffer's type: for an
 * f32 buffer every floating operation is rounded to float, as the kernel's
 * own f32 arithmetic is (fma() is there for contracted multiply-adds).
 * INVARIANT: a parsed spec only names buffers, constants and functions that
 * exist; anything else was a file:line error.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/launchspec.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/file.h"
#include "base/log.h"
#include "base/rng.h"
#include "ptx/ptx.h"

#define X(n, s, b) s,
const char *const lspec_type_names[LSPEC_NTYPES] = {LSPEC_TYPES(X)};
#undef X
#define X(n, s, b) b,
const unsigned lspec_type_bytes[LSPEC_NTYPES] = {LSPEC_TYPES(X)};
#undef X

static bool type_is_float(enum lspec_type t)
{
    return t == LSPEC_F32 || t == LSPEC_F64;
}

static bool type_is_signed(enum lspec_type t)
{
    return t == LSPEC_S8 || t == LSPEC_S16 || t == LSPEC_S32 || t == LSPEC_S64;
}

/* Largest buffer a spec may declare: the host keeps two copies of each. */
#define LSPEC_MAX_BUFFER_BYTES (4ull << 30)

#define PUSH(arr, n, item)                                                                         \
    do {                                                                                           \
        (arr) = xrealloc((arr), ((n) + 1) * sizeof *(arr));                                        \
        (arr)[(n)++] = (item);                                                                     \
    } while (0)

/* ---- expressions ---- */

enum lx_op {
    LX_NUM, LX_INDEX, LX_BUF, LX_NEG, LX_NOT, LX_ADD, LX_SUB, LX_MUL, LX_DIV, LX_MOD,
    LX_AND, LX_OR, LX_XOR, LX_SHL, LX_SHR, LX_CALL,
};

enum lx_fn { FN_MIN, FN_MAX, FN_ABS, FN_SQRT, FN_FMA, FN_FLOOR, FN_CEIL, FN_EXP, FN_LOG,
             FN_SIN, FN_COS, FN_FLOAT, FN_INT, FN_N };
static const struct {
    const char *name;
    unsigned n_args;
} lx_fns[FN_N] = {
    {"min", 2}, {"max", 2}, {"abs", 1}, {"sqrt", 1}, {"fma", 3}, {"floor", 1}, {"ceil", 1},
    {"exp", 1}, {"log", 1}, {"sin", 1}, {"cos", 1}, {"float", 1}, {"int", 1},
};

struct lspec_expr {
    uint8_t op;               /* enum lx_op */
    uint8_t fn;               /* LX_CALL: enum lx_fn */
    bool init;                /* LX_BUF: the buffer's initial contents */
    unsigned buf;             /* LX_BUF */
    struct lspec_val num;     /* LX_NUM */
    struct lspec_expr *a[3];  /* operands */
    struct lspec_expr *next_alloc;
};

/* What an evaluation may see. */
struct lx_env {
    const struct launchspec *s;
    uint64_t i;
    bool f32;                 /* round floating results to float */
    int line;                 /* for run-time errors */
    char *msg;                /* parse time: the first error goes here (and *failed is set) */
    size_t msglen;            /* instead of fatal(), so that the parser can clean up */
    bool *failed;
};

static void lx_error(const struct lx_env *e, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void lx_error(const struct lx_env *e, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!e->failed)
        fatal("%s:%d: %s", e->s->filename, e->line, msg);
    if (!*e->failed)
        snprintf(e->msg, e->msglen, "%s", msg);
    *e->failed = true;
}

static struct lspec_val vint(int64_t i)
{
    return (struct lspec_val){false, i, 0};
}

static struct lspec_val vflt(double f)
{
    return (struct lspec_val){true, 0, f};
}

static double as_f(struct lspec_val v)
{
    return v.is_float ? v.f : (double)v.i;
}

static struct lspec_val round_f(const struct lx_env *e, struct lspec_val v)
{
    if (v.is_float && e->f32)
        v.f = (float)v.f;
    return v;
}

/* Element idx of a typed array as a value. */
static struct lspec_val elem_get(enum lspec_type t, const uint8_t *p, uint64_t idx)
{
    p += idx * lspec_type_bytes[t];
    switch (t) {
    case LSPEC_U8: return vint(*p);
    case LSPEC_S8: return vint((int8_t)*p);
    case LSPEC_U16: { uint16_t x; memcpy(&x, p, 2); return vint(x); }
    case LSPEC_S16: { int16_t x; memcpy(&x, p, 2); return vint(x); }
    case LSPEC_U32: { uint32_t x; memcpy(&x, p, 4); return vint(x); }
    case LSPEC_S32: { int32_t x; memcpy(&x, p, 4); return vint(x); }
    case LSPEC_U64:
    case LSPEC_S64: { int64_t x; memcpy(&x, p, 8); return vint(x); }
    case LSPEC_F32: { float x; memcpy(&x, p, 4); return vflt(x); }
    case LSPEC_F64: { double x; memcpy(&x, p, 8); return vflt(x); }
    default: return vint(0);
    }
}

/* Store a value into element idx, converting to the element type (integers
 * wrap to the width; floats truncate toward zero into integer types). */
static void elem_set(enum lspec_type t, uint8_t *p, uint64_t idx, struct lspec_val v)
{
    p += idx * lspec_type_bytes[t];
    if (t == LSPEC_F32) {
        float x = (float)as_f(v);
        memcpy(p, &x, 4);
    } else if (t == LSPEC_F64) {
        double x = as_f(v);
        memcpy(p, &x, 8);
    } else {
        int64_t x;
        if (v.is_float)
            x = isnan(v.f) ? 0 : v.f >= 9.2e18 ? INT64_MAX : v.f <= -9.2e18 ? INT64_MIN
                                                                            : (int64_t)v.f;
        else
            x = v.i;
        memcpy(p, &x, lspec_type_bytes[t]); /* little-endian: the low bytes */
    }
}

static struct lspec_val lx_eval(const struct lspec_expr *x, const struct lx_env *e);

static struct lspec_val eval_call(const struct lspec_expr *x, const struct lx_env *e)
{
    struct lspec_val a = lx_eval(x->a[0], e), b = {0}, c = {0};
    if (lx_fns[x->fn].n_args > 1)
        b = lx_eval(x->a[1], e);
    if (lx_fns[x->fn].n_args > 2)
        c = lx_eval(x->a[2], e);
    switch ((enum lx_fn)x->fn) {
    case FN_MIN:
        if (!a.is_float && !b.is_float)
            return vint(a.i < b.i ? a.i : b.i);
        return round_f(e, vflt(fmin(as_f(a), as_f(b))));
    case FN_MAX:
        if (!a.is_float && !b.is_float)
            return vint(a.i > b.i ? a.i : b.i);
        return round_f(e, vflt(fmax(as_f(a), as_f(b))));
    case FN_ABS:
        return a.is_float ? vflt(fabs(a.f)) : vint(a.i < 0 ? (int64_t)(0 - (uint64_t)a.i) : a.i);
    case FN_SQRT: return round_f(e, vflt(e->f32 ? sqrtf((float)as_f(a)) : sqrt(as_f(a))));
    case FN_FMA:
        if (e->f32)
            return vflt(fmaf((float)as_f(a), (float)as_f(b), (float)as_f(c)));
        return vflt(fma(as_f(a), as_f(b), as_f(c)));
    case FN_FLOOR: return a.is_float ? vflt(floor(a.f)) : a;
    case FN_CEIL: return a.is_float ? vflt(ceil(a.f)) : a;
    case FN_EXP: return round_f(e, vflt(exp(as_f(a))));
    case FN_LOG: return round_f(e, vflt(log(as_f(a))));
    case FN_SIN: return round_f(e, vflt(sin(as_f(a))));
    case FN_COS: return round_f(e, vflt(cos(as_f(a))));
    case FN_FLOAT: return round_f(e, vflt(as_f(a)));
    case FN_INT: {
        uint8_t tmp[8];
        elem_set(LSPEC_S64, tmp, 0, a);
        return elem_get(LSPEC_S64, tmp, 0);
    }
    default: return a;
    }
}

static struct lspec_val lx_eval(const struct lspec_expr *x, const struct lx_env *e)
{
    struct lspec_val a, b;
    switch ((enum lx_op)x->op) {
    case LX_NUM: return round_f(e, x->num);
    case LX_INDEX: return vint((int64_t)e->i);
    case LX_BUF: {
        const struct lspec_buffer *bf = &e->s->buffers[x->buf];
        a = lx_eval(x->a[0], e);
        if (a.is_float) {
            lx_error(e, "index of %s is not an integer (%g)", bf->name, a.f);
            return vint(0);
        }
        if (a.i < 0 || (uint64_t)a.i >= bf->count) {
            lx_error(e, "%s[%lld] is out of range (%s has %llu elements)", bf->name,
                     (long long)a.i, bf->name, (unsigned long long)bf->count);
            return vint(0);
        }
        return elem_get(bf->type, x->init ? bf->initial : bf->current, (uint64_t)a.i);
    }
    case LX_NEG:
        a = lx_eval(x->a[0], e);
        return a.is_float ? vflt(-a.f) : vint((int64_t)(0 - (uint64_t)a.i));
    case LX_NOT:
        a = lx_eval(x->a[0], e);
        if (a.is_float) {
            lx_error(e, "'~' needs an integer operand");
            return vint(0);
        }
        return vint(~a.i);
    case LX_CALL: return eval_call(x, e);
    default: break;
    }
    a = lx_eval(x->a[0], e);
    b = lx_eval(x->a[1], e);
    if (a.is_float || b.is_float) {
        double p = as_f(a), q = as_f(b);
        switch ((enum lx_op)x->op) {
        case LX_ADD: return round_f(e, vflt(e->f32 ? (double)((float)p + (float)q) : p + q));
        case LX_SUB: return round_f(e, vflt(e->f32 ? (double)((float)p - (float)q) : p - q));
        case LX_MUL: return round_f(e, vflt(e->f32 ? (double)((float)p * (float)q) : p * q));
        case LX_DIV: return round_f(e, vflt(e->f32 ? (double)((float)p / (float)q) : p / q));
        case LX_MOD: return round_f(e, vflt(fmod(p, q)));
        default:
            lx_error(e, "bitwise operators need integer operands");
            return vint(0);
        }
    }
    uint64_t p = (uint64_t)a.i, q = (uint64_t)b.i;
    switch ((enum lx_op)x->op) {
    case LX_ADD: return vint((int64_t)(p + q));
    case LX_SUB: return vint((int64_t)(p - q));
    case LX_MUL: return vint((int64_t)(p * q));
    case LX_DIV:
    case LX_MOD:
        if (!b.i) {
            lx_error(e, "integer division by zero");
            return vint(0);
        }
        if (a.i == INT64_MIN && b.i == -1)
            return vint(x->op == LX_DIV ? INT64_MIN : 0);
        return vint(x->op == LX_DIV ? a.i / b.i : a.i % b.i);
    case LX_AND: return vint((int64_t)(p & q));
    case LX_OR: return vint((int64_t)(p | q));
    case LX_XOR: return vint((int64_t)(p ^ q));
    case LX_SHL: return vint(q >= 64 ? 0 : (int64_t)(p << q));
    case LX_SHR: return vint(q >= 64 ? (a.i < 0 ? -1 : 0) : a.i >> q);
    default: return a;
    }
}

/* ---- the line parser ---- */

/* A named constant (let). */
struct lp_const {
    char *name;
    struct lspec_val val;
};

enum lp_refs {
    REFS_NONE,     /* constant expressions: no i, no buffers */
    REFS_INIT,     /* buffer initializers: i, and earlier buffers' initial contents */
    REFS_ALL,      /* checks: i, and every buffer, current or .init */
};

struct lp {
    struct launchspec *s;
    const char *p;            /* cursor in the current line */
    int line;
    char *err;
    size_t errlen;
    bool failed;
    enum lp_refs refs;
    unsigned refs_below;      /* REFS_INIT: buffers with a smaller index */
    const char *defining;     /* the buffer whose line this is, if any */
    struct lp_const *consts;
    unsigned n_consts;
    unsigned depth;           /* nesting of parentheses and unary operators */
    unsigned ops;             /* binary operators in the expression being parsed */
    int together_line;        /* a launch ending in '&' waits for the next launch: its line */
    unsigned together_devices; /* bit 0 GPU, bit 1 CPU: devices its group uses so far */
};

static void lp_error(struct lp *lp, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void lp_error(struct lp *lp, const char *fmt, ...)
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

static void skip_ws(struct lp *lp)
{
    while (*lp->p == ' ' || *lp->p == '\t' || *lp->p == '\r')
        lp->p++;
}

static bool at_end(struct lp *lp)
{
    skip_ws(lp);
    return !*lp->p;
}

/* Consume `c` if it is next. */
static bool accept(struct lp *lp, char c)
{
    skip_ws(lp);
    if (*lp->p == c) {
        lp->p++;
        return true;
    }
    return false;
}

static bool expect(struct lp *lp, char c, const char *after)
{
    if (accept(lp, c))
        return true;
    lp_error(lp, "expected '%c' after %s", c, after);
    return false;
}

/* What comes next, quoted for messages. */
static const char *next_desc(struct lp *lp, char *buf, size_t len)
{
    skip_ws(lp);
    if (!*lp->p)
        return "end of line";
    size_t n = 0;
    while (lp->p[n] && lp->p[n] != ' ' && lp->p[n] != '\t' && n < 24)
        n++;
    snprintf(buf, len, "'%.*s'", (int)n, lp->p);
    return buf;
}

/* An identifier, into buf; false (no error) when none is next. */
static bool ident(struct lp *lp, char *buf, size_t len)
{
    skip_ws(lp);
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
static bool keyword(struct lp *lp, const char *kw)
{
    skip_ws(lp);
    size_t n = strlen(kw);
    if (strncmp(lp->p, kw, n) || isalnum((unsigned char)lp->p[n]) || lp->p[n] == '_')
        return false;
    lp->p += n;
    return true;
}

static int find_type(const char *name)
{
    for (int t = 0; t < LSPEC_NTYPES; t++)
        if (!strcmp(name, lspec_type_names[t]))
            return t;
    return -1;
}

static int find_const(const struct lp *lp, const char *name)
{
    for (unsigned i = 0; i < lp->n_consts; i++)
        if (!strcmp(lp->consts[i].name, name))
            return (int)i;
    return -1;
}

static bool reserved(const char *name)
{
    static const char *const words[] = {"i", "zeros", "const", "iota", "random", "file",
                                        "values", "inf", "nan", "tol"};
    for (size_t k = 0; k < ARRAY_LEN(words); k++)
        if (!strcmp(name, words[k]))
            return true;
    for (int f = 0; f < FN_N; f++)
        if (!strcmp(name, lx_fns[f].name))
            return true;
    return find_type(name) >= 0;
}

static struct lspec_expr *node(struct lp *lp, enum lx_op op)
{
    struct lspec_expr *x = xcalloc(1, sizeof *x);
    x->op = (uint8_t)op;
    x->next_alloc = lp->s->exprs;
    lp->s->exprs = x;
    return x;
}

static struct lspec_expr *parse_expr(struct lp *lp);

static struct lspec_expr *parse_number(struct lp *lp)
{
    const char *q = lp->p;
    char *end_i, *end_f;
    errno = 0;
    bool hex = q[0] == '0' && (q[1] == 'x' || q[1] == 'X');
    unsigned long long u = strtoull(q, &end_i, hex ? 16 : 10);
    bool overflow = errno == ERANGE;
    double d = strtod(q, &end_f);
    struct lspec_expr *x = node(lp, LX_NUM);
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
    skip_ws(lp);
    if (isdigit((unsigned char)*lp->p) || (*lp->p == '.' && isdigit((unsigned char)lp->p[1])))
        return parse_number(lp);
    if (accept(lp, '(')) {
        struct lspec_expr *x = parse_expr(lp);
        if (x && !expect(lp, ')', "a parenthesized expression"))
            return NULL;
        return x;
    }
    if (!ident(lp, name, sizeof name)) {
        if (!lp->failed)
            lp_error(lp, "expected a number, a name or '(' but found %s",
                     next_desc(lp, tmp, sizeof tmp));
        return NULL;
    }
    if (!strcmp(name, "inf") || !strcmp(name, "nan")) {
        struct lspec_expr *x = node(lp, LX_NUM);
        x->num = vflt(name[0] == 'i' ? INFINITY : NAN);
        return x;
    }
    if (!strcmp(name, "i")) {
        if (lp->refs == REFS_NONE) {
            lp_error(lp, "'i' (the element index) has no meaning here");
            return NULL;
        }
        return node(lp, LX_INDEX);
    }
    skip_ws(lp);
    if (*lp->p == '(') {
        for (int f = 0; f < FN_N; f++) {
            if (strcmp(name, lx_fns[f].name))
                continue;
            lp->p++;
            struct lspec_expr *x = node(lp, LX_CALL);
            x->fn = (uint8_t)f;
            for (unsigned k = 0; k < lx_fns[f].n_args; k++) {
                if (k && !expect(lp, ',', "a function argument"))
                    return NULL;
                if (!(x->a[k] = parse_expr(lp)))
                    return NULL;
            }
            if (!accept(lp, ')')) {
                lp_error(lp, "%s() takes %u argument%s", name, lx_fns[f].n_args,
                         lx_fns[f].n_args == 1 ? "" : "s");
                return NULL;
            }
            return x;
        }
        lp_error(lp, "unknown function '%s'", name);
        return NULL;
    }
    int c = find_const(lp, name);
    if (c >= 0) {
        struct lspec_expr *x = node(lp, LX_NUM);
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
    if (!accept(lp, '[')) {
        lp_error(lp, "buffer '%s' needs an index: %s[i]", name, name);
        return NULL;
    }
    struct lspec_expr *x = node(lp, LX_BUF);
    x->buf = (unsigned)b;
    x->init = init || lp->refs == REFS_INIT;
    if (!(x->a[0] = parse_expr(lp)) || !expect(lp, ']', "a buffer index"))
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
    skip_ws(lp);
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
    struct lspec_expr *x = node(lp, op);
    if (!(x->a[0] = parse_unary(lp)))
        return NULL;
    return x;
}

/* Binary operators by precedence level, loosest first (C's order). */
static const struct {
    const char *tok;
    uint8_t op, level;
} lx_binops[] = {
    {"|", LX_OR, 0},   {"^", LX_XOR, 1},  {"&", LX_AND, 2},  {"<<", LX_SHL, 3}, {">>", LX_SHR, 3},
    {"+", LX_ADD, 4},  {"-", LX_SUB, 4},  {"*", LX_MUL, 5},  {"/", LX_DIV, 5},  {"%", LX_MOD, 5},
};
#define LX_LEVELS 6

static struct lspec_expr *parse_level(struct lp *lp, unsigned level)
{
    if (level == LX_LEVELS)
        return parse_unary(lp);
    struct lspec_expr *x = parse_level(lp, level + 1);
    while (x) {
        skip_ws(lp);
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
        struct lspec_expr *y = node(lp, (enum lx_op)lx_binops[k].op);
        y->a[0] = x;
        if (!(y->a[1] = parse_level(lp, level + 1)))
            return NULL;
        x = y;
    }
    return NULL;
}

static struct lspec_expr *parse_expr(struct lp *lp)
{
    if (lp->depth == 0) /* an expression of its own, not one inside another */
        lp->ops = 0;
    return parse_level(lp, 0);
}

/* A constant expression, evaluated now. */
static bool const_expr(struct lp *lp, struct lspec_val *out)
{
    enum lp_refs saved = lp->refs;
    lp->refs = REFS_NONE;
    struct lspec_expr *x = parse_expr(lp);
    lp->refs = saved;
    if (!x)
        return false;
    char msg[256];
    bool failed = false;
    struct lx_env e = {.s = lp->s, .line = lp->line, .msg = msg, .msglen = sizeof msg,
                       .failed = &failed};
    *out = lx_eval(x, &e);
    if (failed)
        lp_error(lp, "%s", msg);
    return !failed;
}

/* A constant integer in [lo, hi]; `what` names it in messages. */
static bool const_uint(struct lp *lp, const char *what, uint64_t lo, uint64_t hi, uint64_t *out)
{
    struct lspec_val v;
    if (!const_expr(lp, &v))
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
static char *parse_path(struct lp *lp, char stop)
{
    skip_ws(lp);
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

/* A fill source: zeros | const(E) | iota[(S[, STEP])] | random(SEED[, LO, HI]) |
 * file(PATH) | values(E, ...) | = E. */
/* What parse_source allocated; every parser that gives up after it frees it. */
static void free_source(struct lspec_source *src)
{
    free(src->path);
    free(src->values);
}

static bool parse_source(struct lp *lp, struct lspec_source *src, const char *what)
{
    char tmp[40];
    memset(src, 0, sizeof *src);
    /* "= EXPR", and "=" (or "==", natural in checks) before any other form */
    bool eq = accept(lp, '=');
    if (eq)
        accept(lp, '=');
    if (keyword(lp, "zeros")) {
        src->kind = LSPEC_FILL_ZEROS;
        return true;
    }
    if (keyword(lp, "const")) {
        src->kind = LSPEC_FILL_EXPR;
        if (!expect(lp, '(', "const"))
            return false;
        if (!(src->expr = parse_expr(lp)))
            return false;
        return expect(lp, ')', "const(VALUE");
    }
    if (keyword(lp, "iota")) {
        /* start + i * step */
        struct lspec_expr *start = NULL, *step = NULL;
        if (accept(lp, '(')) {
            if (!(start = parse_expr(lp)))
                return false;
            if (accept(lp, ',') && !(step = parse_expr(lp)))
                return false;
            if (!expect(lp, ')', "iota(START[, STEP]"))
                return false;
        }
        struct lspec_expr *x = node(lp, LX_INDEX);
        if (step) {
            struct lspec_expr *m = node(lp, LX_MUL);
            m->a[0] = x;
            m->a[1] = step;
            x = m;
        }
        if (start) {
            struct lspec_expr *a = node(lp, LX_ADD);
            a->a[0] = start;
            a->a[1] = x;
            x = a;
        }
        src->kind = LSPEC_FILL_EXPR;
        src->expr = x;
        return true;
    }
    if (keyword(lp, "random")) {
        uint64_t seed;
        src->kind = LSPEC_FILL_RANDOM;
        if (!expect(lp, '(', "random") || !const_uint(lp, "random seed", 0, UINT64_MAX, &seed))
            return false;
        src->seed = seed;
        if (accept(lp, ',')) {
            src->has_range = true;
            if (!const_expr(lp, &src->lo) || !expect(lp, ',', "random(SEED, LO") ||
                !const_expr(lp, &src->hi))
                return false;
            if (as_f(src->hi) < as_f(src->lo)) {
                lp_error(lp, "random range is empty: HI is below LO");
                return false;
            }
        }
        return expect(lp, ')', "random(SEED[, LO, HI]");
    }
    if (keyword(lp, "file")) {
        src->kind = LSPEC_FILL_FILE;
        if (!expect(lp, '(', "file") || !(src->path = parse_path(lp, ')')))
            return false;
        return expect(lp, ')', "file(PATH");
    }
    if (keyword(lp, "values")) {
        src->kind = LSPEC_FILL_VALUES;
        if (!expect(lp, '(', "values"))
            return false;
        do {
            struct lspec_val v;
            if (!const_expr(lp, &v))
                return false;
            PUSH(src->values, src->n_values, v);
        } while (accept(lp, ','));
        return expect(lp, ')', "values(V, ...");
    }
    if (eq) {
        src->kind = LSPEC_FILL_EXPR;
        return (src->expr = parse_expr(lp)) != NULL;
    }
    lp_error(lp, "expected %s (zeros, const(V), iota, random(SEED), file(PATH), values(...) or "
                 "= EXPR) but found %s",
             what, next_desc(lp, tmp, sizeof tmp));
    return false;
}

static bool end_of_line(struct lp *lp, const char *what)
{
    char tmp[40];
    if (at_end(lp))
        return true;
    lp_error(lp, "unexpected %s after %s", next_desc(lp, tmp, sizeof tmp), what);
    return false;
}

static bool new_name(struct lp *lp, const char *name)
{
    if (reserved(name)) {
        lp_error(lp, "'%s' is a reserved word and cannot name a buffer or constant", name);
        return false;
    }
    if (launchspec_find_buffer(lp->s, name) >= 0 || find_const(lp, name) >= 0) {
        lp_error(lp, "'%s' is already defined", name);
        return false;
    }
    return true;
}

static void parse_ptx(struct lp *lp)
{
    struct lspec_module m = {.line = lp->line};
    if (!(m.path = parse_path(lp, 0)))
        return;
    PUSH(lp->s->modules, lp->s->n_modules, m);
    end_of_line(lp, "the PTX file name");
}

static void parse_let(struct lp *lp)
{
    char name[64];
    struct lspec_val v;
    if (!ident(lp, name, sizeof name)) {
        lp_error(lp, "expected a name after 'let'");
        return;
    }
    if (!new_name(lp, name) || !expect(lp, '=', "let NAME") || !const_expr(lp, &v) ||
        !end_of_line(lp, "the constant's value"))
        return;
    struct lp_const c = {xstrdup(name), v};
    PUSH(lp->consts, lp->n_consts, c);
}

/* values() constants must be what an element of type t can hold: an integer
 * type takes integers that fit its width, signed or unsigned (-1 is the all-
 * ones u8), rather than the low bytes of whatever was written. */
static bool values_fit(struct lp *lp, const struct lspec_source *src, enum lspec_type t)
{
    if (src->kind != LSPEC_FILL_VALUES || type_is_float(t))
        return true;
    unsigned bits = 8 * lspec_type_bytes[t];
    for (uint64_t k = 0; k < src->n_values; k++) {
        struct lspec_val v = src->values[k];
        if (v.is_float) {
            lp_error(lp, "values(): value %llu (%g) is not an integer, and the elements are %s",
                     (unsigned long long)k + 1, v.f, lspec_type_names[t]);
            return false;
        }
        if (bits < 64 && (v.i < -(INT64_C(1) << (bits - 1)) || v.i > (INT64_C(1) << bits) - 1)) {
            lp_error(lp, "values(): value %llu (%lld) does not fit in %s",
                     (unsigned long long)k + 1, (long long)v.i, lspec_type_names[t]);
            return false;
        }
    }
    return true;
}

static void parse_buffer(struct lp *lp)
{
    char name[64], type[16] = "", tmp[40];
    struct lspec_buffer b = {.line = lp->line};
    if (!ident(lp, name, sizeof name)) {
        lp_error(lp, "expected a buffer name after 'buffer'");
        return;
    }
    if (!new_name(lp, name))
        return;
    if (!ident(lp, type, sizeof type) || find_type(type) < 0) {
        if (!lp->failed)
            lp_error(lp, "expected an element type (u8 s8 u16 s16 u32 s32 u64 s64 f32 f64) "
                         "after the buffer name, found %s",
                     type[0] && find_type(type) < 0 ? type : next_desc(lp, tmp, sizeof tmp));
        return;
    }
    b.type = (enum lspec_type)find_type(type);
    if (!const_uint(lp, "element count", 1, LSPEC_MAX_BUFFER_BYTES / lspec_type_bytes[b.type], &b.count))
        return;
    if (at_end(lp)) {
        b.init.kind = LSPEC_FILL_ZEROS;
    } else {
        lp->refs = REFS_INIT;
        lp->refs_below = lp->s->n_buffers;
        lp->defining = name;
        bool ok = parse_source(lp, &b.init, "the initial contents");
        lp->refs = REFS_NONE;
        lp->defining = NULL;
        if (!ok || !end_of_line(lp, "the initial contents")) {
            free_source(&b.init);
            return;
        }
    }
    if (b.init.kind == LSPEC_FILL_VALUES && b.init.n_values != b.count) {
        lp_error(lp, "values() gives %llu values for %llu elements",
                 (unsigned long long)b.init.n_values, (unsigned long long)b.count);
        free_source(&b.init);
        return;
    }
    if (!values_fit(lp, &b.init, b.type)) {
        free_source(&b.init);
        return;
    }
    b.name = xstrdup(name);
    PUSH(lp->s->buffers, lp->s->n_buffers, b);
}

/* DIMS: E[, E[, E]] */
static bool parse_dims(struct lp *lp, const char *what, struct dim3 *d)
{
    uint64_t v[3] = {1, 1, 1};
    unsigned k = 0;
    do {
        if (k == 3) {
            lp_error(lp, "%s has more than 3 dimensions", what);
            return false;
        }
        /* CUDA's limits: grid x < 2^31, y and z <= 65535; block x, y <= 1024, z <= 64 */
        uint64_t max = what[0] == 'g' ? (k ? 65535 : INT32_MAX) : (k == 2 ? 64 : 1024);
        if (!const_uint(lp, what, 1, max, &v[k++]))
            return false;
    } while (accept(lp, ','));
    *d = DIM3((uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]);
    return true;
}

/* One argument word: BUF | BUF+OFFSET | [label=][type:]CONST_EXPR */
static bool parse_arg(struct lp *lp, struct lspec_arg *a)
{
    char name[64], tmp[40];
    memset(a, 0, sizeof *a);
    a->type = -1;
    const char *start = lp->p;
    /* label= (documentation only) */
    if (ident(lp, name, sizeof name) && *lp->p == '=' && lp->p[1] != '=')
        lp->p++;
    else
        lp->p = start;
    start = lp->p;
    if (ident(lp, name, sizeof name)) {
        int t = find_type(name);
        int b = launchspec_find_buffer(lp->s, name);
        if (t >= 0 && *lp->p == ':') {
            lp->p++;
            a->type = t;
        } else if (b >= 0 && (!*lp->p || *lp->p == '+' || *lp->p == ' ' || *lp->p == '\t')) {
            a->kind = LSPEC_ARG_BUFFER;
            a->buf = (unsigned)b;
            if (*lp->p == '+') {
                lp->p++;
                if (!const_uint(lp, "buffer offset", 0, lp->s->buffers[b].count, &a->offset))
                    return false;
            }
            return true;
        } else {
            lp->p = start;
        }
    }
    a->kind = LSPEC_ARG_SCALAR;
    if (!const_expr(lp, &a->val))
        return false;
    if (*lp->p && *lp->p != ' ' && *lp->p != '\t') {
        lp_error(lp, "unexpected %s in a kernel argument (arguments are separated by spaces)",
                 next_desc(lp, tmp, sizeof tmp));
        return false;
    }
    if (a->type >= 0 && lspec_type_bytes[a->type] < 4) {
        lp_error(lp, "scalar arguments are 4 or 8 bytes wide (u32 s32 u64 s64 f32 f64)");
        return false;
    }
    return true;
}

static void parse_launch(struct lp *lp)
{
    char name[128];
    struct lspec_launch l = {.line = lp->line};
    bool has_grid = false, has_block = false, has_shared = false;
    if (!ident(lp, name, sizeof name)) {
        lp_error(lp, "expected a kernel name after 'launch'");
        return;
    }
    for (;;) {
        if (keyword(lp, "grid")) {
            if (has_grid) {
                lp_error(lp, "grid given twice");
                goto fail;
            }
            if (!parse_dims(lp, "grid", &l.grid))
                goto fail;
            has_grid = true;
        } else if (keyword(lp, "block")) {
            if (has_block) {
                lp_error(lp, "block given twice");
                goto fail;
            }
            if (!parse_dims(lp, "block", &l.block))
                goto fail;
            has_block = true;
        } else if (keyword(lp, "shared")) {
            uint64_t v;
            if (has_shared) {
                lp_error(lp, "shared given twice");
                goto fail;
            }
            if (!const_uint(lp, "shared memory bytes", 0, UINT32_MAX, &v))
                goto fail;
            l.shared_bytes = (uint32_t)v;
            has_shared = true;
        } else if (keyword(lp, "on")) {
            if (keyword(lp, "cpu")) {
                l.on_cpu = true;
            } else if (!keyword(lp, "gpu")) {
                char tmp[40];
                lp_error(lp, "expected cpu or gpu after 'on' but found %s",
                         next_desc(lp, tmp, sizeof tmp));
                goto fail;
            }
        } else if (accept(lp, '&')) {
            l.together = true;
            if (!at_end(lp)) {
                lp_error(lp, "'&' ends a launch line (it runs with the next launch)");
                goto fail;
            }
            break;
        } else if (keyword(lp, "args")) {
            /* each space-separated word is one argument, parsed on its own so
             * that "1 -1" is two arguments, not 1 - 1 */
            while (!at_end(lp)) {
                char word[256];
                struct lspec_arg a;
                size_t n = strcspn(lp->p, " \t\r");
                if (n >= sizeof word) {
                    lp_error(lp, "kernel argument '%.20s...' is too long", lp->p);
                    goto fail;
                }
                memcpy(word, lp->p, n);
                word[n] = 0;
                const char *rest = lp->p + n;
                if (!strcmp(word, "&")) {
                    lp->p = rest;
                    l.together = true;
                    if (!at_end(lp)) {
                        lp_error(lp, "'&' ends a launch line (it runs with the next launch)");
                        goto fail;
                    }
                    break;
                }
                lp->p = word;
                bool ok = parse_arg(lp, &a);
                lp->p = rest;
                if (!ok)
                    goto fail;
                PUSH(l.args, l.n_args, a);
            }
            break;
        } else if (at_end(lp)) {
            break;
        } else {
            char tmp[40];
            lp_error(lp, "expected grid, block, shared, on, args or & but found %s",
                     next_desc(lp, tmp, sizeof tmp));
            goto fail;
        }
    }
    if (!has_grid || !has_block) {
        lp_error(lp, "launch needs both 'grid' and 'block'");
        goto fail;
    }
    if ((uint64_t)l.block.x * l.block.y * l.block.z > 1024) {
        lp_error(lp, "block (%u,%u,%u) has more than 1024 threads", l.block.x, l.block.y,
                 l.block.z);
        goto fail;
    }
    if (l.on_cpu && (uint64_t)l.block.x * l.block.y * l.block.z != 1) {
        lp_error(lp, "a launch on the CPU runs one thread per core: block must be 1 (the grid "
                 "counts the threads)");
        goto fail;
    }
    unsigned dev = l.on_cpu ? 2u : 1u;
    if (lp->together_devices & dev) {
        lp_error(lp, "this launch runs together with line %d's on the same device (one kernel "
                 "per device at a time: add 'on cpu' to one of them)", lp->together_line);
        goto fail;
    }
    if (l.together) {
        lp->together_devices |= dev;
        lp->together_line = lp->line;
    } else {
        lp->together_devices = 0;
        lp->together_line = 0;
    }
    l.kernel = xstrdup(name);
    PUSH(lp->s->launches, lp->s->n_launches, l);
    struct lspec_step st = {LSPEC_LAUNCH, lp->s->n_launches - 1};
    PUSH(lp->s->steps, lp->s->n_steps, st);
    return;
fail:
    free(l.args);
}

static bool buffer_name(struct lp *lp, const char *after, unsigned *buf)
{
    char name[64];
    if (!ident(lp, name, sizeof name)) {
        lp_error(lp, "expected a buffer name after '%s'", after);
        return false;
    }
    int b = launchspec_find_buffer(lp->s, name);
    if (b < 0) {
        lp_error(lp, "unknown buffer '%s'", name);
        return false;
    }
    *buf = (unsigned)b;
    return true;
}

static void parse_check(struct lp *lp)
{
    struct lspec_check c = {.line = lp->line};
    if (!buffer_name(lp, "check", &c.buf))
        return;
    lp->refs = REFS_ALL;
    bool ok = parse_source(lp, &c.expect, "the expected contents");
    lp->refs = REFS_NONE;
    if (!ok)
        goto fail;
    const struct lspec_buffer *b = &lp->s->buffers[c.buf];
    if (c.expect.kind == LSPEC_FILL_VALUES && c.expect.n_values != b->count) {
        lp_error(lp, "values() gives %llu values but %s has %llu elements",
                 (unsigned long long)c.expect.n_values, b->name, (unsigned long long)b->count);
        goto fail;
    }
    if (!values_fit(lp, &c.expect, b->type))
        goto fail;
    if (keyword(lp, "tol")) {
        struct lspec_val v;
        if (!const_expr(lp, &v))
            goto fail;
        c.tol = as_f(v);
        if (!(c.tol >= 0)) {
            lp_error(lp, "tolerance must be >= 0");
            goto fail;
        }
    }
    if (!end_of_line(lp, "the check"))
        goto fail;
    PUSH(lp->s->checks, lp->s->n_checks, c);
    struct lspec_step st = {LSPEC_CHECK, lp->s->n_checks - 1};
    PUSH(lp->s->steps, lp->s->n_steps, st);
    return;
fail:
    free_source(&c.expect);
}

static void parse_print(struct lp *lp)
{
    struct lspec_print pr = {.line = lp->line};
    if (!buffer_name(lp, "print", &pr.buf))
        return;
    const struct lspec_buffer *b = &lp->s->buffers[pr.buf];
    pr.count = b->count;
    if (!at_end(lp)) {
        if (!const_uint(lp, "first element", 0, b->count - 1, &pr.first))
            return;
        pr.count = b->count - pr.first;
        if (!at_end(lp) && !const_uint(lp, "element count", 1, b->count - pr.first, &pr.count))
            return;
    }
    if (!end_of_line(lp, "print BUFFER [FIRST [COUNT]]"))
        return;
    PUSH(lp->s->prints, lp->s->n_prints, pr);
    struct lspec_step st = {LSPEC_PRINT, lp->s->n_prints - 1};
    PUSH(lp->s->steps, lp->s->n_steps, st);
}

/* symbol NAME[+K] TYPE COUNT [FILL] */
static void parse_symbol(struct lp *lp)
{
    char name[128], type[16] = "", tmp[40];
    struct lspec_symbol y = {.line = lp->line};
    if (!ident(lp, name, sizeof name)) {
        lp_error(lp, "expected the name of a __constant__ or __device__ variable of the PTX "
                     "after 'symbol'");
        return;
    }
    if (*lp->p == '+') {
        lp->p++;
        if (!const_uint(lp, "element offset", 0, LSPEC_MAX_BUFFER_BYTES, &y.first))
            return;
    }
    if (!ident(lp, type, sizeof type) || find_type(type) < 0) {
        if (!lp->failed)
            lp_error(lp, "expected an element type (u8 s8 u16 s16 u32 s32 u64 s64 f32 f64) "
                         "after the symbol name, found %s",
                     type[0] && find_type(type) < 0 ? type : next_desc(lp, tmp, sizeof tmp));
        return;
    }
    y.type = (enum lspec_type)find_type(type);
    if (!const_uint(lp, "element count", 1, LSPEC_MAX_BUFFER_BYTES / lspec_type_bytes[y.type],
                    &y.count))
        return;
    if (at_end(lp)) {
        y.init.kind = LSPEC_FILL_ZEROS;
    } else {
        lp->refs = REFS_INIT; /* the initial contents of the buffers above it */
        lp->refs_below = lp->s->n_buffers;
        bool ok = parse_source(lp, &y.init, "the symbol's contents");
        lp->refs = REFS_NONE;
        if (!ok || !end_of_line(lp, "the symbol's contents")) {
            free_source(&y.init);
            return;
        }
    }
    if (y.init.kind == LSPEC_FILL_VALUES && y.init.n_values != y.count) {
        lp_error(lp, "values() gives %llu values for %llu elements",
                 (unsigned long long)y.init.n_values, (unsigned long long)y.count);
        free_source(&y.init);
        return;
    }
    if (!values_fit(lp, &y.init, y.type)) {
        free_source(&y.init);
        return;
    }
    y.name = xstrdup(name);
    PUSH(lp->s->symbols, lp->s->n_symbols, y);
    struct lspec_step st = {LSPEC_SYMBOL, lp->s->n_symbols - 1};
    PUSH(lp->s->steps, lp->s->n_steps, st);
}

static void parse_line(struct lp *lp)
{
    char word[32], tmp[40];
    if (at_end(lp))
        return;
    if (!ident(lp, word, sizeof word)) {
        lp_error(lp, "expected a directive (ptx, let, buffer, symbol, launch, check, print) but "
                     "found %s",
                 next_desc(lp, tmp, sizeof tmp));
        return;
    }
    if (!strcmp(word, "ptx"))
        parse_ptx(lp);
    else if (!strcmp(word, "let"))
        parse_let(lp);
    else if (!strcmp(word, "buffer"))
        parse_buffer(lp);
    else if (!strcmp(word, "launch"))
        parse_launch(lp);
    else if (lp->together_line && !strcmp(word, "symbol"))
        lp_error(lp, "line %d's launch ends in '&': the launch it runs with must come before "
                 "this symbol line", lp->together_line);
    else if (!strcmp(word, "symbol"))
        parse_symbol(lp);
    else if (lp->together_line && (!strcmp(word, "check") || !strcmp(word, "print")))
        lp_error(lp, "line %d's launch ends in '&': the launch it runs with must come before "
                 "this %s", lp->together_line, word);
    else if (!strcmp(word, "check"))
        parse_check(lp);
    else if (!strcmp(word, "print"))
        parse_print(lp);
    else
        lp_error(lp, "unknown directive '%s' (ptx, let, buffer, symbol, launch, check, print)",
                 word);
}

int launchspec_find_buffer(const struct launchspec *s, const char *name)
{
    for (unsigned i = 0; i < s->n_buffers; i++)
        if (!strcmp(s->buffers[i].name, name))
            return (int)i;
    return -1;
}

struct launchspec *launchspec_parse(const char *text, const char *filename, const char *dir,
                                    char *err, size_t errlen)
{
    struct launchspec *s = xcalloc(1, sizeof *s);
    s->filename = xstrdup(filename ? filename : "(spec)");
    if (dir) {
        s->dir = xstrdup(dir);
    } else {
        s->dir = xstrdup(s->filename);
        char *slash = strrchr(s->dir, '/');
        if (slash)
            *(slash == s->dir ? slash + 1 : slash) = 0;
        else
            s->dir[0] = 0;
    }
    struct lp lp = {.s = s, .err = err, .errlen = errlen};
    char *line = NULL;
    size_t cap = 0;
    for (const char *q = text; *q && !lp.failed;) {
        const char *eol = strchr(q, '\n');
        size_t n = eol ? (size_t)(eol - q) : strlen(q);
        lp.line++;
        if (n + 1 > cap) {
            cap = n + 1;
            line = xrealloc(line, cap);
        }
        memcpy(line, q, n);
        line[n] = 0;
        /* strip a comment, leaving '#' inside a quoted path alone */
        bool quoted = false;
        for (char *c = line; *c; c++) {
            if (*c == '"')
                quoted = !quoted;
            else if (*c == '#' && !quoted) {
                *c = 0;
                break;
            }
        }
        lp.p = line;
        parse_line(&lp);
        q = eol ? eol + 1 : q + n;
    }
    free(line);
    for (unsigned i = 0; i < lp.n_consts; i++)
        free(lp.consts[i].name);
    free(lp.consts);
    if (!lp.failed && lp.together_line) {
        lp.line = lp.together_line;
        lp_error(&lp, "the launch ends in '&' but no launch follows to run with it");
    }
    if (!lp.failed && !s->n_modules && s->n_launches) {
        lp.line = s->launches[0].line;
        lp_error(&lp, "launch before any 'ptx FILE' line: no kernels to launch");
    }
    if (lp.failed) {
        launchspec_free(s);
        return NULL;
    }
    return s;
}

/* ---- resolving: PTX and data files ---- */

static int resolve_error(char *err, size_t errlen, const struct launchspec *s, int line,
                         const char *fmt, ...) PRINTF_LIKE(5, 6);
static int resolve_error(char *err, size_t errlen, const struct launchspec *s, int line,
                         const char *fmt, ...)
{
    int n = snprintf(err, errlen, "%s:%d: ", s->filename, line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < errlen)
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int check_file_source(const struct launchspec *s, const struct lspec_source *src,
                             const char *name, enum lspec_type type, uint64_t count, int line,
                             char *err, size_t errlen)
{
    if (src->kind != LSPEC_FILL_FILE)
        return 0;
    struct stat st;
    if (stat(src->path, &st))
        return resolve_error(err, errlen, s, line, "cannot open %s: %s", src->path,
                             strerror(errno));
    if (!S_ISREG(st.st_mode))
        return resolve_error(err, errlen, s, line, "%s is not a regular file (a data file of "
                             "raw elements is expected)", src->path);
    long size = (long)st.st_size;
    uint64_t want = count * lspec_type_bytes[type];
    if (size < 0 || (uint64_t)size != want)
        return resolve_error(err, errlen, s, line,
                             "%s has %ld bytes but %s needs %llu (%llu %s elements)", src->path,
                             size, name, (unsigned long long)want, (unsigned long long)count,
                             lspec_type_names[type]);
    return 0;
}

/* The module-level variable (.const or .global) a symbol line names: in
 * exactly one of the spec's modules, with room for what the line writes. */
static int resolve_symbol(const struct launchspec *s, const struct lspec_symbol *y,
                          const struct ptx_var **found, char *err, size_t errlen)
{
    const struct ptx_var *c = NULL;
    unsigned in = 0;
    for (unsigned j = 0; j < s->n_modules; j++) {
        const struct ptx_var *here = ptx_module_const(s->modules[j].mod, y->name);
        if (!here)
            here = ptx_module_global(s->modules[j].mod, y->name);
        if (here && c)
            return resolve_error(err, errlen, s, y->line,
                                 "'%s' is a variable of both %s and %s: which one is set cannot "
                                 "be told", y->name, s->modules[in].path, s->modules[j].path);
        if (here) {
            c = here;
            in = j;
        }
    }
    if (!c)
        return resolve_error(err, errlen, s, y->line,
                             "no __constant__ (.const) or __device__ (.global) variable named "
                             "'%s' in the PTX", y->name);
    uint64_t esz = lspec_type_bytes[y->type];
    if ((y->first + y->count) * esz > c->bytes)
        return resolve_error(err, errlen, s, y->line,
                             "%s elements %llu..%llu (%s) end at byte %llu, past the %u bytes "
                             "of '%s' (%s:%u)", y->name, (unsigned long long)y->first,
                             (unsigned long long)(y->first + y->count - 1),
                             lspec_type_names[y->type],
                             (unsigned long long)((y->first + y->count) * esz), c->bytes, y->name,
                             s->modules[in].path, c->line);
    *found = c;
    return 0;
}

/* In file order: every symbol line names a variable that exists, and every
 * launch's kernel reads only __constant__ variables that have contents, from
 * the PTX's initialiser or a symbol line above the launch. Zeros nobody wrote
 * are no kernel's input: a launch that would read them is refused. */
static int check_constants(const struct launchspec *s, char *err, size_t errlen)
{
    const struct ptx_var **set = xcalloc(s->n_symbols, sizeof *set);
    unsigned n_set = 0;
    int rc = 0;
    for (unsigned i = 0; i < s->n_steps && !rc; i++) {
        const struct lspec_step *st = &s->steps[i];
        if (st->kind == LSPEC_SYMBOL) {
            rc = resolve_symbol(s, &s->symbols[st->index], &set[n_set], err, errlen);
            n_set++;
            continue;
        }
        if (st->kind != LSPEC_LAUNCH)
            continue;
        const struct lspec_launch *l = &s->launches[st->index];
        const struct ptx_kernel *k = NULL;
        const char *path = NULL;
        for (unsigned j = 0; j < s->n_modules && !k; j++)
            if ((k = ptx_module_kernel(s->modules[j].mod, l->kernel)))
                path = s->modules[j].path;
        for (unsigned r = 0; k && r < ptx_kernel_n_consts(k) && !rc; r++) {
            const struct ptx_var *c = ptx_kernel_const(k, r);
            bool written = c->initialised;
            for (unsigned q = 0; q < n_set && !written; q++)
                written = set[q] == c;
            if (!written)
                rc = resolve_error(err, errlen, s, l->line,
                                   "kernel %s reads __constant__ '%s' (%s:%u), which the PTX "
                                   "does not initialise and no 'symbol %s ...' line above sets",
                                   l->kernel, c->name, path, c->line, c->name);
        }
    }
    free(set);
    return rc;
}

/* Whether parameter k of kernel `name` is declared floating ('f'), integer or
 * bits ('i'), or cannot be told ('?'), from the .entry's parameter list in the
 * PTX text: ptx_kernel_info gives sizes only, and a float passed to an integer
 * parameter (or the reverse) would silently pass the wrong bits. */
static char param_kind(const char *ptx, const char *name, unsigned k)
{
    size_t nl = strlen(name);
    for (const char *p = strstr(ptx, ".entry"); p; p = strstr(p + 6, ".entry")) {
        const char *q = p + 6;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, name, nl))
            continue;
        q += nl;
        while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
            q++;
        if (*q != '(')
            continue;
        /* the k-th comma-separated declaration before ')' */
        for (unsigned i = 0; i < k; i++) {
            q = strpbrk(q + 1, ",)");
            if (!q || *q == ')')
                return '?';
        }
        const char *end = strpbrk(q + 1, ",)");
        if (!end)
            return '?';
        for (const char *t = q; t + 3 < end; t++)
            if (t[0] == '.' && t[1] == 'f' && (t[2] == '3' || t[2] == '6' || t[2] == '1'))
                return 'f';
        return 'i';
    }
    return '?';
}

/* Turn a scalar argument into a karg of the parameter's size (and kind). */
static int resolve_scalar(const struct launchspec *s, const struct lspec_launch *l, unsigned k,
                          struct lspec_arg *a, uint32_t psize, char kind, char *err,
                          size_t errlen)
{
    int t = a->type;
    if (t < 0) {
        if (kind == 'i' && a->val.is_float)
            return resolve_error(err, errlen, s, l->line,
                                 "kernel %s: argument %u is %g but parameter %u is an integer",
                                 l->kernel, k + 1, a->val.f, k + 1);
        bool f = kind == 'f' || (kind == '?' && a->val.is_float);
        if (psize == 4)
            t = f ? LSPEC_F32 : LSPEC_U32;
        else if (psize == 8)
            t = f ? LSPEC_F64 : LSPEC_U64;
        else
            return resolve_error(err, errlen, s, l->line,
                                 "kernel %s: parameter %u is %u bytes; only 4- and 8-byte scalar "
                                 "and pointer parameters can be passed",
                                 l->kernel, k + 1, psize);
    } else if (lspec_type_bytes[t] != psize) {
        return resolve_error(err, errlen, s, l->line,
                             "kernel %s: argument %u is %s (%u bytes) but parameter %u is %u bytes",
                             l->kernel, k + 1, lspec_type_names[t], lspec_type_bytes[t], k + 1,
                             psize);
    }
    struct lspec_val v = a->val;
    if (!type_is_float((enum lspec_type)t) && v.is_float)
        return resolve_error(err, errlen, s, l->line,
                             "kernel %s: argument %u is %g but parameter %u is an integer (%s)",
                             l->kernel, k + 1, v.f, k + 1, lspec_type_names[t]);
    if (t == LSPEC_U32 || t == LSPEC_S32) {
        if (v.i < INT32_MIN || v.i > (int64_t)UINT32_MAX)
            return resolve_error(err, errlen, s, l->line,
                                 "kernel %s: argument %u (%lld) does not fit in 32 bits",
                                 l->kernel, k + 1, (long long)v.i);
        a->karg = KARG_U32((uint32_t)v.i);
    } else if (t == LSPEC_U64 || t == LSPEC_S64) {
        a->karg = KARG_U64((uint64_t)v.i);
    } else if (t == LSPEC_F32) {
        a->karg = KARG_F32((float)as_f(v));
    } else {
        a->karg = KARG_F64(as_f(v));
    }
    return 0;
}

int launchspec_resolve(struct launchspec *s, char *err, size_t errlen)
{
    for (unsigned i = 0; i < s->n_modules; i++) {
        struct lspec_module *m = &s->modules[i];
        if (m->mod)
            continue;
        if (!m->text) {
            size_t len;
            if (!(m->text = file_read_text(m->path, &len)))
                return resolve_error(err, errlen, s, m->line, "cannot read %s: %s", m->path,
                                     errno == EISDIR ? "is a folder, expected a PTX file"
                                                     : strerror(errno));
            if (file_check_text(m->path, m->text, len, err, errlen))
                return -1; /* the PTX's own file:line */
        }
        if (!(m->mod = ptx_module_parse(m->text, m->path, err, errlen)))
            return -1; /* the PTX's own file:line */
        if (!*ptx_module_kernel_names(m->mod))
            return resolve_error(err, errlen, s, m->line, "%s defines no kernel (.entry)",
                                 m->path);
        /* launches name kernels: a name two modules define would be ambiguous */
        for (unsigned j = 0; j < i; j++)
            for (const char *const *n = ptx_module_kernel_names(m->mod); *n; n++)
                if (ptx_module_kernel(s->modules[j].mod, *n))
                    return resolve_error(err, errlen, s, m->line,
                                         "kernel '%s' of %s is already defined by %s (line %u)",
                                         *n, m->path, s->modules[j].path, s->modules[j].line);
    }
    for (unsigned i = 0; i < s->n_buffers; i++) {
        const struct lspec_buffer *b = &s->buffers[i];
        if (check_file_source(s, &b->init, b->name, b->type, b->count, b->line, err, errlen))
            return -1;
    }
    for (unsigned i = 0; i < s->n_checks; i++) {
        const struct lspec_buffer *b = &s->buffers[s->checks[i].buf];
        if (check_file_source(s, &s->checks[i].expect, b->name, b->type, b->count,
                              s->checks[i].line, err, errlen))
            return -1;
    }
    for (unsigned i = 0; i < s->n_symbols; i++) {
        const struct lspec_symbol *y = &s->symbols[i];
        if (check_file_source(s, &y->init, y->name, y->type, y->count, y->line, err, errlen))
            return -1;
    }
    for (unsigned i = 0; i < s->n_launches; i++) {
        struct lspec_launch *l = &s->launches[i];
        const struct ptx_kernel *k = NULL;
        const char *text = NULL;
        for (unsigned j = 0; j < s->n_modules && !k; j++)
            if ((k = ptx_module_kernel(s->modules[j].mod, l->kernel)))
                text = s->modules[j].text;
        if (!k) {
            char names[256] = "";
            size_t len = 0;
            for (unsigned j = 0; j < s->n_modules; j++)
                for (const char *const *n = ptx_module_kernel_names(s->modules[j].mod); *n; n++)
                    if (len + strlen(*n) + 3 < sizeof names)
                        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                                                len ? ", " : "", *n);
            return resolve_error(err, errlen, s, l->line,
                                 "no kernel named '%s' in the PTX (kernels: %s)", l->kernel,
                                 len ? names : "none");
        }
        if (ptx_kernel_unsupported(k))
            return resolve_error(err, errlen, s, l->line, "kernel %s cannot run: %s", l->kernel,
                                 ptx_kernel_unsupported(k));
        const struct ptx_kernel_info *ki = ptx_kernel_info(k);
        if (l->n_args != ki->n_params)
            return resolve_error(err, errlen, s, l->line,
                                 "kernel %s takes %u parameter%s, %u argument%s given", l->kernel,
                                 ki->n_params, ki->n_params == 1 ? "" : "s", l->n_args,
                                 l->n_args == 1 ? "" : "s");
        for (unsigned a = 0; a < l->n_args; a++) {
            struct lspec_arg *arg = &l->args[a];
            if (arg->kind == LSPEC_ARG_BUFFER) {
                if (ki->param_size[a] != 8)
                    return resolve_error(
                        err, errlen, s, l->line,
                        "kernel %s: argument %u is buffer %s (an 8-byte pointer) but parameter "
                        "%u is %u bytes",
                        l->kernel, a + 1, s->buffers[arg->buf].name, a + 1, ki->param_size[a]);
            } else if (resolve_scalar(s, l, a, arg, ki->param_size[a],
                                      param_kind(text, l->kernel, a), err, errlen)) {
                return -1;
            }
        }
    }
    if (check_constants(s, err, errlen))
        return -1;
    s->resolved = true;
    return 0;
}

struct launchspec *launchspec_load(const char *path, char *err, size_t errlen)
{
    char *text = file_read_source(path, NULL, err, errlen);
    if (!text)
        return NULL;
    struct launchspec *s = launchspec_parse(text, path, NULL, err, errlen);
    free(text);
    if (s && launchspec_resolve(s, err, errlen)) {
        launchspec_free(s);
        return NULL;
    }
    return s;
}

void launchspec_free(struct launchspec *s)
{
    if (!s)
        return;
    for (unsigned i = 0; i < s->n_modules; i++) {
        free(s->modules[i].path);
        free(s->modules[i].text);
        if (s->modules[i].mod)
            ptx_module_free(s->modules[i].mod);
    }
    for (unsigned i = 0; i < s->n_buffers; i++) {
        free(s->buffers[i].name);
        free_source(&s->buffers[i].init);
        free(s->buffers[i].initial);
        free(s->buffers[i].current);
    }
    for (unsigned i = 0; i < s->n_launches; i++) {
        free(s->launches[i].kernel);
        free(s->launches[i].args);
    }
    for (unsigned i = 0; i < s->n_checks; i++)
        free_source(&s->checks[i].expect);
    for (unsigned i = 0; i < s->n_symbols; i++) {
        free(s->symbols[i].name);
        free_source(&s->symbols[i].init);
    }
    for (struct lspec_expr *x = s->exprs, *n; x; x = n) {
        n = x->next_alloc;
        free(x);
    }
    free(s->modules);
    free(s->buffers);
    free(s->launches);
    free(s->checks);
    free(s->prints);
    free(s->symbols);
    free(s->steps);
    free(s->filename);
    free(s->dir);
    free(s);
}

/* ---- running ---- */

/* Fill `out` (count elements of type t) from a source. */
static void fill(const struct launchspec *s, const struct lspec_source *src, enum lspec_type t,
                 uint64_t count, uint8_t *out, int line)
{
    size_t bytes = count * lspec_type_bytes[t];
    switch (src->kind) {
    case LSPEC_FILL_ZEROS:
        memset(out, 0, bytes);
        break;
    case LSPEC_FILL_EXPR: {
        struct lx_env e = {.s = s, .f32 = t == LSPEC_F32, .line = line};
        for (uint64_t i = 0; i < count; i++) {
            e.i = i;
            elem_set(t, out, i, lx_eval(src->expr, &e));
        }
        break;
    }
    case LSPEC_FILL_VALUES:
        for (uint64_t i = 0; i < count; i++)
            elem_set(t, out, i, src->values[i]);
        break;
    case LSPEC_FILL_RANDOM: {
        struct rng r;
        rng_seed(&r, src->seed, 0);
        if (type_is_float(t)) {
            double lo = src->has_range ? as_f(src->lo) : 0.0;
            double hi = src->has_range ? as_f(src->hi) : 1.0;
            for (uint64_t i = 0; i < count; i++) {
                double u = (double)(rng_next(&r) >> 11) * 0x1.0p-53;
                elem_set(t, out, i, vflt(lo + (hi - lo) * u));
            }
        } else {
            unsigned bits = 8 * lspec_type_bytes[t];
            int64_t lo, hi;
            if (src->has_range) {
                lo = src->lo.is_float ? (int64_t)src->lo.f : src->lo.i;
                hi = src->hi.is_float ? (int64_t)src->hi.f : src->hi.i;
            } else if (type_is_signed(t)) {
                lo = bits == 64 ? INT64_MIN : -(1ll << (bits - 1));
                hi = bits == 64 ? INT64_MAX : (1ll << (bits - 1)) - 1;
            } else {
                lo = 0;
                hi = bits == 64 ? -1 : (int64_t)((1ull << bits) - 1);
            }
            uint64_t span = (uint64_t)hi - (uint64_t)lo + 1; /* 0: the whole 64-bit range */
            for (uint64_t i = 0; i < count; i++) {
                uint64_t u = span ? rng_below(&r, span) : rng_next(&r);
                elem_set(t, out, i, vint((int64_t)((uint64_t)lo + u)));
            }
        }
        break;
    }
    case LSPEC_FILL_FILE: {
        FILE *f = fopen(src->path, "rb");
        if (!f || fread(out, 1, bytes, f) != bytes)
            fatal("%s:%d: cannot read %llu bytes from %s", s->filename, line,
                  (unsigned long long)bytes, src->path);
        fclose(f);
        break;
    }
    }
}

static void format_elem(char *buf, size_t len, enum lspec_type t, const uint8_t *p, uint64_t i)
{
    struct lspec_val v = elem_get(t, p, i);
    if (t == LSPEC_F32)
        snprintf(buf, len, "%.9g", v.f);
    else if (t == LSPEC_F64)
        snprintf(buf, len, "%.17g", v.f);
    else if (t == LSPEC_U64)
        snprintf(buf, len, "%llu", (unsigned long long)v.i);
    else
        snprintf(buf, len, "%lld", (long long)v.i);
}

static bool elem_matches(enum lspec_type t, const uint8_t *exp, const uint8_t *got, uint64_t i,
                         double tol)
{
    struct lspec_val e = elem_get(t, exp, i), g = elem_get(t, got, i);
    if (!type_is_float(t)) {
        if (e.i == g.i)
            return true;
        if (tol <= 0)
            return false;
        double d = fabs((double)e.i - (double)g.i);
        return d <= tol || d <= tol * fabs((double)e.i);
    }
    if (isnan(e.f) || isnan(g.f))
        return isnan(e.f) && isnan(g.f);
    if (e.f == g.f)
        return true;
    double d = fabs(e.f - g.f);
    return tol > 0 && (d <= tol || d <= tol * fabs(e.f));
}

static void read_back(struct launchspec *s, struct host *h)
{
    for (unsigned i = 0; i < s->n_buffers; i++) {
        struct lspec_buffer *b = &s->buffers[i];
        host_memcpy_from_dev(h, b->current, b->dev, b->count * lspec_type_bytes[b->type]);
    }
}

#define LSPEC_SHOW_MISMATCHES 8

static bool run_check(struct launchspec *s, struct host *h, const struct lspec_check *c, FILE *out)
{
    struct lspec_buffer *b = &s->buffers[c->buf];
    size_t esz = lspec_type_bytes[b->type];
    uint8_t *exp = xcalloc(b->count, esz);
    read_back(s, h);
    fill(s, &c->expect, b->type, b->count, exp, c->line);
    uint64_t bad = 0;
    for (uint64_t i = 0; i < b->count; i++) {
        if (elem_matches(b->type, exp, b->current, i, c->tol))
            continue;
        if (bad++ < LSPEC_SHOW_MISMATCHES) {
            char e[40], g[40];
            format_elem(e, sizeof e, b->type, exp, i);
            format_elem(g, sizeof g, b->type, b->current, i);
            if (bad == 1)
                fprintf(out, "%s:%d: check %s FAILED\n", s->filename, c->line, b->name);
            fprintf(out, "  %s[%llu]: expected %s, got %s\n", b->name, (unsigned long long)i, e,
                    g);
        }
    }
    free(exp);
    if (bad) {
        fprintf(out, "  %llu of %llu elements differ\n", (unsigned long long)bad,
                (unsigned long long)b->count);
        return false;
    }
    fprintf(out, "%s:%d: check %s ok (%llu element%s)\n", s->filename, c->line, b->name,
            (unsigned long long)b->count, b->count == 1 ? "" : "s");
    return true;
}

static void run_print(struct launchspec *s, struct host *h, const struct lspec_print *p, FILE *out)
{
    struct lspec_buffer *b = &s->buffers[p->buf];
    read_back(s, h);
    fprintf(out, "%s[%llu..%llu]:", b->name, (unsigned long long)p->first,
            (unsigned long long)(p->first + p->count - 1));
    for (uint64_t i = p->first; i < p->first + p->count; i++) {
        char v[40];
        format_elem(v, sizeof v, b->type, b->current, i);
        fprintf(out, " %s", v);
    }
    fputc('\n', out);
}

static void run_launch(struct launchspec *s, struct host *h, const struct lspec_launch *l,
                       FILE *out)
{
    struct karg *args = xcalloc(l->n_args, sizeof *args);
    for (unsigned a = 0; a < l->n_args; a++) {
        const struct lspec_arg *arg = &l->args[a];
        if (arg->kind == LSPEC_ARG_BUFFER) {
            const struct lspec_buffer *b = &s->buffers[arg->buf];
            args[a] = KARG_PTR(b->dev + arg->offset * lspec_type_bytes[b->type]);
        } else {
            args[a] = arg->karg;
        }
    }
    fprintf(out, "%s:%d: launch %s%s grid (%u,%u,%u) block (%u,%u,%u)%s\n", s->filename,
            l->line, l->kernel, l->on_cpu ? " on cpu" : "", l->grid.x, l->grid.y, l->grid.z,
            l->block.x, l->block.y, l->block.z, l->together ? " &" : "");
    fflush(out);
    host_launch_on(h, l->on_cpu ? HOST_CPU : HOST_GPU, l->together, l->kernel, l->grid, l->block,
                   l->shared_bytes, args, l->n_args);
    free(args);
}

/* A symbol line: the host's cudaMemcpyToSymbol. */
static void run_symbol(struct launchspec *s, struct host *h, const struct lspec_symbol *y,
                       FILE *out)
{
    size_t esz = lspec_type_bytes[y->type];
    uint8_t *bytes = xcalloc(y->count, esz);
    fill(s, &y->init, y->type, y->count, bytes, y->line);
    host_memcpy_to_symbol(h, y->name, y->first * esz, bytes, y->count * esz);
    free(bytes);
    fprintf(out, "%s:%d: symbol %s set (%llu %s element%s from element %llu)\n", s->filename,
            y->line, y->name, (unsigned long long)y->count, lspec_type_names[y->type],
            y->count == 1 ? "" : "s", (unsigned long long)y->first);
}

int launchspec_run(struct launchspec *s, struct host *h, FILE *out)
{
    char err[512];
    if (!s->resolved && launchspec_resolve(s, err, sizeof err))
        fatal("%s", err);
    for (unsigned i = 0; i < s->n_modules; i++)
        host_load_ptx(h, s->modules[i].text, s->modules[i].path);
    for (unsigned i = 0; i < s->n_buffers; i++) {
        struct lspec_buffer *b = &s->buffers[i];
        size_t bytes = b->count * lspec_type_bytes[b->type];
        b->initial = xcalloc(b->count, lspec_type_bytes[b->type]);
        b->current = xcalloc(b->count, lspec_type_bytes[b->type]);
        fill(s, &b->init, b->type, b->count, b->initial, b->line);
        b->dev = host_malloc(h, bytes);
        host_memcpy_to_dev(h, b->dev, b->initial, bytes);
    }
    int rc = 0;
    for (unsigned i = 0; i < s->n_steps; i++) {
        const struct lspec_step *st = &s->steps[i];
        switch (st->kind) {
        case LSPEC_LAUNCH:
            run_launch(s, h, &s->launches[st->index], out);
            break;
        case LSPEC_CHECK:
            if (!run_check(s, h, &s->checks[st->index], out))
                rc = EXIT_CHECK_FAILED;
            break;
        case LSPEC_PRINT:
            run_print(s, h, &s->prints[st->index], out);
            break;
        case LSPEC_SYMBOL:
            run_symbol(s, h, &s->symbols[st->index], out);
            break;
        }
    }
    return rc;
}

int launchspec_dump(struct launchspec *s, struct host *h, const char *buffer, const char *path,
                    char *err, size_t errlen)
{
    int bi = launchspec_find_buffer(s, buffer);
    if (bi < 0) {
        snprintf(err, errlen, "--dump: %s has no buffer named '%s'", s->filename, buffer);
        return -1;
    }
    struct lspec_buffer *b = &s->buffers[bi];
    if (!b->current) {
        snprintf(err, errlen, "--dump %s: the spec has not run", buffer);
        return -1;
    }
    size_t bytes = b->count * lspec_type_bytes[b->type];
    host_memcpy_from_dev(h, b->current, b->dev, bytes);
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "--dump %s: cannot write %s: %s", buffer, path, strerror(errno));
        return -1;
    }
    bool ok = fwrite(b->current, 1, bytes, f) == bytes;
    ok = !fclose(f) && ok;
    if (!ok) {
        snprintf(err, errlen, "--dump %s: error writing %s", buffer, path);
        return -1;
    }
    return 0;
}
