/*
 * cat.c - parse a cat model into an expression tree and evaluate it on bit
 * matrices (see cat.h).
 *
 * Every let gets its own slot, so rebinding a name (let co = co+) leaves the
 * expressions parsed before it pointing at the old value. Types (set or
 * relation) are settled while parsing: a set used where a relation is wanted
 * is an error, not a silent conversion, except in [set] and a * b.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/cat.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"

const char *const cat_set_names[CS_N] = {
    "_",   "W",   "R",       "M",  "F",   "IW",  "BAR", "RMW-INSTR", "RLX",
    "ACQ", "REL", "ACQ_REL", "SC", "GEN", "TEX", "SUR", "CON",       "ALIAS",
};
const char *const cat_rel_names[CR_N] = {
    "id",  "po", "po-loc", "loc",     "vloc",       "int",  "ext",  "rf",   "co",
    "rmw", "sr", "scta",   "syncbar", "sync_fence", "addr", "data", "ctrl",
};

enum nkind {
    N_SLOT,
    N_SET,
    N_REL,
    N_ZERO,
    N_UNION,
    N_INTER,
    N_SEQ,
    N_DIFF,
    N_CART,
    N_PLUS,
    N_STAR,
    N_OPT,
    N_INV,
    N_BRACKET,
    N_DOMAIN,
    N_RANGE
};

struct node {
    uint8_t kind;
    bool is_set;
    int16_t a, b; /* children */
    int16_t ref;  /* slot, base set or base relation */
    int lo, hi;   /* source text */
};

enum skind { S_LET, S_LETREC, S_ACYCLIC, S_IRREFLEXIVE, S_EMPTY };

struct stmt {
    uint8_t kind;
    int16_t slot; /* S_LET, S_LETREC */
    int16_t expr;
    char name[48]; /* the check's "as" name */
};

struct val {
    uint64_t set;
    cat_rel r;
};

#define MAX_NODES 1024
#define MAX_STMTS 128
#define MAX_SLOTS 128

struct cat_model {
    char title[64];
    char *src;
    unsigned n_nodes, n_stmts, n_slots;
    struct node nodes[MAX_NODES];
    struct stmt stmts[MAX_STMTS];
    char slot_name[MAX_SLOTS][48];
    bool slot_set[MAX_SLOTS];
    bool varies[MAX_SLOTS]; /* a let a chosen relation (rf, co, sync_fence, syncbar)
                               reaches: its bounds differ (mark_varying) */
    bool bounded;           /* cat_consistent_between can bound every let (no let rec
                               whose own name is on the right of a difference in its body) */
    struct val *env;        /* per slot, twice: scratch of the evaluation, the lower
                               bound's (and a complete execution's) then the upper's */
};

/* What an expression is evaluated on: an execution and the lets' values
 * on it. A complete candidate is one side; a partial execution has two, its
 * lower and upper bounds, and the right side of a difference takes the
 * other side's (cat_consistent_between). */
struct side {
    const struct cat_exec *x;
    struct val *env;
};

/* ---- lexer ---- */

enum tok {
    T_EOF,
    T_ID,
    T_ZERO,
    T_LP,
    T_RP,
    T_LB,
    T_RB,
    T_BAR,
    T_AMP,
    T_SEMI,
    T_BSL,
    T_STAR,
    T_PLUS,
    T_QM,
    T_INV,
    T_EQ,
    T_COMMA,
    T_BAD
};

struct parser {
    struct cat_model *m;
    const char *s, *path;
    size_t pos;
    int line;
    enum tok tok;
    char word[48];
    size_t tok_lo, prev_hi;
    int tok_line;
    char *err;
    size_t errlen;
    bool failed;
};

static void perr(struct parser *p, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void perr(struct parser *p, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    int n = snprintf(p->err, p->errlen, "%s:%d: ", p->path, p->tok_line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < p->errlen)
        vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

static bool id_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

static void next(struct parser *p)
{
    const char *s = p->s;
    p->prev_hi = p->pos;
    for (;;) {
        while (s[p->pos] && isspace((unsigned char)s[p->pos]))
            p->line += s[p->pos++] == '\n';
        if (s[p->pos] == '/' && s[p->pos + 1] == '/') {
            while (s[p->pos] && s[p->pos] != '\n')
                p->pos++;
        } else if (s[p->pos] == '(' && s[p->pos + 1] == '*') {
            p->pos += 2;
            while (s[p->pos] && !(s[p->pos] == '*' && s[p->pos + 1] == ')'))
                p->line += s[p->pos++] == '\n';
            if (s[p->pos])
                p->pos += 2;
        } else {
            break;
        }
    }
    p->tok_lo = p->pos;
    p->tok_line = p->line;
    char c = s[p->pos];
    if (!c) {
        p->tok = T_EOF;
        return;
    }
    if (isalpha((unsigned char)c) || c == '_') {
        size_t n = 0;
        while (id_char(s[p->pos])) {
            if (n + 1 < sizeof p->word)
                p->word[n++] = s[p->pos];
            p->pos++;
        }
        p->word[n] = 0;
        p->tok = T_ID;
        return;
    }
    p->pos++;
    switch (c) {
    case '0':
        p->tok = T_ZERO;
        return;
    case '(':
        p->tok = T_LP;
        return;
    case ')':
        p->tok = T_RP;
        return;
    case '[':
        p->tok = T_LB;
        return;
    case ']':
        p->tok = T_RB;
        return;
    case '|':
        p->tok = T_BAR;
        return;
    case '&':
        p->tok = T_AMP;
        return;
    case ';':
        p->tok = T_SEMI;
        return;
    case '\\':
        p->tok = T_BSL;
        return;
    case '*':
        p->tok = T_STAR;
        return;
    case '+':
        p->tok = T_PLUS;
        return;
    case '?':
        p->tok = T_QM;
        return;
    case '=':
        p->tok = T_EQ;
        return;
    case ',':
        p->tok = T_COMMA;
        return;
    case '^':
        if (s[p->pos] == '-' && s[p->pos + 1] == '1') {
            p->pos += 2;
            p->tok = T_INV;
            return;
        }
        break;
    default:
        break;
    }
    p->tok = T_BAD;
    p->word[0] = c;
    p->word[1] = 0;
}

/* ---- expressions ---- */

static int new_node(struct parser *p, enum nkind k, bool is_set, int a, int b, size_t lo)
{
    struct cat_model *m = p->m;
    if (m->n_nodes == MAX_NODES) {
        perr(p, "model too large (more than %d expression nodes)", MAX_NODES);
        return 0;
    }
    struct node *n = &m->nodes[m->n_nodes];
    *n = (struct node){.kind = (uint8_t)k,
                       .is_set = is_set,
                       .a = (int16_t)a,
                       .b = (int16_t)b,
                       .lo = (int)lo,
                       .hi = (int)p->prev_hi};
    return (int)m->n_nodes++;
}

static int parse_union(struct parser *p);

static int lookup(struct parser *p, const char *name, enum nkind *k, bool *is_set)
{
    struct cat_model *m = p->m;
    for (int i = (int)m->n_slots - 1; i >= 0; i--)
        if (!strcmp(m->slot_name[i], name)) {
            *k = N_SLOT;
            *is_set = m->slot_set[i];
            return i;
        }
    for (int i = 0; i < CS_N; i++)
        if (!strcmp(cat_set_names[i], name)) {
            *k = N_SET;
            *is_set = true;
            return i;
        }
    for (int i = 0; i < CR_N; i++)
        if (!strcmp(cat_rel_names[i], name)) {
            *k = N_REL;
            *is_set = false;
            return i;
        }
    perr(p, "unknown name '%s' (not a let above, nor a base set or relation)", name);
    return -1;
}

static bool want_rel(struct parser *p, int n, const char *what)
{
    if (p->m->nodes[n].is_set) {
        perr(p, "%s needs a relation, got a set (write [S] for the identity on S)", what);
        return false;
    }
    return true;
}

static int parse_primary(struct parser *p)
{
    size_t lo = p->tok_lo;
    switch (p->tok) {
    case T_LP: {
        next(p);
        int e = parse_union(p);
        if (p->tok != T_RP)
            perr(p, "expected ')'");
        next(p);
        if (p->failed)
            return 0;
        p->m->nodes[e].lo = (int)lo;
        p->m->nodes[e].hi = (int)p->prev_hi;
        return e;
    }
    case T_LB: {
        next(p);
        int e = parse_union(p);
        if (p->tok != T_RB)
            perr(p, "expected ']'");
        next(p);
        if (!p->failed && !p->m->nodes[e].is_set)
            perr(p, "[...] needs a set");
        return new_node(p, N_BRACKET, false, e, -1, lo);
    }
    case T_ZERO:
        next(p);
        return new_node(p, N_ZERO, false, -1, -1, lo);
    case T_ID: {
        char name[48];
        snprintf(name, sizeof name, "%s", p->word);
        next(p);
        if ((!strcmp(name, "domain") || !strcmp(name, "range")) && p->tok == T_LP) {
            next(p);
            int e = parse_union(p);
            if (p->tok != T_RP)
                perr(p, "expected ')'");
            next(p);
            if (p->failed || !want_rel(p, e, name))
                return 0;
            return new_node(p, name[0] == 'd' ? N_DOMAIN : N_RANGE, true, e, -1, lo);
        }
        enum nkind k;
        bool is_set;
        int ref = lookup(p, name, &k, &is_set);
        if (ref < 0)
            return 0;
        int n = new_node(p, k, is_set, -1, -1, lo);
        p->m->nodes[n].ref = (int16_t)ref;
        return n;
    }
    default:
        perr(p, "expected an expression, got '%s'",
             p->tok == T_ID || p->tok == T_BAD ? p->word
             : p->tok == T_EOF                 ? "end of file"
                                               : "an operator");
        return 0;
    }
}

static bool starts_primary(enum tok t)
{
    return t == T_LP || t == T_LB || t == T_ZERO || t == T_ID;
}

static int parse_postfix(struct parser *p)
{
    size_t lo = p->tok_lo;
    int e = parse_primary(p);
    while (!p->failed) {
        enum nkind k;
        if (p->tok == T_PLUS)
            k = N_PLUS;
        else if (p->tok == T_QM)
            k = N_OPT;
        else if (p->tok == T_INV)
            k = N_INV;
        else if (p->tok == T_STAR)
            k = N_STAR;
        else
            break;
        if (k == N_STAR) {
            /* a * b (a product, parse_cart's) or r* (the closure) */
            size_t save_pos = p->pos, save_prev = p->prev_hi, save_lo = p->tok_lo;
            int save_line = p->line;
            next(p);
            if (starts_primary(p->tok)) {
                p->pos = save_pos;
                p->prev_hi = save_prev;
                p->tok_lo = save_lo;
                p->line = save_line;
                p->tok = T_STAR;
                break;
            }
            if (!want_rel(p, e, "r*"))
                return 0;
            e = new_node(p, N_STAR, false, e, -1, lo);
            continue;
        }
        if (!want_rel(p, e, k == N_PLUS ? "r+" : k == N_OPT ? "r?" : "r^-1"))
            return 0;
        next(p);
        e = new_node(p, k, false, e, -1, lo);
    }
    return e;
}

static int parse_cart(struct parser *p)
{
    size_t lo = p->tok_lo;
    int e = parse_postfix(p);
    while (!p->failed && p->tok == T_STAR) {
        int op_line = p->tok_line;
        next(p);
        int r = parse_postfix(p);
        if (p->failed)
            return 0;
        p->tok_line = op_line;
        if (!p->m->nodes[e].is_set || !p->m->nodes[r].is_set) {
            perr(p, "a * b needs two sets");
            return 0;
        }
        e = new_node(p, N_CART, false, e, r, lo);
    }
    return e;
}

static int parse_binary(struct parser *p, int level);

/* Levels, loosest first: | ; \ & */
static const enum tok level_tok[4] = {T_BAR, T_SEMI, T_BSL, T_AMP};
static const enum nkind level_kind[4] = {N_UNION, N_SEQ, N_DIFF, N_INTER};

static int parse_binary(struct parser *p, int level)
{
    if (level == 4)
        return parse_cart(p);
    size_t lo = p->tok_lo;
    int e = parse_binary(p, level + 1);
    while (!p->failed && p->tok == level_tok[level]) {
        int op_line = p->tok_line;
        next(p);
        int r = parse_binary(p, level + 1);
        if (p->failed)
            return 0;
        p->tok_line = op_line; /* type errors name the operator's line */
        bool ls = p->m->nodes[e].is_set, rs = p->m->nodes[r].is_set;
        enum nkind k = level_kind[level];
        if (k == N_SEQ) {
            if (!want_rel(p, e, "a ; b") || !want_rel(p, r, "a ; b"))
                return 0;
        } else if (ls != rs) {
            perr(p, "'%s' mixes a set and a relation",
                 k == N_UNION  ? "|"
                 : k == N_DIFF ? "\\"
                               : "&");
            return 0;
        }
        e = new_node(p, k, k != N_SEQ && ls, e, r, lo);
    }
    return e;
}

static int parse_union(struct parser *p)
{
    return parse_binary(p, 0);
}

/* ---- statements ---- */

static int new_slot(struct parser *p, const char *name, bool is_set)
{
    struct cat_model *m = p->m;
    if (m->n_slots == MAX_SLOTS) {
        perr(p, "more than %d lets", MAX_SLOTS);
        return 0;
    }
    snprintf(m->slot_name[m->n_slots], sizeof m->slot_name[0], "%s", name);
    m->slot_set[m->n_slots] = is_set;
    return (int)m->n_slots++;
}

static bool is_check(const char *w)
{
    return !strcmp(w, "acyclic") || !strcmp(w, "irreflexive") || !strcmp(w, "empty");
}

static void parse_stmt(struct parser *p)
{
    struct cat_model *m = p->m;
    if (p->tok != T_ID || (strcmp(p->word, "let") && !is_check(p->word))) {
        perr(p, "expected 'let', 'acyclic', 'irreflexive' or 'empty', got '%s'",
             p->tok == T_ID || p->tok == T_BAD ? p->word : "an operator");
        return;
    }
    if (m->n_stmts == MAX_STMTS) {
        perr(p, "more than %d statements", MAX_STMTS);
        return;
    }
    struct stmt *st = &m->stmts[m->n_stmts];
    memset(st, 0, sizeof *st);
    if (!strcmp(p->word, "let")) {
        next(p);
        bool rec = p->tok == T_ID && !strcmp(p->word, "rec");
        if (rec)
            next(p);
        if (p->tok != T_ID) {
            perr(p, "expected a name after 'let'");
            return;
        }
        char name[48];
        snprintf(name, sizeof name, "%s", p->word);
        next(p);
        if (p->tok != T_EQ) {
            perr(p, "expected '=' after 'let %s'", name);
            return;
        }
        next(p);
        st->kind = rec ? S_LETREC : S_LET;
        if (rec)
            st->slot = (int16_t)new_slot(p, name, false);
        st->expr = (int16_t)parse_union(p);
        if (p->failed)
            return;
        if (rec) {
            if (!want_rel(p, st->expr, "let rec"))
                return;
        } else {
            st->slot = (int16_t)new_slot(p, name, m->nodes[st->expr].is_set);
        }
    } else {
        st->kind = !strcmp(p->word, "acyclic")       ? S_ACYCLIC
                   : !strcmp(p->word, "irreflexive") ? S_IRREFLEXIVE
                                                     : S_EMPTY;
        const char *what = p->word[0] == 'a'   ? "acyclic"
                           : p->word[0] == 'i' ? "irreflexive"
                                               : "empty";
        next(p);
        st->expr = (int16_t)parse_union(p);
        if (p->failed)
            return;
        if (st->kind != S_EMPTY && !want_rel(p, st->expr, what))
            return;
        if (p->tok == T_ID && !strcmp(p->word, "as")) {
            next(p);
            if (p->tok != T_ID) {
                perr(p, "expected a name after 'as'");
                return;
            }
            snprintf(st->name, sizeof st->name, "%s", p->word);
            next(p);
        } else {
            snprintf(st->name, sizeof st->name, "%s-%u", what, m->n_stmts);
        }
    }
    m->n_stmts++;
}

/* Whether a chosen relation (rf, co, sync_fence, syncbar) reaches node ni;
 * *neg_self: slot `self` occurs on the right side of a difference (`neg`
 * says whether ni already is on one). */
static bool depends(const struct cat_model *m, int ni, int self, bool neg, bool *neg_self)
{
    if (ni < 0)
        return false;
    const struct node *nd = &m->nodes[ni];
    switch ((enum nkind)nd->kind) {
    case N_SLOT:
        if (nd->ref == self && neg)
            *neg_self = true;
        return m->varies[nd->ref];
    case N_REL:
        return nd->ref == CR_RF || nd->ref == CR_CO || nd->ref == CR_SYNC_FENCE ||
               nd->ref == CR_SYNCBAR;
    case N_SET:
    case N_ZERO:
        return false;
    case N_DIFF: {
        bool a = depends(m, nd->a, self, neg, neg_self);
        return depends(m, nd->b, self, !neg, neg_self) || a;
    }
    default: {
        bool a = depends(m, nd->a, self, neg, neg_self);
        return depends(m, nd->b, self, neg, neg_self) || a;
    }
    }
}

/* Which lets vary with the chosen relations, and whether the bounds of a
 * partial execution can be computed (cat_consistent_between). */
static void mark_varying(struct cat_model *m)
{
    m->bounded = true;
    for (unsigned i = 0; i < m->n_stmts; i++) {
        const struct stmt *st = &m->stmts[i];
        if (st->kind != S_LET && st->kind != S_LETREC)
            continue;
        bool neg_self = false;
        int self = st->kind == S_LETREC ? st->slot : -1;
        m->varies[st->slot] = depends(m, st->expr, self, false, &neg_self);
        if (st->kind == S_LETREC) /* to its fixed point: it may reach itself */
            m->varies[st->slot] |= depends(m, st->expr, self, false, &neg_self);
        if (neg_self)
            m->bounded = false;
    }
}

struct cat_model *cat_parse(const char *text, const char *path, char *err, size_t errlen)
{
    struct cat_model *m = calloc(1, sizeof *m);
    char *src = strdup(text);
    if (!m || !src) {
        free(m);
        free(src);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    m->src = src;
    struct parser p = {.m = m, .s = src, .path = path, .line = 1, .err = err, .errlen = errlen};
    next(&p);
    /* the title: a first word that is not a statement keyword */
    if (p.tok == T_ID && strcmp(p.word, "let") && !is_check(p.word)) {
        snprintf(m->title, sizeof m->title, "%s", p.word);
        next(&p);
    }
    while (!p.failed && p.tok != T_EOF)
        parse_stmt(&p);
    if (!p.failed && !m->n_stmts)
        perr(&p, "the model has no statements");
    if (!p.failed) {
        mark_varying(m);
        m->env = calloc(m->n_slots ? 2 * m->n_slots : 1, sizeof *m->env);
        if (!m->env)
            perr(&p, "out of memory");
    }
    if (p.failed) {
        cat_free(m);
        return NULL;
    }
    return m;
}

void cat_free(struct cat_model *m)
{
    if (!m)
        return;
    free(m->env);
    free(m->src);
    free(m);
}

const char *cat_title(const struct cat_model *m)
{
    return m->title;
}

/* ---- evaluation ---- */

static void closure(cat_rel r, unsigned n)
{
    for (unsigned k = 0; k < n; k++) {
        uint64_t bit = 1ull << k;
        for (unsigned i = 0; i < n; i++)
            if (r[i] & bit)
                r[i] |= r[k];
    }
}

static void seq(const cat_rel a, const cat_rel b, cat_rel out, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint64_t row = 0, s = a[i];
        while (s) {
            row |= b[__builtin_ctzll(s)];
            s &= s - 1;
        }
        out[i] = row;
    }
}

static void eval(const struct cat_model *m, const struct side *p, const struct side *q, int ni,
                 struct val *out)
{
    const struct node *nd = &m->nodes[ni];
    const struct cat_exec *x = p->x;
    unsigned n = x->n;
    uint64_t all = n == 64 ? ~0ull : (1ull << n) - 1;
    struct val a, b;
    switch ((enum nkind)nd->kind) {
    case N_SLOT:
        *out = p->env[nd->ref];
        return;
    case N_SET:
        out->set = x->set[nd->ref];
        return;
    case N_REL:
        memcpy(out->r, x->rel[nd->ref], n * sizeof(uint64_t));
        return;
    case N_ZERO:
        memset(out->r, 0, n * sizeof(uint64_t));
        return;
    case N_UNION:
    case N_INTER:
    case N_DIFF:
        eval(m, p, q, nd->a, out);
        if (nd->kind == N_DIFF)
            eval(m, q, p, nd->b, &b); /* the right side of a difference: the other bound */
        else
            eval(m, p, q, nd->b, &b);
        if (nd->is_set) {
            out->set = nd->kind == N_UNION   ? out->set | b.set
                       : nd->kind == N_INTER ? out->set & b.set
                                             : out->set & ~b.set;
            return;
        }
        for (unsigned i = 0; i < n; i++)
            out->r[i] = nd->kind == N_UNION   ? out->r[i] | b.r[i]
                        : nd->kind == N_INTER ? out->r[i] & b.r[i]
                                              : out->r[i] & ~b.r[i];
        return;
    case N_SEQ:
        eval(m, p, q, nd->a, &a);
        eval(m, p, q, nd->b, &b);
        seq(a.r, b.r, out->r, n);
        return;
    case N_CART:
        eval(m, p, q, nd->a, &a);
        eval(m, p, q, nd->b, &b);
        for (unsigned i = 0; i < n; i++)
            out->r[i] = (a.set >> i & 1) ? b.set : 0;
        return;
    case N_PLUS:
    case N_STAR:
    case N_OPT:
        eval(m, p, q, nd->a, out);
        if (nd->kind != N_OPT)
            closure(out->r, n);
        if (nd->kind != N_PLUS)
            for (unsigned i = 0; i < n; i++)
                out->r[i] |= 1ull << i;
        return;
    case N_INV:
        eval(m, p, q, nd->a, &a);
        memset(out->r, 0, n * sizeof(uint64_t));
        for (unsigned i = 0; i < n; i++)
            for (uint64_t s = a.r[i]; s; s &= s - 1)
                out->r[__builtin_ctzll(s)] |= 1ull << i;
        return;
    case N_BRACKET:
        eval(m, p, q, nd->a, &a);
        for (unsigned i = 0; i < n; i++)
            out->r[i] = a.set & (1ull << i);
        return;
    case N_DOMAIN:
    case N_RANGE:
        eval(m, p, q, nd->a, &a);
        out->set = 0;
        for (unsigned i = 0; i < n; i++)
            if (nd->kind == N_DOMAIN)
                out->set |= a.r[i] ? 1ull << i : 0;
            else
                out->set |= a.r[i];
        out->set &= all;
        return;
    }
}

static void node_text(const struct cat_model *m, int ni, char *buf, size_t len)
{
    const struct node *nd = &m->nodes[ni];
    size_t k = 0;
    bool space = false;
    for (int i = nd->lo; i < nd->hi && k + 1 < len; i++) {
        char c = m->src[i];
        if (isspace((unsigned char)c)) {
            space = true;
            continue;
        }
        if (space && k && k + 2 < len)
            buf[k++] = ' ';
        space = false;
        buf[k++] = c;
    }
    buf[k] = 0;
}

/* The operands of a chain of one binary operator, left to right. */
static unsigned flatten(const struct cat_model *m, int ni, enum nkind k, int *out, unsigned max)
{
    const struct node *nd = &m->nodes[ni];
    if (nd->kind != k) {
        out[0] = ni;
        return 1;
    }
    unsigned n = flatten(m, nd->a, k, out, max);
    if (n < max)
        n += flatten(m, nd->b, k, out + n, max - n);
    return n;
}

/* A cycle through a (irreflexive: r = c1; c2; ...; ck around e). */
static void witness_seq(const struct cat_model *m, const struct side *p, const struct side *q,
                        int ni, unsigned e, struct cat_fail *f)
{
    int parts[16];
    unsigned np = flatten(m, ni, N_SEQ, parts, 16);
    static struct val pv[16];
    uint64_t layer[17];
    layer[0] = 1ull << e;
    for (unsigned j = 0; j < np; j++) {
        eval(m, p, q, parts[j], &pv[j]);
        uint64_t nx = 0;
        for (uint64_t s = layer[j]; s; s &= s - 1)
            nx |= pv[j].r[__builtin_ctzll(s)];
        layer[j + 1] = nx;
    }
    f->n_steps = np;
    f->ev[np] = (uint8_t)e;
    unsigned cur = e;
    for (int j = (int)np - 1; j >= 0; j--) {
        unsigned pick = e;
        for (uint64_t s = layer[j]; s; s &= s - 1) {
            unsigned c = (unsigned)__builtin_ctzll(s);
            if (pv[j].r[c] >> cur & 1) {
                pick = c;
                break;
            }
        }
        f->ev[j] = (uint8_t)pick;
        node_text(m, parts[j], f->step[j], sizeof f->step[j]);
        cur = pick;
    }
}

/* A shortest cycle of r (a union: each edge named by its first operand that
 * holds it). */
static void witness_cycle(const struct cat_model *m, const struct side *p, const struct side *q,
                          int ni, const cat_rel r, struct cat_fail *f)
{
    unsigned n = p->x->n;
    static cat_rel plus;
    memcpy(plus, r, n * sizeof(uint64_t));
    closure(plus, n);
    unsigned best_e = 0, best_len = UINT32_MAX;
    int best_prev[CAT_MAX_EVENTS];
    for (unsigned e = 0; e < n; e++) {
        if (!(plus[e] >> e & 1))
            continue;
        /* BFS from e back to e */
        int prev[CAT_MAX_EVENTS];
        unsigned dist[CAT_MAX_EVENTS];
        for (unsigned i = 0; i < n; i++)
            prev[i] = -1, dist[i] = UINT32_MAX;
        unsigned q[CAT_MAX_EVENTS + 1], qh = 0, qt = 0, len = UINT32_MAX;
        q[qt++] = e;
        dist[e] = 0;
        int last = -1;
        while (qh < qt && len == UINT32_MAX) {
            unsigned u = q[qh++];
            for (uint64_t s = r[u]; s; s &= s - 1) {
                unsigned v = (unsigned)__builtin_ctzll(s);
                if (v == e) {
                    len = dist[u] + 1;
                    last = (int)u;
                    break;
                }
                if (dist[v] == UINT32_MAX) {
                    dist[v] = dist[u] + 1;
                    prev[v] = (int)u;
                    q[qt++] = v;
                }
            }
        }
        if (len < best_len) {
            best_len = len;
            best_e = e;
            memcpy(best_prev, prev, sizeof prev);
            best_prev[e] = last;
        }
    }
    if (best_len == UINT32_MAX)
        return;
    /* walk back from e */
    unsigned path[CAT_MAX_EVENTS + 1];
    unsigned k = best_len;
    path[k] = best_e;
    unsigned cur = (unsigned)best_prev[best_e];
    while (k > 0) {
        path[--k] = cur;
        if (cur == best_e)
            break;
        cur = (unsigned)best_prev[cur];
    }
    int parts[16];
    unsigned np = flatten(m, ni, N_UNION, parts, 16);
    static struct val pv[16];
    for (unsigned j = 0; j < np; j++)
        eval(m, p, q, parts[j], &pv[j]);
    f->n_steps = best_len;
    for (unsigned i = 0; i <= best_len; i++)
        f->ev[i] = (uint8_t)path[i];
    for (unsigned i = 0; i < best_len; i++) {
        unsigned j = 0;
        while (j + 1 < np && !(pv[j].r[path[i]] >> path[i + 1] & 1))
            j++;
        node_text(m, parts[j], f->step[i], sizeof f->step[i]);
    }
}

static bool check(const struct cat_model *m, const struct side *p, const struct side *q,
                  const struct stmt *st, struct cat_fail *f)
{
    static struct val v;
    unsigned n = p->x->n;
    eval(m, p, q, st->expr, &v);
    bool is_set = m->nodes[st->expr].is_set;
    int bad = -1;
    switch ((enum skind)st->kind) {
    case S_EMPTY:
        if (is_set) {
            if (v.set)
                bad = __builtin_ctzll(v.set);
        } else {
            for (unsigned i = 0; i < n && bad < 0; i++)
                if (v.r[i])
                    bad = (int)i;
        }
        break;
    case S_IRREFLEXIVE:
        for (unsigned i = 0; i < n && bad < 0; i++)
            if (v.r[i] >> i & 1)
                bad = (int)i;
        break;
    case S_ACYCLIC: {
        static cat_rel plus;
        memcpy(plus, v.r, n * sizeof(uint64_t));
        closure(plus, n);
        for (unsigned i = 0; i < n && bad < 0; i++)
            if (plus[i] >> i & 1)
                bad = (int)i;
        break;
    }
    default:
        return true;
    }
    if (bad < 0)
        return true;
    if (!f)
        return false;
    memset(f, 0, sizeof *f);
    f->axiom = st->name;
    f->kind = st->kind == S_EMPTY ? "empty" : st->kind == S_ACYCLIC ? "acyclic" : "irreflexive";
    node_text(m, st->expr, f->expr, sizeof f->expr);
    if (st->kind == S_IRREFLEXIVE) {
        witness_seq(m, p, q, st->expr, (unsigned)bad, f);
    } else if (st->kind == S_ACYCLIC) {
        witness_cycle(m, p, q, st->expr, v.r, f);
    } else {
        f->n_steps = is_set ? 0 : 1;
        f->ev[0] = (uint8_t)bad;
        f->ev[1] = is_set ? (uint8_t)bad : (uint8_t)__builtin_ctzll(v.r[bad]);
        const struct node *nd = &m->nodes[st->expr];
        if (nd->kind == N_DIFF) { /* "in a, not in b" says more than "a \ b" */
            char l[56], r[32];
            node_text(m, nd->a, l, sizeof l);
            node_text(m, nd->b, r, sizeof r);
            snprintf(f->step[0], sizeof f->step[0], "%s, not %s", l, r);
        } else {
            snprintf(f->step[0], sizeof f->step[0], "%.95s", f->expr);
        }
    }
    return false;
}

/* A let's value on side p (q the other bound, for the right sides of its
 * differences), into p's slot. */
static void run_let(const struct cat_model *m, const struct side *p, const struct side *q,
                    const struct stmt *st)
{
    struct val *slot = &p->env[st->slot];
    unsigned n = p->x->n;
    if (st->kind == S_LET) {
        eval(m, p, q, st->expr, slot);
        return;
    }
    /* least fixed point from the empty relation */
    memset(slot->r, 0, n * sizeof(uint64_t));
    static struct val nv;
    for (;;) {
        eval(m, p, q, st->expr, &nv);
        if (!memcmp(nv.r, slot->r, n * sizeof(uint64_t)))
            return;
        memcpy(slot->r, nv.r, n * sizeof(uint64_t));
    }
}

bool cat_consistent(const struct cat_model *m, const struct cat_exec *x, struct cat_fail *fail)
{
    const struct side one = {x, m->env};
    for (unsigned i = 0; i < m->n_stmts; i++) {
        const struct stmt *st = &m->stmts[i];
        if (st->kind == S_LET || st->kind == S_LETREC)
            run_let(m, &one, &one, st);
        else if (!check(m, &one, &one, st, fail))
            return false;
    }
    return true;
}

bool cat_consistent_between(const struct cat_model *m, const struct cat_exec *lo,
                            const struct cat_exec *hi, struct cat_fail *fail)
{
    if (!m->bounded)
        return true;
    const struct side low = {lo, m->env}, high = {hi, m->env + m->n_slots};
    for (unsigned i = 0; i < m->n_stmts; i++) {
        const struct stmt *st = &m->stmts[i];
        if (st->kind == S_LET || st->kind == S_LETREC) {
            /* each bound of the let; the same value where no chosen relation
             * reaches it (a let rec's own slot occurs only positively in its
             * body, so each side's fixed point needs only its own) */
            run_let(m, &low, &high, st);
            if (m->varies[st->slot]) {
                run_let(m, &high, &low, st);
            } else {
                high.env[st->slot].set = low.env[st->slot].set;
                memcpy(high.env[st->slot].r, low.env[st->slot].r, lo->n * sizeof(uint64_t));
            }
        } else if (!check(m, &low, &high, st, fail)) {
            return false;
        }
    }
    return true;
}
