/*
 * launchspec_expr.c - the launch-spec expression language's evaluator
 * (launchspec_int.h; the language in docs/launch-spec.md): integers (64-bit,
 * wrapping) and doubles, C operators, a few functions, `i` for the element
 * index and buffer elements. Expected values of a check are computed in the
 * checked buffer's type: for an f32 buffer every floating operation is
 * rounded to float, as the kernel's own f32 arithmetic is (fma() is there for
 * contracted multiply-adds).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/launchspec_int.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

const struct lx_fn_desc lx_fns[FN_N] = {
    {"min", 2}, {"max", 2}, {"abs", 1}, {"sqrt", 1}, {"fma", 3},   {"floor", 1}, {"ceil", 1},
    {"exp", 1}, {"log", 1}, {"sin", 1}, {"cos", 1},  {"float", 1}, {"int", 1},
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

static struct lspec_val round_f(const struct lx_env *e, struct lspec_val v)
{
    if (v.is_float && e->f32)
        v.f = (float)v.f;
    return v;
}

/* Element idx of a typed array as a value. */
struct lspec_val lspec_elem_get(enum lspec_type t, const uint8_t *p, uint64_t idx)
{
    p += idx * lspec_type_bytes[t];
    switch (t) {
    case LSPEC_U8:
        return vint(*p);
    case LSPEC_S8:
        return vint((int8_t)*p);
    case LSPEC_U16: {
        uint16_t x;
        memcpy(&x, p, 2);
        return vint(x);
    }
    case LSPEC_S16: {
        int16_t x;
        memcpy(&x, p, 2);
        return vint(x);
    }
    case LSPEC_U32: {
        uint32_t x;
        memcpy(&x, p, 4);
        return vint(x);
    }
    case LSPEC_S32: {
        int32_t x;
        memcpy(&x, p, 4);
        return vint(x);
    }
    case LSPEC_U64:
    case LSPEC_S64: {
        int64_t x;
        memcpy(&x, p, 8);
        return vint(x);
    }
    case LSPEC_F32: {
        float x;
        memcpy(&x, p, 4);
        return vflt(x);
    }
    case LSPEC_F64: {
        double x;
        memcpy(&x, p, 8);
        return vflt(x);
    }
    default:
        return vint(0);
    }
}

/* Store a value into element idx, converting to the element type (integers
 * wrap to the width; floats truncate toward zero into integer types). */
void lspec_elem_set(enum lspec_type t, uint8_t *p, uint64_t idx, struct lspec_val v)
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
            x = isnan(v.f)       ? 0
                : v.f >= 9.2e18  ? INT64_MAX
                : v.f <= -9.2e18 ? INT64_MIN
                                 : (int64_t)v.f;
        else
            x = v.i;
        memcpy(p, &x, lspec_type_bytes[t]); /* little-endian: the low bytes */
    }
}

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
    case FN_SQRT:
        return round_f(e, vflt(e->f32 ? sqrtf((float)as_f(a)) : sqrt(as_f(a))));
    case FN_FMA:
        if (e->f32)
            return vflt(fmaf((float)as_f(a), (float)as_f(b), (float)as_f(c)));
        return vflt(fma(as_f(a), as_f(b), as_f(c)));
    case FN_FLOOR:
        return a.is_float ? vflt(floor(a.f)) : a;
    case FN_CEIL:
        return a.is_float ? vflt(ceil(a.f)) : a;
    case FN_EXP:
        return round_f(e, vflt(exp(as_f(a))));
    case FN_LOG:
        return round_f(e, vflt(log(as_f(a))));
    case FN_SIN:
        return round_f(e, vflt(sin(as_f(a))));
    case FN_COS:
        return round_f(e, vflt(cos(as_f(a))));
    case FN_FLOAT:
        return round_f(e, vflt(as_f(a)));
    case FN_INT: {
        uint8_t tmp[8];
        lspec_elem_set(LSPEC_S64, tmp, 0, a);
        return lspec_elem_get(LSPEC_S64, tmp, 0);
    }
    default:
        return a;
    }
}

struct lspec_val lx_eval(const struct lspec_expr *x, const struct lx_env *e)
{
    struct lspec_val a, b;
    switch ((enum lx_op)x->op) {
    case LX_NUM:
        return round_f(e, x->num);
    case LX_INDEX:
        return vint((int64_t)e->i);
    case LX_BUF: {
        const struct lspec_buffer *bf = &e->s->buffers[x->buf];
        a = lx_eval(x->a[0], e);
        if (a.is_float) {
            lx_error(e, "index of %s is not an integer (%g)", bf->name, a.f);
            return vint(0);
        }
        if (a.i < 0 || (uint64_t)a.i >= bf->count) {
            lx_error(e, "%s[%lld] is out of range (%s has %llu elements)", bf->name, (long long)a.i,
                     bf->name, (unsigned long long)bf->count);
            return vint(0);
        }
        return lspec_elem_get(bf->type, x->init ? bf->initial : bf->current, (uint64_t)a.i);
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
    case LX_CALL:
        return eval_call(x, e);
    default:
        break;
    }
    a = lx_eval(x->a[0], e);
    b = lx_eval(x->a[1], e);
    if (a.is_float || b.is_float) {
        double p = as_f(a), q = as_f(b);
        switch ((enum lx_op)x->op) {
        case LX_ADD:
            return round_f(e, vflt(e->f32 ? (double)((float)p + (float)q) : p + q));
        case LX_SUB:
            return round_f(e, vflt(e->f32 ? (double)((float)p - (float)q) : p - q));
        case LX_MUL:
            return round_f(e, vflt(e->f32 ? (double)((float)p * (float)q) : p * q));
        case LX_DIV:
            return round_f(e, vflt(e->f32 ? (double)((float)p / (float)q) : p / q));
        case LX_MOD:
            return round_f(e, vflt(fmod(p, q)));
        default:
            lx_error(e, "bitwise operators need integer operands");
            return vint(0);
        }
    }
    uint64_t p = (uint64_t)a.i, q = (uint64_t)b.i;
    switch ((enum lx_op)x->op) {
    case LX_ADD:
        return vint((int64_t)(p + q));
    case LX_SUB:
        return vint((int64_t)(p - q));
    case LX_MUL:
        return vint((int64_t)(p * q));
    case LX_DIV:
    case LX_MOD:
        if (!b.i) {
            lx_error(e, "integer division by zero");
            return vint(0);
        }
        if (a.i == INT64_MIN && b.i == -1)
            return vint(x->op == LX_DIV ? INT64_MIN : 0);
        return vint(x->op == LX_DIV ? a.i / b.i : a.i % b.i);
    case LX_AND:
        return vint((int64_t)(p & q));
    case LX_OR:
        return vint((int64_t)(p | q));
    case LX_XOR:
        return vint((int64_t)(p ^ q));
    case LX_SHL:
        return vint(q >= 64 ? 0 : (int64_t)(p << q));
    case LX_SHR:
        return vint(q >= 64 ? (a.i < 0 ? -1 : 0) : a.i >> q);
    default:
        return a;
    }
}
