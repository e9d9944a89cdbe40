/*
 * litmus_parse.c - parser for the PTX litmus dialect of the suite in litmus/.
 *
 * Grammar and semantics: litmus/README.md. The parser accepts every
 * form the 239 tests of the suite use (including proxies and aliases, which
 * the oracle judges and the simulated machine skips), and of the rest of
 * Dat3M's PTX dialect the register move "ld rD, v", locations without an
 * init entry (they start at 0, as in the reference tool) and blanks after a
 * condition's "P3:"; nothing else: unknown instructions, rows whose column
 * count does not match the thread header, undefined labels are errors naming
 * file:line.
 * After parsing it fills the observables and the barrier plan.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/litmus.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/log.h"

const char *const litmus_kind_names[3] = {"exists", "~exists", "forall"};

struct pstate {
    struct litmus_test *t;
    const char *path;
    char *err;
    size_t errlen;
    unsigned depth; /* nesting of '(' and '~' in the condition being parsed */
    /* unresolved branch targets: thread, instr, label name */
    struct {
        int th, ins;
        char name[16];
    } fix[LITMUS_MAX_THREADS * LITMUS_MAX_INSTRS];
    unsigned n_fix;
};

static int perr(struct pstate *ps, int line, const char *fmt, ...) PRINTF_LIKE(3, 4);
static int perr(struct pstate *ps, int line, const char *fmt, ...)
{
    int n = snprintf(ps->err, ps->errlen, "%s:%d: ", ps->path, line);
    if (n < 0 || (size_t)n >= ps->errlen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- small text helpers (strings are modified in place) ---- */

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

static bool is_ident(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

static bool parse_int(const char *s, int32_t *v)
{
    if (!isdigit((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (*end || errno || x > INT32_MAX)
        return false;
    *v = (int32_t)x;
    return true;
}

/* "r12" -> 12. */
static int parse_reg(const char *s)
{
    int32_t v;
    if (s[0] != 'r' || !parse_int(s + 1, &v) || v >= LITMUS_MAX_REGS)
        return -1;
    return (int)v;
}

static int find_loc(const struct litmus_test *t, const char *name)
{
    for (unsigned i = 0; i < t->n_locs; i++)
        if (!strcmp(t->locs[i].name, name))
            return (int)i;
    return -1;
}

static int add_loc(struct pstate *ps, int line, const char *name)
{
    struct litmus_test *t = ps->t;
    if (!is_ident(name) || strlen(name) >= sizeof t->locs[0].name)
        return perr(ps, line, "bad location name '%s'", name);
    if (find_loc(t, name) >= 0)
        return perr(ps, line, "location '%s' declared twice", name);
    if (t->n_locs == LITMUS_MAX_LOCS)
        return perr(ps, line, "more than %d locations", LITMUS_MAX_LOCS);
    struct litmus_loc *l = &t->locs[t->n_locs];
    snprintf(l->name, sizeof l->name, "%s", name);
    l->alias_of = -1;
    l->root = (int)t->n_locs;
    return (int)t->n_locs++;
}

/* ---- init block ---- */

static int parse_decl(struct pstate *ps, char *d, int line)
{
    struct litmus_test *t = ps->t;
    d = trim(d);
    if (!*d)
        return 0;
    char *at = strchr(d, '@');
    if (at) { /* y @ generic aliases x */
        *at = 0;
        char *name = trim(d), *rest = trim(at + 1);
        char proxy[16], kw[16], target[32];
        if (sscanf(rest, "%15s %15s %31s", proxy, kw, target) != 3 || strcmp(kw, "aliases"))
            return perr(ps, line, "expected 'NAME @ PROXY aliases LOC', got '%s'", rest);
        static const char *const proxies[] = {"generic", "texture", "surface", "constant"};
        int p = -1;
        for (int i = 0; i < 4; i++)
            if (!strcmp(proxy, proxies[i]))
                p = i;
        if (p < 0)
            return perr(ps, line, "unknown proxy '%s' (generic, texture, surface, constant)",
                        proxy);
        int tg = find_loc(t, target);
        if (tg < 0)
            return perr(ps, line, "alias of undeclared location '%s'", target);
        int li = add_loc(ps, line, name);
        if (li < 0)
            return -1;
        t->locs[li].alias_of = tg;
        t->locs[li].proxy = (uint8_t)p;
        t->locs[li].root = t->locs[tg].root;
        t->locs[li].init = t->locs[tg].init;
        t->features |= LITMUS_F_ALIAS;
        if (p != LPROXY_GENERIC)
            t->features |= LITMUS_F_PROXY;
        return 0;
    }
    char *eq = strchr(d, '=');
    if (!eq)
        return perr(ps, line, "expected 'LOC=INT', 'Pn:rK=INT' or an alias, got '%s'", d);
    *eq = 0;
    char *lhs = trim(d), *rhs = trim(eq + 1);
    int32_t v;
    if (!parse_int(rhs, &v))
        return perr(ps, line, "initial value '%s' is not a non-negative integer", rhs);
    char *colon = strchr(lhs, ':');
    if (colon) {
        *colon = 0;
        int32_t th;
        int r = parse_reg(trim(colon + 1));
        if (lhs[0] != 'P' || !parse_int(lhs + 1, &th) || th >= LITMUS_MAX_THREADS)
            return perr(ps, line, "bad thread '%s' in register initialiser", lhs);
        if (r < 0)
            return perr(ps, line, "bad register '%s' (r0..r%d)", trim(colon + 1),
                        LITMUS_MAX_REGS - 1);
        t->th[th].reg_init[r] = v;
        t->th[th].regs_used |= 1u << r;
        t->th[th].regs_initialised |= 1u << r;
        return 0;
    }
    int li = add_loc(ps, line, lhs);
    if (li < 0)
        return -1;
    t->locs[li].init = v;
    return 0;
}

/* ---- instructions ---- */

static int split_ops(char *s, char **ops, int max)
{
    int n = 0;
    s = trim(s);
    if (!*s)
        return 0;
    for (;;) {
        char *c = strchr(s, ',');
        if (n == max)
            return max + 1;
        if (c)
            *c = 0;
        ops[n++] = trim(s);
        if (!c)
            return n;
        s = c + 1;
    }
}

static int parse_sem(const char *s)
{
    static const struct {
        const char *n;
        int sem;
    } sems[] = {{"weak", SEM_WEAK},       {"relaxed", SEM_RELAXED}, {"acquire", SEM_ACQUIRE},
                {"release", SEM_RELEASE}, {"acq_rel", SEM_ACQ_REL}, {"sc", SEM_SC}};
    for (size_t i = 0; i < ARRAY_LEN(sems); i++)
        if (!strcmp(s, sems[i].n))
            return sems[i].sem;
    return -1;
}

static int parse_scope(const char *s)
{
    if (!strcmp(s, "cta"))
        return SCOPE_CTA;
    if (!strcmp(s, "gpu"))
        return SCOPE_GPU;
    if (!strcmp(s, "sys"))
        return SCOPE_SYS;
    return -1;
}

static int op_reg(struct pstate *ps, int line, const char *s, int8_t *r, struct litmus_thread *th,
                  bool written)
{
    int x = parse_reg(s);
    if (x < 0)
        return perr(ps, line, "expected a register r0..r%d, got '%s'", LITMUS_MAX_REGS - 1, s);
    *r = (int8_t)x;
    th->regs_used |= 1u << x;
    if (written)
        th->regs_written |= 1u << x;
    return 0;
}

static int op_val(struct pstate *ps, int line, const char *s, struct litmus_val *v,
                  struct litmus_thread *th, bool reg_ok)
{
    if (parse_int(s, &v->v)) {
        v->is_reg = false;
        return 0;
    }
    int r = parse_reg(s);
    if (r >= 0 && reg_ok) {
        v->is_reg = true;
        v->v = r;
        th->regs_used |= 1u << r;
        return 0;
    }
    return perr(ps, line,
                reg_ok ? "expected an integer or a register, got '%s'"
                       : "expected an integer, got '%s'",
                s);
}

/* A location the init block does not declare starts at 0, as in the
 * reference tool. */
static int op_loc(struct pstate *ps, int line, const char *s, int8_t *loc)
{
    int l = find_loc(ps->t, s);
    if (l < 0) {
        if (!is_ident(s) || parse_reg(s) >= 0)
            return perr(ps, line, "expected a location, got '%s'", s);
        l = add_loc(ps, line, s);
        if (l < 0)
            return -1;
        ps->t->locs[l].init = 0;
    }
    *loc = (int8_t)l;
    return 0;
}

static int want_ops(struct pstate *ps, int line, const char *mn, int n, int lo, int hi)
{
    if (n < lo || n > hi) {
        if (lo == hi)
            return perr(ps, line, "%s takes %d operand%s, got %d", mn, lo, lo == 1 ? "" : "s",
                        n > hi ? hi + 1 : n);
        return perr(ps, line, "%s takes %d to %d operands, got %d", mn, lo, hi, n);
    }
    return 0;
}

/* Semantics and scope of a memory access mnemonic: parts[1] sem, parts[2] scope. */
static int mem_qual(struct pstate *ps, int line, const char *mn, char **parts, int np,
                    struct litmus_instr *in, unsigned allowed_sems, int first_extra)
{
    int sem = np > 1 ? parse_sem(parts[1]) : -1;
    if (sem < 0 || !(allowed_sems & (1u << sem)))
        return perr(ps, line, "unknown instruction '%s' (bad or missing semantics)", mn);
    in->sem = (uint8_t)sem;
    if (sem == SEM_WEAK) {
        in->scope = SCOPE_N;
        if (np != first_extra - 1)
            return perr(ps, line, "unknown instruction '%s' (.weak takes no scope)", mn);
        return 0;
    }
    int sc = np > 2 ? parse_scope(parts[2]) : -1;
    if (sc < 0)
        return perr(ps, line, "unknown instruction '%s' (scope .cta, .gpu or .sys required)", mn);
    in->scope = (uint8_t)sc;
    if (np != first_extra)
        return perr(ps, line, "unknown instruction '%s'", mn);
    return 0;
}

#define SEMS(...) (sem_bits((int[]){__VA_ARGS__, -1}))
static unsigned sem_bits(const int *s)
{
    unsigned b = 0;
    for (; *s >= 0; s++)
        b |= 1u << *s;
    return b;
}

static int parse_instr(struct pstate *ps, int thn, char *cell, int line)
{
    struct litmus_thread *th = &ps->t->th[thn];
    if (th->n_instrs == LITMUS_MAX_INSTRS)
        return perr(ps, line, "P%d has more than %d instructions", thn, LITMUS_MAX_INSTRS);
    struct litmus_instr *in = &th->ins[th->n_instrs];
    memset(in, 0, sizeof *in);
    in->dst = -1;
    in->loc = -1;
    in->target = -1;
    in->line = line;
    in->scope = SCOPE_N;

    char *sp = cell;
    while (*sp && !isspace((unsigned char)*sp))
        sp++;
    char mn[64];
    size_t ml = (size_t)(sp - cell);
    if (ml >= sizeof mn)
        return perr(ps, line, "unknown instruction '%.40s...'", cell);
    memcpy(mn, cell, ml);
    mn[ml] = 0;
    char *ops[5];
    int n = split_ops(sp, ops, 4);
    char mcopy[64], *parts[6];
    int np = 0;
    snprintf(mcopy, sizeof mcopy, "%s", mn);
    for (char *p = strtok(mcopy, "."); p && np < 6; p = strtok(NULL, "."))
        parts[np++] = p;
    if (!np)
        return perr(ps, line, "empty instruction");
    const char *m0 = parts[0];
    unsigned ld_sems = SEMS(SEM_WEAK, SEM_RELAXED, SEM_ACQUIRE);
    unsigned st_sems = SEMS(SEM_WEAK, SEM_RELAXED, SEM_RELEASE);
    unsigned rmw_sems = SEMS(SEM_RELAXED, SEM_ACQUIRE, SEM_RELEASE, SEM_ACQ_REL);

    if (!strcmp(m0, "ld") || !strcmp(m0, "tld") || !strcmp(m0, "suld") || !strcmp(m0, "cold")) {
        in->op = LOP_LD;
        bool gen = !strcmp(m0, "ld");
        in->proxy = gen                   ? LPROXY_GENERIC
                    : !strcmp(m0, "tld")  ? LPROXY_TEXTURE
                    : !strcmp(m0, "suld") ? LPROXY_SURFACE
                                          : LPROXY_CONSTANT;
        int32_t imm;
        if (gen && np == 1 && n == 2 && (parse_int(ops[1], &imm) || parse_reg(ops[1]) >= 0)) {
            /* "ld rD, v": a register move in the dialect, no memory access */
            in->op = LOP_ADD;
            if (op_reg(ps, line, ops[0], &in->dst, th, true) ||
                op_val(ps, line, ops[1], &in->a, th, true))
                return -1;
            in->b = (struct litmus_val){.is_reg = false, .v = 0};
            th->n_instrs++;
            return 0;
        }
        if (mem_qual(ps, line, mn, parts, np, in, gen ? ld_sems : SEMS(SEM_WEAK), 3) ||
            want_ops(ps, line, mn, n, 2, 2) || op_reg(ps, line, ops[0], &in->dst, th, true) ||
            op_loc(ps, line, ops[1], &in->loc))
            return -1;
    } else if (!strcmp(m0, "st") || !strcmp(m0, "sust")) {
        in->op = LOP_ST;
        bool gen = !strcmp(m0, "st");
        in->proxy = gen ? LPROXY_GENERIC : LPROXY_SURFACE;
        if (mem_qual(ps, line, mn, parts, np, in, gen ? st_sems : SEMS(SEM_WEAK), 3) ||
            want_ops(ps, line, mn, n, 2, 2) || op_loc(ps, line, ops[0], &in->loc) ||
            op_val(ps, line, ops[1], &in->a, th, true))
            return -1;
    } else if (!strcmp(m0, "atom") || !strcmp(m0, "red")) {
        bool red = m0[0] == 'r';
        in->op = red ? LOP_RED : LOP_ATOM;
        if (np != 4 || mem_qual(ps, line, mn, parts, 3, in, rmw_sems, 3))
            return np != 4 ? perr(ps, line, "unknown instruction '%s'", mn) : -1;
        const char *k = parts[3];
        int nv;
        if (!strcmp(k, "add"))
            in->atom = ATOM_ADD, nv = 1;
        else if (!strcmp(k, "sub"))
            in->atom = ATOM_SUB, nv = 1;
        else if (!strcmp(k, "exch") && !red)
            in->atom = ATOM_EXCH, nv = 1;
        else if (!strcmp(k, "cas") && !red)
            in->atom = ATOM_CAS, nv = 2;
        else
            return perr(ps, line, "unknown instruction '%s' (operation add, sub%s)", mn,
                        red ? "" : ", exch or cas");
        int o = 0;
        if (want_ops(ps, line, mn, n, nv + (red ? 1 : 2), nv + (red ? 1 : 2)))
            return -1;
        if (!red && op_reg(ps, line, ops[o++], &in->dst, th, true))
            return -1;
        if (op_loc(ps, line, ops[o++], &in->loc) || op_val(ps, line, ops[o++], &in->a, th, false))
            return -1;
        if (nv == 2 && op_val(ps, line, ops[o], &in->b, th, false))
            return -1;
    } else if (!strcmp(m0, "fence")) {
        if (np == 3 && !strcmp(parts[1], "proxy")) {
            in->op = LOP_PFENCE;
            static const char *const pn[] = {"generic", "texture", "surface", "constant", "alias"};
            int p = -1;
            for (int i = 1; i < 5; i++)
                if (!strcmp(parts[2], pn[i]))
                    p = i;
            if (p < 0)
                return perr(ps, line, "unknown instruction '%s'", mn);
            in->proxy = (uint8_t)p;
        } else {
            in->op = LOP_FENCE;
            if (mem_qual(ps, line, mn, parts, np, in, SEMS(SEM_SC, SEM_ACQ_REL), 3))
                return -1;
        }
        if (want_ops(ps, line, mn, n, 0, 0))
            return -1;
    } else if (!strcmp(m0, "bar") && np == 3 && !strcmp(parts[1], "cta") &&
               (!strcmp(parts[2], "sync") || !strcmp(parts[2], "arrive"))) {
        bool sync = parts[2][0] == 's';
        in->op = sync ? LOP_BAR_SYNC : LOP_BAR_ARRIVE;
        if (want_ops(ps, line, mn, n, 1, sync ? 3 : 1) ||
            op_val(ps, line, ops[0], &in->a, th, false))
            return -1;
        in->n_bar_ops = (uint8_t)n;
        if (n >= 2 && op_val(ps, line, ops[1], &in->b, th, true))
            return -1;
        if (n >= 3 && op_val(ps, line, ops[2], &in->c, th, false))
            return -1;
        if (n >= 3 && in->c.v <= 0)
            return perr(ps, line, "barrier thread count must be positive");
    } else if (!strcmp(mn, "add")) {
        in->op = LOP_ADD;
        if (want_ops(ps, line, mn, n, 3, 3) || op_reg(ps, line, ops[0], &in->dst, th, true) ||
            op_val(ps, line, ops[1], &in->a, th, true) ||
            op_val(ps, line, ops[2], &in->b, th, true))
            return -1;
    } else if (!strcmp(mn, "beq") || !strcmp(mn, "bne") || !strcmp(mn, "goto")) {
        bool go = mn[0] == 'g';
        in->op = go ? LOP_GOTO : mn[1] == 'e' ? LOP_BEQ : LOP_BNE;
        if (want_ops(ps, line, mn, n, go ? 1 : 3, go ? 1 : 3))
            return -1;
        if (!go && (op_val(ps, line, ops[0], &in->a, th, true) ||
                    op_val(ps, line, ops[1], &in->b, th, true)))
            return -1;
        const char *lab = ops[go ? 0 : 2];
        if (!is_ident(lab) || strlen(lab) >= sizeof ps->fix[0].name)
            return perr(ps, line, "bad label '%s'", lab);
        ps->fix[ps->n_fix].th = thn;
        ps->fix[ps->n_fix].ins = (int)th->n_instrs;
        snprintf(ps->fix[ps->n_fix].name, sizeof ps->fix[0].name, "%s", lab);
        ps->n_fix++;
        ps->t->features |= LITMUS_F_CONTROL;
    } else {
        return perr(ps, line, "unknown instruction '%s' in P%d", mn, thn);
    }
    if (in->op <= LOP_RED && in->proxy != LPROXY_GENERIC)
        ps->t->features |= LITMUS_F_PROXY;
    if (in->op == LOP_PFENCE)
        ps->t->features |= LITMUS_F_PROXY;
    if (in->op == LOP_BAR_SYNC || in->op == LOP_BAR_ARRIVE)
        ps->t->features |= LITMUS_F_BARRIER;
    th->n_instrs++;
    return 0;
}

static int parse_cell(struct pstate *ps, int thn, char *cell, int line)
{
    cell = trim(cell);
    if (!*cell)
        return 0;
    size_t len = strlen(cell);
    if (cell[len - 1] == ':') {
        cell[len - 1] = 0;
        char *name = trim(cell);
        struct litmus_thread *th = &ps->t->th[thn];
        if (!is_ident(name) || strlen(name) >= sizeof th->labels[0].name)
            return perr(ps, line, "bad label '%s'", name);
        for (unsigned i = 0; i < th->n_labels; i++)
            if (!strcmp(th->labels[i].name, name))
                return perr(ps, line, "label '%s' defined twice in P%d", name, thn);
        if (th->n_labels == LITMUS_MAX_LABELS)
            return perr(ps, line, "too many labels in P%d", thn);
        snprintf(th->labels[th->n_labels].name, sizeof th->labels[0].name, "%s", name);
        th->labels[th->n_labels++].at = (int16_t)th->n_instrs;
        ps->t->features |= LITMUS_F_CONTROL;
        return 0;
    }
    return parse_instr(ps, thn, cell, line);
}

/* ---- thread header ---- */

static int parse_tdecl(struct pstate *ps, int idx, char *s, int line)
{
    s = trim(s);
    int th, cta, gpu, gpm = 0, cpu, used = 0, more = 0;
    /* P1@cpu 0: a thread on CPU core 0 */
    if (sscanf(s, "P%d@cpu %d%n", &th, &cpu, &used) == 2 && !s[used]) {
        if (th != idx)
            return perr(ps, line, "thread column %d is declared as P%d", idx, th);
        if (cpu < 0)
            return perr(ps, line, "negative cpu in '%s'", s);
        ps->t->th[idx].on_cpu = true;
        ps->t->th[idx].cpu = cpu;
        ps->t->th[idx].warp = -1;
        ps->t->th[idx].gpu = -1;
        ps->t->th[idx].cta = -1 - cpu;
        ps->t->features |= LITMUS_F_CPU;
        return 0;
    }
    /* P0@cta 0,gpu 0  or  P0@cta 0, gpu 0; a GPU module may follow (,gpm 1),
     * then a warp of the CTA whose lanes the threads share (,warp 0) */
    int warp = -1;
    bool ok = sscanf(s, "P%d@cta %d , gpu %d%n", &th, &cta, &gpu, &used) == 3;
    if (ok && s[used] && sscanf(s + used, " , gpm %d%n", &gpm, &more) == 1)
        used += more;
    if (ok && s[used] && sscanf(s + used, " , warp %d%n", &warp, &more) == 1 && warp >= 0)
        used += more;
    if (!ok || s[used])
        return perr(ps, line,
                    "bad thread declaration '%s' (expected 'P%d@cta N,gpu N', "
                    "'P%d@cta N,gpu N,gpm N', either followed by ',warp N', or 'P%d@cpu N')",
                    s, idx, idx, idx);
    if (th != idx)
        return perr(ps, line, "thread column %d is declared as P%d", idx, th);
    if (cta < 0 || gpu < 0 || gpm < 0)
        return perr(ps, line, "negative cta, gpu or gpm in '%s'", s);
    ps->t->th[idx].cta = cta;
    ps->t->th[idx].gpu = gpu;
    ps->t->th[idx].gpm = gpm;
    ps->t->th[idx].warp = warp;
    ps->t->th[idx].lane = 0;
    for (int k = 0; k < idx && warp >= 0; k++) {
        const struct litmus_thread *o = &ps->t->th[k];
        if (o->warp == warp && o->cta == cta && o->gpu == gpu && o->gpm == gpm && !o->on_cpu)
            ps->t->th[idx].lane = o->lane + 1;
    }
    if (gpu != ps->t->th[0].gpu && !ps->t->th[0].on_cpu)
        ps->t->features |= LITMUS_F_MULTIGPU;
    return 0;
}

/* ---- condition ---- */

struct lexer {
    const char *s;
    int line;
};

enum tok { T_EOF, T_LP, T_RP, T_AND, T_OR, T_NOT, T_EQ, T_NE, T_WORD, T_BAD };

static enum tok lex(struct lexer *lx, char *word, size_t wl)
{
    for (;;) {
        while (*lx->s == ' ' || *lx->s == '\t' || *lx->s == '\r')
            lx->s++;
        if (*lx->s == '\n') {
            lx->line++;
            lx->s++;
            continue;
        }
        break;
    }
    const char *s = lx->s;
    if (!*s)
        return T_EOF;
    if (*s == '(' || *s == ')') {
        lx->s++;
        return *s == '(' ? T_LP : T_RP;
    }
    if (s[0] == '/' && s[1] == '\\')
        return lx->s += 2, T_AND;
    if (s[0] == '\\' && s[1] == '/')
        return lx->s += 2, T_OR;
    if (s[0] == '=' && s[1] == '=')
        return lx->s += 2, T_EQ;
    if (s[0] == '!' && s[1] == '=')
        return lx->s += 2, T_NE;
    if (s[0] == '=')
        return lx->s += 1, T_EQ;
    if (s[0] == '~')
        return lx->s += 1, T_NOT;
    size_t n = 0, k = 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == ':') {
        if (k + 1 < wl)
            word[k++] = s[n];
        n++;
        /* "P3: r0": a register may follow the thread's colon after blanks */
        if (s[n - 1] == ':')
            while (s[n] == ' ' || s[n] == '\t')
                n++;
    }
    if (!n || n >= wl) {
        snprintf(word, wl, "%.*s", (int)MIN(strcspn(s, " \t\n"), wl - 1), s);
        return T_BAD;
    }
    word[k] = 0;
    lx->s += n;
    return T_WORD;
}

static enum tok peek(struct lexer *lx)
{
    struct lexer c = *lx;
    char w[64];
    return lex(&c, w, sizeof w);
}

static int new_node(struct pstate *ps, int line)
{
    if (ps->t->n_nodes == LITMUS_MAX_NODES)
        return perr(ps, line, "condition too large");
    memset(&ps->t->nodes[ps->t->n_nodes], 0, sizeof ps->t->nodes[0]);
    return (int)ps->t->n_nodes++;
}

static int parse_term(struct pstate *ps, struct lexer *lx, struct litmus_term *tm)
{
    char w[64];
    enum tok k = lex(lx, w, sizeof w);
    if (k != T_WORD)
        return perr(ps, lx->line, "expected a register, location or integer in the condition");
    memset(tm, 0, sizeof *tm);
    char *colon = strchr(w, ':');
    if (colon) {
        *colon = 0;
        int32_t th;
        const char *tn = w[0] == 'P' ? w + 1 : w;
        int r = parse_reg(colon + 1);
        if (!parse_int(tn, &th) || th >= (int32_t)ps->t->n_threads)
            return perr(ps, lx->line, "condition names thread '%s', which the test lacks", w);
        if (r < 0)
            return perr(ps, lx->line, "bad register '%s' in the condition", colon + 1);
        /* the program table and the init block come first, so both are
         * known here; a register neither gives a value is only ever 0, and
         * a condition on it is a typo that flips the verdict unseen */
        const struct litmus_thread *cth = &ps->t->th[th];
        if (!((cth->regs_written | cth->regs_initialised) & (1u << r)))
            return perr(ps, lx->line, "condition names P%d:r%d, which P%d never writes", th, r, th);
        tm->kind = LT_REG;
        tm->thread = (int8_t)th;
        tm->index = (int16_t)r;
        ps->t->th[th].regs_used |= 1u << r;
        return 0;
    }
    if (parse_int(w, &tm->value)) {
        tm->kind = LT_INT;
        return 0;
    }
    int l = find_loc(ps->t, w);
    if (l < 0) { /* never declared nor used: it keeps its initial 0 */
        l = add_loc(ps, lx->line, w);
        if (l < 0)
            return -1;
        ps->t->locs[l].init = 0;
    }
    tm->kind = LT_LOC;
    tm->index = (int16_t)ps->t->locs[l].root;
    return 0;
}

static int parse_or(struct pstate *ps, struct lexer *lx);
static int parse_unary_nested(struct pstate *ps, struct lexer *lx);

/* The parser recurses once per '(' or '~': bound it, so a pathological
 * condition is an error instead of a stack overflow (found by fuzzing). */
#define LITMUS_MAX_NESTING 64

static int parse_unary(struct pstate *ps, struct lexer *lx)
{
    if (ps->depth == LITMUS_MAX_NESTING)
        return perr(ps, lx->line, "condition nested more than %d deep", LITMUS_MAX_NESTING);
    ps->depth++;
    int n = parse_unary_nested(ps, lx);
    ps->depth--;
    return n;
}

static int parse_unary_nested(struct pstate *ps, struct lexer *lx)
{
    char w[64];
    enum tok k = peek(lx);
    if (k == T_NOT) {
        lex(lx, w, sizeof w);
        int c = parse_unary(ps, lx);
        if (c < 0)
            return -1;
        int n = new_node(ps, lx->line);
        if (n < 0)
            return -1;
        ps->t->nodes[n].kind = LN_NOT;
        ps->t->nodes[n].l = (int16_t)c;
        return n;
    }
    if (k == T_LP) {
        lex(lx, w, sizeof w);
        int c = parse_or(ps, lx);
        if (c < 0)
            return -1;
        if (lex(lx, w, sizeof w) != T_RP)
            return perr(ps, lx->line, "missing ')' in the condition");
        return c;
    }
    int n = new_node(ps, lx->line);
    if (n < 0)
        return -1;
    struct litmus_node *nd = &ps->t->nodes[n];
    if (parse_term(ps, lx, &nd->lt))
        return -1;
    k = lex(lx, w, sizeof w);
    if (k != T_EQ && k != T_NE)
        return perr(ps, lx->line, "expected '==', '=' or '!=' in the condition");
    nd->kind = k == T_EQ ? LN_EQ : LN_NE;
    if (parse_term(ps, lx, &nd->rt))
        return -1;
    return n;
}

static int parse_bin(struct pstate *ps, struct lexer *lx, enum tok op,
                     int (*sub)(struct pstate *, struct lexer *))
{
    int l = sub(ps, lx);
    if (l < 0)
        return -1;
    char w[64];
    while (peek(lx) == op) {
        lex(lx, w, sizeof w);
        int r = sub(ps, lx);
        if (r < 0)
            return -1;
        int n = new_node(ps, lx->line);
        if (n < 0)
            return -1;
        ps->t->nodes[n].kind = op == T_AND ? LN_AND : LN_OR;
        ps->t->nodes[n].l = (int16_t)l;
        ps->t->nodes[n].r = (int16_t)r;
        l = n;
    }
    return l;
}

static int parse_and(struct pstate *ps, struct lexer *lx)
{
    return parse_bin(ps, lx, T_AND, parse_unary);
}

static int parse_or(struct pstate *ps, struct lexer *lx)
{
    return parse_bin(ps, lx, T_OR, parse_and);
}

/* ---- after parsing: observables and the barrier plan ---- */

static void add_obs(struct litmus_test *t, const struct litmus_term *tm)
{
    for (unsigned i = 0; i < t->n_obs; i++)
        if (t->obs[i].kind == tm->kind && t->obs[i].thread == tm->thread &&
            t->obs[i].index == tm->index)
            return;
    t->obs[t->n_obs++] = *tm;
}

static void collect_cond_obs(struct litmus_test *t, int n)
{
    const struct litmus_node *nd = &t->nodes[n];
    if (nd->kind == LN_AND || nd->kind == LN_OR) {
        collect_cond_obs(t, nd->l);
        collect_cond_obs(t, nd->r);
    } else if (nd->kind == LN_NOT) {
        collect_cond_obs(t, nd->l);
    } else {
        if (nd->lt.kind != LT_INT)
            add_obs(t, &nd->lt);
        if (nd->rt.kind != LT_INT)
            add_obs(t, &nd->rt);
    }
}

static void make_obs(struct litmus_test *t)
{
    t->n_obs = 0;
    collect_cond_obs(t, t->root);
    t->n_obs_cond = t->n_obs;
    for (unsigned th = 0; th < t->n_threads; th++)
        for (int r = 0; r < LITMUS_MAX_REGS; r++)
            if (t->th[th].regs_written & (1u << r))
                add_obs(t, &(struct litmus_term){
                               .kind = LT_REG, .thread = (int8_t)th, .index = (int16_t)r});
    for (unsigned l = 0; l < t->n_locs; l++)
        if (t->locs[l].alias_of < 0)
            add_obs(t, &(struct litmus_term){.kind = LT_LOC, .index = (int16_t)l});
}

static int make_plan(struct pstate *ps)
{
    struct litmus_test *t = ps->t;
    memset(t->bar_group, -1, sizeof t->bar_group);
    t->n_groups = 0;
    /* (gpu, cta, inst) triples with an id decided at run time */
    struct {
        int gpu, cta, inst;
    } dyn[LITMUS_MAX_GROUPS];
    unsigned n_dyn = 0;
    for (unsigned th = 0; th < t->n_threads; th++)
        for (unsigned i = 0; i < t->th[th].n_instrs; i++) {
            const struct litmus_instr *in = &t->th[th].ins[i];
            if (in->op == LOP_BAR_SYNC && in->n_bar_ops >= 2 && in->b.is_reg &&
                (t->th[th].regs_written & (1u << in->b.v)) && n_dyn < LITMUS_MAX_GROUPS) {
                dyn[n_dyn].gpu = t->th[th].gpu;
                dyn[n_dyn].cta = t->th[th].cta;
                dyn[n_dyn++].inst = in->a.v;
            }
        }
    for (unsigned th = 0; th < t->n_threads; th++)
        for (unsigned i = 0; i < t->th[th].n_instrs; i++) {
            const struct litmus_instr *in = &t->th[th].ins[i];
            if (in->op != LOP_BAR_SYNC && in->op != LOP_BAR_ARRIVE)
                continue;
            const struct litmus_thread *tt = &t->th[th];
            int id = -1;
            if (in->n_bar_ops >= 2)
                id = in->b.is_reg ? tt->reg_init[in->b.v] : in->b.v;
            bool dynamic = false;
            for (unsigned d = 0; d < n_dyn; d++)
                if (dyn[d].gpu == tt->gpu && dyn[d].cta == tt->cta && dyn[d].inst == in->a.v)
                    dynamic = true;
            if (dynamic)
                id = -2;
            int count = in->n_bar_ops == 3 ? in->c.v : 0;
            int g;
            for (g = 0; g < (int)t->n_groups; g++) {
                struct litmus_bar_group *bg = &t->groups[g];
                if (bg->gpu == tt->gpu && bg->cta == tt->cta && bg->inst == in->a.v && bg->id == id)
                    break;
            }
            if (g == (int)t->n_groups) {
                if (t->n_groups == LITMUS_MAX_GROUPS)
                    return perr(ps, in->line, "more than %d barrier groups", LITMUS_MAX_GROUPS);
                struct litmus_bar_group *bg = &t->groups[t->n_groups++];
                memset(bg, 0, sizeof *bg);
                bg->gpu = tt->gpu;
                bg->cta = tt->cta;
                bg->inst = in->a.v;
                bg->id = id;
                bg->count = count;
                bg->dynamic = dynamic;
            } else if (t->groups[g].count != count && count) {
                if (t->groups[g].count)
                    return perr(ps, in->line,
                                "barrier %d (id %d) has count %d here and %d elsewhere", in->a.v,
                                id, count, t->groups[g].count);
                t->groups[g].count = count;
            }
            t->groups[g].members |= 1u << th;
            t->bar_group[th][i] = (int8_t)g;
        }
    return 0;
}

/* ---- the file ---- */

static bool starts_kind(const char *s, enum litmus_kind *k, size_t *len)
{
    static const struct {
        const char *w;
        enum litmus_kind k;
    } kinds[] = {
        {"~exists", LITMUS_NOT_EXISTS}, {"exists", LITMUS_EXISTS}, {"forall", LITMUS_FORALL}};
    for (size_t i = 0; i < ARRAY_LEN(kinds); i++) {
        size_t n = strlen(kinds[i].w);
        if (!strncmp(s, kinds[i].w, n) && !isalnum((unsigned char)s[n]) && s[n] != '_') {
            *k = kinds[i].k;
            *len = n;
            return true;
        }
    }
    return false;
}

int litmus_parse(const char *text, const char *path, struct litmus_test *t, char *err,
                 size_t errlen)
{
    static struct pstate ps_store; /* large; parsing is not re-entrant across threads */
    struct pstate *ps = &ps_store;
    memset(ps, 0, sizeof *ps);
    memset(t, 0, sizeof *t);
    ps->t = t;
    ps->path = path;
    ps->err = err;
    ps->errlen = errlen;
    snprintf(t->path, sizeof t->path, "%s", path);
    t->root = -1;

    size_t tl = strlen(text);
    char *buf = malloc(tl + 1);
    if (!buf)
        return perr(ps, 0, "out of memory");
    memcpy(buf, text, tl + 1);
    int rc = -1;
    char *p = buf;
    int line = 1;

    /* header */
    for (;;) {
        char *nl = strchr(p, '\n');
        char *e = nl ? nl : p + strlen(p);
        char save = *e;
        *e = 0;
        char *s = trim(p);
        if (*s) {
            char name[128];
            if (strncmp(s, "PTX", 3) || !isspace((unsigned char)s[3]) ||
                sscanf(s + 3, "%127s", name) != 1) {
                perr(ps, line, "expected the header 'PTX NAME'");
                goto out;
            }
            snprintf(t->name, sizeof t->name, "%s", name);
            *e = save;
            p = nl ? nl + 1 : e;
            line++;
            break;
        }
        if (!nl) {
            perr(ps, line, "empty file: expected the header 'PTX NAME'");
            goto out;
        }
        p = nl + 1;
        line++;
    }
    /* comment: opaque up to the first '{' */
    for (; *p && *p != '{'; p++)
        if (*p == '\n')
            line++;
    if (!*p) {
        perr(ps, line, "missing the init block '{ ... }'");
        goto out;
    }
    p++;
    /* init block */
    {
        char *start = p;
        int dline = line;
        for (;; p++) {
            if (!*p) {
                perr(ps, line, "init block is not closed with '}'");
                goto out;
            }
            if (*p == ';' || *p == '\n' || *p == '}') {
                char c = *p;
                *p = 0;
                if (parse_decl(ps, start, dline))
                    goto out;
                if (c == '\n')
                    line++;
                start = p + 1;
                dline = line;
                if (c == '}') {
                    p++;
                    break;
                }
            }
        }
    }
    /* program table and condition, line by line */
    {
        bool have_header = false;
        char *cond = NULL;
        int cond_line = 0;
        enum litmus_kind kind = LITMUS_EXISTS;
        while (*p) {
            char *nl = strchr(p, '\n');
            char *next = nl ? nl + 1 : p + strlen(p);
            if (nl)
                *nl = 0;
            char *s = trim(p);
            size_t kl;
            if (!*s) {
                /* blank */
            } else if (starts_kind(s, &kind, &kl)) {
                cond = s + kl;
                cond_line = line;
                if (nl)
                    *nl = '\n'; /* the condition runs to the end of the file */
                break;
            } else {
                size_t len = strlen(s);
                if (s[len - 1] != ';') {
                    perr(ps, line, "%s does not end with ';'",
                         have_header ? "program row" : "thread header");
                    goto out;
                }
                s[len - 1] = 0;
                char *cells[LITMUS_MAX_THREADS + 1];
                unsigned nc = 0;
                for (char *c = s;;) {
                    char *bar = strchr(c, '|');
                    if (nc == LITMUS_MAX_THREADS) {
                        perr(ps, line, "more than %d columns", LITMUS_MAX_THREADS);
                        goto out;
                    }
                    if (bar)
                        *bar = 0;
                    cells[nc++] = c;
                    if (!bar)
                        break;
                    c = bar + 1;
                }
                if (!have_header) {
                    t->n_threads = nc;
                    for (unsigned i = 0; i < nc; i++)
                        if (parse_tdecl(ps, (int)i, cells[i], line))
                            goto out;
                    have_header = true;
                } else {
                    if (nc != t->n_threads) {
                        perr(ps, line, "row has %u column%s but the thread header declares %u", nc,
                             nc == 1 ? "" : "s", t->n_threads);
                        goto out;
                    }
                    for (unsigned i = 0; i < nc; i++)
                        if (parse_cell(ps, (int)i, cells[i], line))
                            goto out;
                }
            }
            p = next;
            line++;
        }
        if (!have_header) {
            perr(ps, line, "missing the thread header 'P0@cta 0,gpu 0 | ... ;'");
            goto out;
        }
        if (!cond) {
            perr(ps, line, "missing the final condition (exists, ~exists or forall)");
            goto out;
        }
        t->kind = kind;
        struct lexer lx = {cond, cond_line};
        t->root = parse_or(ps, &lx);
        if (t->root < 0)
            goto out;
        char w[64];
        if (lex(&lx, w, sizeof w) != T_EOF) {
            perr(ps, lx.line, "unexpected text after the condition");
            goto out;
        }
    }
    /* labels */
    for (unsigned i = 0; i < ps->n_fix; i++) {
        struct litmus_thread *th = &t->th[ps->fix[i].th];
        struct litmus_instr *in = &th->ins[ps->fix[i].ins];
        unsigned k;
        for (k = 0; k < th->n_labels; k++)
            if (!strcmp(th->labels[k].name, ps->fix[i].name))
                break;
        if (k == th->n_labels) {
            perr(ps, in->line, "label '%s' is not defined in P%d", ps->fix[i].name, ps->fix[i].th);
            goto out;
        }
        in->target = th->labels[k].at;
    }
    if (make_plan(ps))
        goto out;
    make_obs(t);
    rc = 0;
out:
    free(buf);
    return rc;
}

int litmus_parse_file(const char *path, struct litmus_test *t, char *err, size_t errlen)
{
    char *text = file_read_source(path, NULL, err, errlen);
    if (!text)
        return -1;
    int rc = litmus_parse(text, path, t, err, errlen);
    free(text);
    return rc;
}

/* ---- outcomes ---- */

int32_t litmus_term_value(const struct litmus_test *t, const struct litmus_term *tm,
                          const int32_t *values)
{
    if (tm->kind == LT_INT)
        return tm->value;
    for (unsigned i = 0; i < t->n_obs; i++)
        if (t->obs[i].kind == tm->kind && t->obs[i].index == tm->index &&
            (tm->kind == LT_LOC || t->obs[i].thread == tm->thread))
            return values[i];
    return tm->kind == LT_REG ? t->th[tm->thread].reg_init[tm->index]
                              : t->locs[t->locs[tm->index].root].init;
}

static bool eval(const struct litmus_test *t, int n, const int32_t *v)
{
    const struct litmus_node *nd = &t->nodes[n];
    switch (nd->kind) {
    case LN_AND:
        return eval(t, nd->l, v) && eval(t, nd->r, v);
    case LN_OR:
        return eval(t, nd->l, v) || eval(t, nd->r, v);
    case LN_NOT:
        return !eval(t, nd->l, v);
    case LN_EQ:
        return litmus_term_value(t, &nd->lt, v) == litmus_term_value(t, &nd->rt, v);
    default:
        return litmus_term_value(t, &nd->lt, v) != litmus_term_value(t, &nd->rt, v);
    }
}

bool litmus_cond_holds(const struct litmus_test *t, const int32_t *values)
{
    return eval(t, t->root, values);
}

/* Whether a term has the same value in every outcome, and that value (*v):
 * an integer, a register its thread never writes (its initial value), a
 * location no instruction writes (its initial value). */
static bool term_fixed(const struct litmus_test *t, const struct litmus_term *tm, int32_t *v)
{
    if (tm->kind == LT_INT) {
        *v = tm->value;
        return true;
    }
    if (tm->kind == LT_REG) {
        *v = t->th[tm->thread].reg_init[tm->index];
        return !(t->th[tm->thread].regs_written >> tm->index & 1);
    }
    int root = t->locs[tm->index].root;
    *v = t->locs[root].init;
    for (unsigned th = 0; th < t->n_threads; th++)
        for (unsigned i = 0; i < t->th[th].n_instrs; i++) {
            const struct litmus_instr *in = &t->th[th].ins[i];
            bool writes = in->op == LOP_ST || in->op == LOP_ATOM || in->op == LOP_RED;
            if (writes && t->locs[in->loc].root == root)
                return false;
        }
    return true;
}

/* The value of node n whatever the outcome (0 or 1), or -1 when it depends
 * on one: constants folded, `a /\ false` false and `a \/ true` true
 * whatever a is, a term compared with itself decided. */
static int fold(const struct litmus_test *t, int n)
{
    const struct litmus_node *nd = &t->nodes[n];
    switch (nd->kind) {
    case LN_AND:
    case LN_OR: {
        int l = fold(t, nd->l), r = fold(t, nd->r), absorb = nd->kind == LN_OR;
        if (l == absorb || r == absorb)
            return absorb;
        return l < 0 || r < 0 ? -1 : !absorb;
    }
    case LN_NOT: {
        int l = fold(t, nd->l);
        return l < 0 ? -1 : !l;
    }
    default: {
        bool same = nd->lt.kind == nd->rt.kind && nd->lt.kind != LT_INT &&
                    nd->lt.index == nd->rt.index &&
                    (nd->lt.kind == LT_LOC || nd->lt.thread == nd->rt.thread);
        if (same)
            return nd->kind == LN_EQ;
        int32_t a, b;
        if (!term_fixed(t, &nd->lt, &a) || !term_fixed(t, &nd->rt, &b))
            return -1;
        return (a == b) == (nd->kind == LN_EQ);
    }
    }
}

int litmus_cond_constant(const struct litmus_test *t)
{
    return fold(t, t->root);
}

int litmus_outcome_cmp(const int32_t *a, const int32_t *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

int litmus_outcome_find(const int32_t *rows, unsigned n_rows, unsigned n, const int32_t *v)
{
    unsigned lo = 0, hi = n_rows;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        int c = litmus_outcome_cmp(rows + (uint64_t)mid * n, v, n);
        if (!c)
            return (int)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

void litmus_obs_name(const struct litmus_test *t, unsigned i, char *buf, size_t len)
{
    const struct litmus_term *o = &t->obs[i];
    if (o->kind == LT_REG)
        snprintf(buf, len, "P%d:r%d", o->thread, o->index);
    else
        snprintf(buf, len, "%s", t->locs[o->index].name);
}

void litmus_outcome_format(const struct litmus_test *t, const int32_t *values, char *buf,
                           size_t len)
{
    size_t off = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < t->n_obs && off < len; i++) {
        char name[48];
        litmus_obs_name(t, i, name, sizeof name);
        int n = snprintf(buf + off, len - off, "%s%s=%d", i ? " " : "", name, (int)values[i]);
        if (n < 0)
            break;
        off += (size_t)n;
    }
}

const char *litmus_unsupported(const struct litmus_test *t)
{
    return litmus_unsupported_on(t, 1, 1, 0);
}

const char *litmus_unsupported_on(const struct litmus_test *t, unsigned gpus, unsigned gpms,
                                  unsigned cpus)
{
    if (t->features & LITMUS_F_PROXY)
        return "uses texture/surface/constant proxies or proxy fences, which the machine does not "
               "model";
    if (t->features & LITMUS_F_ALIAS)
        return "uses virtual-address aliases, which the machine does not model";
    for (unsigned th = 0; th < t->n_threads; th++) {
        if (t->th[th].on_cpu) {
            if ((unsigned)t->th[th].cpu >= cpus)
                return cpus ? "places a thread on a CPU core the machine lacks (cpu.cores)"
                            : "places a thread on a CPU core, and the machine has none "
                              "(cpu.cores, a protocol with CPU devices: spandex-d, spandex-g)";
            continue;
        }
        if ((unsigned)t->th[th].gpu >= gpus)
            return gpus == 1 ? "places threads on several GPUs, which a machine of one GPU "
                               "does not model (topology.gpus)"
                             : "places a thread on a GPU the machine lacks (topology.gpus)";
        if ((unsigned)t->th[th].gpm >= gpms)
            return "places a thread on a GPU module the machine lacks (topology.gpms)";
    }
    return NULL;
}
