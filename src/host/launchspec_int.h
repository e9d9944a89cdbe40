/*
 * launchspec_int.h - what the files of the launch-spec language share
 * (launchspec.c, launchspec_expr.c, launchspec_lex.c, launchspec_parse.c,
 * launchspec_resolve.c, launchspec_run.c): the expression tree and its
 * evaluation environment, the line parser's state, and the functions one file
 * calls in another. Private to host/.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef HOST_LAUNCHSPEC_INT_H
#define HOST_LAUNCHSPEC_INT_H

#include "host/launchspec.h"

#include "base/alloc.h"
#include "base/log.h"

static inline bool type_is_float(enum lspec_type t)
{
    return t == LSPEC_F32 || t == LSPEC_F64;
}

static inline bool type_is_signed(enum lspec_type t)
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
    LX_NUM,
    LX_INDEX,
    LX_BUF,
    LX_NEG,
    LX_NOT,
    LX_ADD,
    LX_SUB,
    LX_MUL,
    LX_DIV,
    LX_MOD,
    LX_AND,
    LX_OR,
    LX_XOR,
    LX_SHL,
    LX_SHR,
    LX_CALL,
};

enum lx_fn {
    FN_MIN,
    FN_MAX,
    FN_ABS,
    FN_SQRT,
    FN_FMA,
    FN_FLOOR,
    FN_CEIL,
    FN_EXP,
    FN_LOG,
    FN_SIN,
    FN_COS,
    FN_FLOAT,
    FN_INT,
    FN_N
};
struct lx_fn_desc {
    const char *name;
    unsigned n_args;
};
extern const struct lx_fn_desc lx_fns[FN_N]; /* launchspec_expr.c */

struct lspec_expr {
    uint8_t op;              /* enum lx_op */
    uint8_t fn;              /* LX_CALL: enum lx_fn */
    bool init;               /* LX_BUF: the buffer's initial contents */
    unsigned buf;            /* LX_BUF */
    struct lspec_val num;    /* LX_NUM */
    struct lspec_expr *a[3]; /* operands */
    struct lspec_expr *next_alloc;
};

/* What an evaluation may see. */
struct lx_env {
    const struct launchspec *s;
    uint64_t i;
    bool f32;      /* round floating results to float */
    int line;      /* for run-time errors */
    char *msg;     /* parse time: the first error goes here (and *failed is set) */
    size_t msglen; /* instead of fatal(), so that the parser can clean up */
    bool *failed;
};

static inline struct lspec_val vint(int64_t i)
{
    return (struct lspec_val){false, i, 0};
}

static inline struct lspec_val vflt(double f)
{
    return (struct lspec_val){true, 0, f};
}

static inline double as_f(struct lspec_val v)
{
    return v.is_float ? v.f : (double)v.i;
}

/* ---- launchspec_expr.c: evaluation ---- */

struct lspec_val lx_eval(const struct lspec_expr *x, const struct lx_env *e);
struct lspec_val lspec_elem_get(enum lspec_type t, const uint8_t *p, uint64_t idx);
void lspec_elem_set(enum lspec_type t, uint8_t *p, uint64_t idx, struct lspec_val v);

/* ---- the line parser ---- */

/* A named constant (let). */
struct lp_const {
    char *name;
    struct lspec_val val;
};

enum lp_refs {
    REFS_NONE, /* constant expressions: no i, no buffers */
    REFS_INIT, /* buffer initializers: i, and earlier buffers' initial contents */
    REFS_ALL,  /* checks: i, and every buffer, current or .init */
};

struct lp {
    struct launchspec *s;
    const char *p; /* cursor in the current line */
    int line;
    char *err;
    size_t errlen;
    bool failed;
    enum lp_refs refs;
    unsigned refs_below;  /* REFS_INIT: buffers with a smaller index */
    const char *defining; /* the buffer whose line this is, if any */
    struct lp_const *consts;
    unsigned n_consts;
    unsigned depth;            /* nesting of parentheses and unary operators */
    unsigned ops;              /* binary operators in the expression being parsed */
    int together_line;         /* a launch ending in '&' waits for the next launch: its line */
    unsigned together_devices; /* bit 0 GPU, bit 1 CPU: devices its group uses so far */
};

/* ---- launchspec_lex.c: the line cursor and the expression parser ---- */

void lp_error(struct lp *lp, const char *fmt, ...) PRINTF_LIKE(2, 3);
void lp_skip_ws(struct lp *lp);
bool lp_at_end(struct lp *lp);
bool lp_accept(struct lp *lp, char c);
bool lp_expect(struct lp *lp, char c, const char *after);
const char *lp_next_desc(struct lp *lp, char *buf, size_t len);
bool lp_ident(struct lp *lp, char *buf, size_t len);
bool lp_keyword(struct lp *lp, const char *kw);
int lp_find_type(const char *name);
int lp_find_const(const struct lp *lp, const char *name);
bool lp_reserved(const char *name);
struct lspec_expr *lp_node(struct lp *lp, enum lx_op op);
struct lspec_expr *lp_parse_expr(struct lp *lp);
bool lp_const_expr(struct lp *lp, struct lspec_val *out);
bool lp_const_uint(struct lp *lp, const char *what, uint64_t lo, uint64_t hi, uint64_t *out);
char *lp_parse_path(struct lp *lp, char stop);

/* ---- launchspec_parse.c ---- */

void lspec_free_source(struct lspec_source *src);

#endif
