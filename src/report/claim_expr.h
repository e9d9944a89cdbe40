/*
 * claim_expr.h - the expressions a reproduction's claims are written in
 * (docs/repro.md): arithmetic, comparisons (chains allowed: 1 < a < b),
 * and/or/not, and calls, over three-valued numbers.
 *
 *   1 < speedup(all, tcw-fixed, tcs) < speedup(all, tcw, tcs)
 *   spread(speedup(inter, mesi), speedup(inter, tcw)) <= 1.15
 *
 * A value is a number or unknown (NaN: a run that failed, a design not
 * built); anything computed from an unknown is unknown, so a claim over one
 * "cannot be checked" rather than silently holding or failing. Truth is 1,
 * 0 or NaN. Calls whose arguments are names (designs, sets, apps, figures)
 * are answered by the caller; min, max and spread are built in.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef REPORT_CLAIM_EXPR_H
#define REPORT_CLAIM_EXPR_H

#include <stddef.h>

#define CX_MAX_ARGS 8

/* A call whose arguments are names: speedup(inter, tcw, nol1). */
struct cx_call {
    const char *fn;
    const char *args[CX_MAX_ARGS];
    unsigned n_args;
    const char *text; /* as written, for the claim's detail */
};

struct cx_node;

/* What a name call's value is. check: 0 if fn and its arguments are known,
 * else -1 with the reason in err (at load time). value: the number or NaN. */
struct cx_env {
    int (*check)(void *ctx, const struct cx_call *c, char *err, size_t errlen);
    double (*value)(void *ctx, const struct cx_call *c);
    void *ctx;
};

/* Parse `text`; NULL with the reason in err on a syntax error or a call
 * env->check refuses. */
struct cx_node *cx_parse(const char *text, const struct cx_env *env, char *err, size_t errlen);
void cx_free(struct cx_node *n);

/* Evaluate. The detail (the name calls' values in order of appearance,
 * "speedup(inter, tcw) 1.17, ...") goes into detail when it is not NULL. */
double cx_eval(const struct cx_node *n, const struct cx_env *env, char *detail, size_t len);

/* How far an expression is from holding: above 0 where it holds (by that
 * much), below where it does not, NaN where it cannot be checked. A
 * comparison's margin is the distance between its sides over the larger one
 * (l < r: (r - l) / max(|l|, |r|); ==: minus that distance); a chain's is
 * its least link's, `and` takes the lesser, `or` the greater, `not` negates.
 * The report weighs an ablation by it: a claim that still fails can be
 * nearer to holding. */
double cx_margin(const struct cx_node *n, const struct cx_env *env);

/* The thresholds an expression compares against: the value of every largest
 * part without calls (1 / 1.07 is one threshold, 0.935), up to max of them;
 * returns how many. */
unsigned cx_constants(const struct cx_node *n, double *out, unsigned max);

/* The name calls of an expression in the order they are written, up to max
 * of them; returns how many. */
unsigned cx_calls(const struct cx_node *n, const struct cx_call **out, unsigned max);

#endif
