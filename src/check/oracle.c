/*
 * oracle.c - candidate executions of a litmus test and their judgement by a
 * cat model (see oracle.h): the models, the entry point, failures and the
 * result. The stages are in files of their own, sharing oracle_int.h:
 * oracle_trace.c (1), oracle_build.c (2), oracle_choose.c (3) and
 * oracle_explain.c (why a candidate is forbidden).
 *
 * Three stages: (1) per thread, every trace (events, final registers,
 * dependencies) for the values loads may return, iterated until the set of
 * values each location can hold stops growing; (2) per combination of one
 * trace per thread, the execution's fixed relations (po, loc, scopes, ...)
 * and the barrier pairing; (3) the choices inside it: coherence orders, then
 * (skipped when the outcome they give is already known to be allowed)
 * reads-from, the fence.sc order and the barrier completers, each candidate
 * evaluated by the model.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/oracle_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

extern const char catm_ptx_v7_5[], catm_ptx_v6_0[], catm_sc[], catm_tso[];

const char *const oracle_model_names[OM_N] = {"ptx", "ptx6", "sc", "tso"};
static const char *const model_files[OM_N] = {"litmus/models/ptx-v7.5.cat",
                                              "litmus/models/ptx-v6.0.cat", "litmus/models/sc.cat",
                                              "litmus/models/tso.cat"};

int oracle_model_find(const char *name)
{
    for (int i = 0; i < OM_N; i++)
        if (!strcmp(name, oracle_model_names[i]))
            return i;
    return -1;
}

const struct cat_model *oracle_cat(enum oracle_model m)
{
    static struct cat_model *models[OM_N];
    static const char *const texts[OM_N] = {catm_ptx_v7_5, catm_ptx_v6_0, catm_sc, catm_tso};
    if (!models[m]) {
        char err[512];
        models[m] = cat_parse(texts[m], model_files[m], err, sizeof err);
        if (!models[m])
            fatal("built-in model: %s", err); /* the build embeds checked files */
    }
    return models[m];
}

static void vfail(struct ctx *c, int line, const char *fmt, va_list ap)
{
    if (c->failed)
        return;
    c->failed = true;
    int n = line > 0 ? snprintf(c->err, c->errlen, "%s:%d: ", c->t->path, line)
                     : snprintf(c->err, c->errlen, "%s: ", c->t->path);
    if (n >= 0 && (size_t)n < c->errlen)
        vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
}

/* The test is outside what the oracle handles (an unsupported instruction). */
void oracle_fail(struct ctx *c, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(c, line, fmt, ap);
    va_end(ap);
}

/* The test is beyond the oracle's limits (events, paths, values, candidates,
 * the unroll bound): ORACLE_LIMIT, a test that can still run unjudged. */
void oracle_fail_limit(struct ctx *c, int line, const char *fmt, ...)
{
    if (!c->failed)
        c->limit = true;
    va_list ap;
    va_start(ap, fmt);
    vfail(c, line, fmt, ap);
    va_end(ap);
}

/* ---- results ---- */

static unsigned sort_n;
static int cmp_rows(const void *a, const void *b)
{
    return litmus_outcome_cmp(*(int32_t *const *)a, *(int32_t *const *)b, sort_n);
}

static int sort_result(struct oracle_result *r)
{
    unsigned k = r->n_outcomes, n = r->n_obs;
    if (k < 2)
        return 0;
    int32_t **rows = malloc(k * sizeof *rows);
    int32_t *vals = malloc((uint64_t)k * (n ? n : 1) * sizeof *vals);
    bool *al = malloc(k * sizeof *al);
    char **why = malloc(k * sizeof *why);
    if (!rows || !vals || !al || !why) {
        free(rows), free(vals), free(al), free(why);
        return -1;
    }
    for (unsigned i = 0; i < k; i++)
        rows[i] = r->outcomes + (uint64_t)i * n;
    sort_n = n;
    qsort(rows, k, sizeof *rows, cmp_rows);
    for (unsigned i = 0; i < k; i++) {
        unsigned from = (unsigned)((rows[i] - r->outcomes) / (n ? n : 1));
        memcpy(vals + (uint64_t)i * n, rows[i], n * sizeof *vals);
        al[i] = r->allowed[from];
        why[i] = r->why[from];
    }
    free(r->outcomes), free(r->allowed), free(r->why), free(rows);
    r->outcomes = vals;
    r->allowed = al;
    r->why = why;
    return 0;
}

int oracle_judge(const struct litmus_test *t, enum oracle_model m, const struct oracle_opts *o,
                 struct oracle_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->model = m;
    r->n_obs = t->n_obs;
    struct ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        return -1;
    }
    c->t = t;
    c->cat = oracle_cat(m);
    c->unroll = o && o->unroll ? o->unroll : ORACLE_DEFAULT_UNROLL;
    c->explain = o && o->explain;
    c->liveness = o && o->liveness;
    c->first_finishing = o && o->first_finishing && !c->liveness;
    c->partial_co = m == OM_PTX || m == OM_PTX6; /* "the co in PTX is not total" */
    c->err = err;
    c->errlen = errlen;
    c->r = r;
    r->unroll = c->unroll;
    oracle_chain_locations(c, m);
    oracle_make_traces(c);
    if (!c->failed)
        oracle_combine(c, 0);
    if (!c->failed && c->first_finishing && !c->found && c->deferred_cut)
        oracle_fail_limit(
            c, c->deferred_cut,
            "a loop takes more than %u backward jumps (the unroll bound) in a consistent "
            "execution, and none within the bound finishes",
            c->unroll);
    r->max_backjumps = c->max_backjumps;
    for (unsigned th = 0; th < LITMUS_MAX_THREADS; th++)
        free(c->ts[th].v);
    bool failed = c->failed, limit = c->limit;
    free(c);
    if (!failed && sort_result(r)) {
        snprintf(err, errlen, "%s: out of memory", t->path);
        failed = true;
    }
    if (failed) {
        oracle_result_free(r);
        return limit ? ORACLE_LIMIT : -1;
    }
    for (unsigned i = 0; i < r->n_outcomes; i++)
        r->n_allowed += r->allowed[i];
    return 0;
}

void oracle_result_free(struct oracle_result *r)
{
    if (r->why)
        for (unsigned i = 0; i < r->n_outcomes; i++)
            free(r->why[i]);
    free(r->why);
    free(r->outcomes);
    free(r->allowed);
    memset(r, 0, sizeof *r);
}

bool oracle_allows(const struct oracle_result *r, const int32_t *values)
{
    int i = litmus_outcome_find(r->outcomes, r->n_outcomes, r->n_obs, values);
    return i >= 0 && r->allowed[i];
}

bool oracle_cond_reachable(const struct litmus_test *t, const struct oracle_result *r, bool want)
{
    for (unsigned i = 0; i < r->n_outcomes; i++)
        if (r->allowed[i] && litmus_cond_holds(t, r->outcomes + (uint64_t)i * r->n_obs) == want)
            return true;
    return false;
}

/* A constant condition's verdict from its value and whether some execution
 * finishes (any: 1, none: 0, unknown: -1); -1 when that is unknown and
 * matters. */
static int constant_verdict(enum litmus_kind kind, bool holds, int any)
{
    switch (kind) {
    case LITMUS_EXISTS:
        return !holds ? 0 : any;
    case LITMUS_NOT_EXISTS:
        return !holds ? 1 : any < 0 ? -1 : !any;
    default:
        return holds ? 1 : any < 0 ? -1 : !any;
    }
}

int oracle_verdict(const struct litmus_test *t, const struct oracle_result *r)
{
    int holds = litmus_cond_constant(t);
    if (holds >= 0)
        return constant_verdict(t->kind, holds, r->n_allowed > 0);
    switch (t->kind) {
    case LITMUS_EXISTS:
        return oracle_cond_reachable(t, r, true);
    case LITMUS_NOT_EXISTS:
        return !oracle_cond_reachable(t, r, true);
    default:
        return !oracle_cond_reachable(t, r, false);
    }
}

bool oracle_constant_verdict(const struct litmus_test *t, enum oracle_model m, unsigned unroll,
                             int *verdict, char *err, size_t errlen)
{
    int holds = litmus_cond_constant(t);
    if (holds < 0)
        return false;
    *verdict = constant_verdict(t->kind, holds, -1);
    if (*verdict >= 0)
        return true;
    struct oracle_result r;
    struct oracle_opts o = {.unroll = unroll, .first_finishing = true};
    if (!oracle_judge(t, m, &o, &r, err, errlen)) {
        *verdict = constant_verdict(t->kind, holds, r.n_allowed > 0);
        oracle_result_free(&r);
    }
    return true;
}

const char *oracle_constant_note(const struct litmus_test *t)
{
    int holds = litmus_cond_constant(t);
    if (holds < 0)
        return "";
    bool needs_any = constant_verdict(t->kind, holds, -1) < 0;
    if (holds)
        return needs_any ? "constant condition (true in every outcome): the verdict is whether "
                           "some execution finishes"
                         : "constant condition (true in every outcome): the verdict holds "
                           "whatever the executions";
    return needs_any ? "constant condition (false in every outcome): the verdict is whether "
                       "some execution finishes"
                     : "constant condition (false in every outcome): the verdict holds "
                       "whatever the executions";
}

void oracle_print(const struct litmus_test *t, const struct oracle_result *r, FILE *out)
{
    char buf[512];
    for (unsigned i = 0; i < r->n_outcomes; i++) {
        const int32_t *v = r->outcomes + (uint64_t)i * r->n_obs;
        litmus_outcome_format(t, v, buf, sizeof buf);
        fprintf(out, "  %-9s %c %s\n", r->allowed[i] ? "allowed" : "FORBIDDEN",
                litmus_cond_holds(t, v) ? '*' : ':', buf);
        if (!r->allowed[i] && r->why && r->why[i])
            fprintf(out, "    %s", r->why[i]);
    }
}
