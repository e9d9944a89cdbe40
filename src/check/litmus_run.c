/*
 * litmus_run.c - the litmus runner: iterations on a launcher, histogram,
 * oracle (see litmus_run.h).
 *
 * Skips, never passes: a test that needs what gpucoh's machine does not model
 * (proxies, aliases, several GPUs), one that the hardware barriers cannot
 * express, one that can hang (the SC search finds a state where every thread
 * waits), and under a PTX model one whose liveness verdict says a run may
 * never finish where the launcher cannot give a spinning launch up. Every
 * test is judged by the oracle first, so a test with no reference verdict is
 * judged all the same; one beyond the oracle's limits runs unjudged
 * (UNKNOWN), its outcomes recorded. An iteration that does not finish (its
 * warps spun on loads until the machine gave the launch up, or a thread ran
 * out of its spin budget) is an outcome of its own, judged when first seen.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/litmus_run.h"

#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/host.h"

const char *const litmus_status_names[4] = {"PASS", "FAIL", "SKIP", "UNKNOWN"};

static void skip(struct litmus_result *r, const char *why)
{
    r->status = LITMUS_SKIP;
    snprintf(r->reason, sizeof r->reason, "%s", why);
}

/* The random stream of a test comes from its name, not its path, so that a
 * checkout anywhere runs the same iterations. */
static uint64_t name_stream(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
    return h;
}

/* The histogram entry for an outcome, inserted in order if new. */
static struct litmus_hist *hist_entry(struct litmus_result *r, const int32_t *v, unsigned n)
{
    unsigned lo = 0, hi = r->n_hist;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        int c = litmus_outcome_cmp(r->hist[mid].values, v, n);
        if (!c)
            return &r->hist[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    struct litmus_hist *nh = realloc(r->hist, (r->n_hist + 1) * sizeof *nh);
    int32_t *vals = malloc((n ? n : 1) * sizeof *vals);
    if (!nh || !vals) {
        free(vals);
        if (nh)
            r->hist = nh;
        return NULL;
    }
    r->hist = nh;
    memmove(&r->hist[lo + 1], &r->hist[lo], (r->n_hist - lo) * sizeof *nh);
    r->n_hist++;
    memcpy(vals, v, n * sizeof *vals);
    r->hist[lo] = (struct litmus_hist){.values = vals};
    return &r->hist[lo];
}

static bool is_ptx(const char *model)
{
    return !strncmp(model, "ptx", 3);
}

/* The axiom an outcome violates ("violates axiom-Causality"), or NULL. */
static const char *axiom_of(const struct litmus_result *r, const int32_t *v)
{
    static char name[64];
    const struct oracle_result *o = &r->oracle;
    int i = litmus_outcome_find(o->outcomes, o->n_outcomes, o->n_obs, v);
    if (i < 0)
        return "no candidate execution gives it";
    if (!o->why || !o->why[i])
        return NULL;
    sscanf(o->why[i], "violates %63[^:]", name);
    return name;
}

/* The first iteration that did not finish: does the model allow a run that
 * never finishes? (The oracle's liveness search costs more than its outcome
 * search, so only tests that spin pay for it.) */
static int judge_spin(const struct litmus_test *t, int m, const struct litmus_run_opts *o,
                      struct litmus_result *r, char *err, size_t errlen)
{
    struct oracle_result lr;
    struct oracle_opts oo = {.unroll = o->unroll, .liveness = true};
    if (oracle_judge(t, (enum oracle_model)m, &oo, &lr, err, errlen))
        return -1;
    r->spin_forbidden = !lr.may_spin;
    oracle_result_free(&lr);
    return 0;
}

/* Termination of a test whose threads are lanes of one warp, under the
 * modelled scheduler (docs/oracle.md, "The modelled scheduler"): the lanes
 * of a warp follow one PDOM SIMT stack without independent thread
 * scheduling, the later column first and each to its end, so termination is
 * guaranteed iff every fair SC interleaving in that order ends (sc.simt_*)
 * and the model allows no execution that never finishes (judge_spin, run
 * before the iterations: r->spin_forbidden). Where it is not, an iteration
 * that does not finish is a result; where it is, a failure. */
static void simt_progress(struct litmus_result *r)
{
    const struct sc_result *sc = &r->sc;
    r->progress_guaranteed = false;
    if (r->unjudged)
        snprintf(r->progress_why, sizeof r->progress_why,
                 "not judged: the model's liveness is beyond the oracle's limits");
    else if (sc->simt_may_livelock && sc->simt_waiter >= 0)
        snprintf(r->progress_why, sizeof r->progress_why,
                 "not guaranteed under the modelled scheduler (P%d may loop forever while P%d, "
                 "a lane of its warp, waits for it to finish: no independent thread scheduling)",
                 sc->simt_spinner, sc->simt_waiter);
    else if (sc->simt_may_livelock)
        snprintf(r->progress_why, sizeof r->progress_why,
                 "not guaranteed under the modelled scheduler (a fair SC interleaving in the SIMT "
                 "order may run forever, P%d looping)",
                 sc->simt_spinner);
    else if (sc->simt_may_hang)
        snprintf(r->progress_why, sizeof r->progress_why,
                 "not guaranteed under the modelled scheduler (lanes in the SIMT order may wait "
                 "forever at a barrier)");
    else if (!r->spin_forbidden)
        snprintf(r->progress_why, sizeof r->progress_why,
                 "not guaranteed (every fair SC interleaving in the SIMT order ends, but %s "
                 "allows an execution that never finishes)",
                 r->model);
    else {
        r->progress_guaranteed = true;
        snprintf(r->progress_why, sizeof r->progress_why,
                 "guaranteed under the modelled scheduler (every fair SC interleaving in the SIMT "
                 "order ends, and %s allows no execution that never finishes)",
                 r->model);
    }
    r->spin_forbidden = r->progress_guaranteed && r->spins; /* a failure only then */
}

/* Record one finished iteration's outcome (the observed registers from res,
 * the locations read back from mem) in r's histogram, judged on first sight;
 * false when out of memory. */
static bool record_outcome(const struct litmus_test *t, struct litmus_result *r, struct host *h,
                           const struct litmus_ptx *p, const int32_t *res, int32_t *vals,
                           addr_t mem, bool sc_judged, const struct oracle_result *sco)
{
    for (unsigned k = 0; k < t->n_obs; k++) {
        const struct litmus_term *ob = &t->obs[k];
        if (ob->kind == LT_REG) {
            vals[k] = res[k];
        } else {
            uint32_t w;
            host_memcpy_from_dev(h, &w, mem + p->loc_offset[ob->index], 4);
            vals[k] = (int32_t)w;
        }
    }
    struct litmus_hist *e = hist_entry(r, vals, t->n_obs);
    if (!e)
        return false;
    if (!e->count) {
        e->cond = litmus_cond_holds(t, vals);
        e->sc_allowed = sc_judged ? oracle_allows(sco, vals) : sc_allows(&r->sc, vals);
        e->forbidden = !r->unjudged && !oracle_allows(&r->oracle, vals);
    }
    e->count++;
    if (e->cond)
        r->hits++;
    return true;
}

/* The verdict of a run whose iterations are done: forward progress, outcomes
 * the model forbids, and what it allows but never appeared. */
static void judge_run(const struct litmus_test *t, struct litmus_result *r)
{
    /* forward progress: an iteration that did not finish is judged by the
     * model's liveness rule (judge_spin); whether every fair SC interleaving
     * ends is reported beside it, but does not decide: a weak model may let
     * a loop that SC ends spin forever */
    r->progress_guaranteed = !r->sc.may_livelock && !r->sc.may_hang;
    if (r->lanes_share_warp && r->spin_checked)
        simt_progress(r);
    if (r->unjudged) {
        r->status = LITMUS_UNKNOWN; /* r->reason names the limit */
        return;
    }
    r->status = LITMUS_PASS;
    if (r->spin_forbidden) {
        if (r->lanes_share_warp)
            snprintf(r->reason, sizeof r->reason,
                     "did not finish %llu time%s (warps spun on loads), but termination is %s",
                     (unsigned long long)r->spins, r->spins == 1 ? "" : "s", r->progress_why);
        else
            snprintf(r->reason, sizeof r->reason,
                     "did not finish %llu time%s (warps spun on loads), but %s allows no "
                     "execution that never finishes",
                     (unsigned long long)r->spins, r->spins == 1 ? "" : "s", r->model);
        r->status = LITMUS_FAIL;
    }
    for (unsigned i = 0; i < r->n_hist; i++)
        if (r->hist[i].forbidden) {
            char buf[256];
            litmus_outcome_format(t, r->hist[i].values, buf, sizeof buf);
            const char *ax = axiom_of(r, r->hist[i].values);
            if (!r->reason[0])
                snprintf(r->reason, sizeof r->reason, "forbidden by %s%s%.40s: %.200s (%llu times)",
                         r->model, ax ? ", " : "", ax ? ax : "", buf,
                         (unsigned long long)r->hist[i].count);
            r->status = LITMUS_FAIL;
        }
    /* coverage: what the model allows but never appeared */
    if (!is_ptx(r->model)) {
        unsigned seen = 0;
        for (unsigned i = 0; i < r->n_hist; i++)
            seen += !r->hist[i].forbidden;
        r->n_unseen = r->oracle.n_allowed - seen;
        if (r->n_unseen)
            snprintf(r->unseen_note, sizeof r->unseen_note, "%u of %u %s outcomes never observed",
                     r->n_unseen, r->oracle.n_allowed, r->model);
    } else if (r->check == LCHK_ALLOW_C && !r->hits) {
        r->n_unseen = 1;
        snprintf(r->unseen_note, sizeof r->unseen_note,
                 "the condition is allowed (verdict %d) but was never observed", r->verdict);
    } else if (r->check == LCHK_ALLOW_NOT_C && r->hits == r->iterations) {
        r->n_unseen = 1;
        snprintf(r->unseen_note, sizeof r->unseen_note,
                 "a violation of the condition is allowed (verdict %d) but was never observed",
                 r->verdict);
    }
}

int litmus_run(const struct litmus_test *t, const struct litmus_ref *ref, const char *protocol,
               struct launcher l, const struct litmus_run_opts *o, struct litmus_result *r,
               char *err, size_t errlen)
{
    int rc = 0;
    memset(r, 0, sizeof *r);
    r->test = t;
    snprintf(r->protocol, sizeof r->protocol, "%s", protocol);
    r->model = o->model ? o->model : litmus_model_of(protocol);
    int m = oracle_model_find(r->model);
    if (m < 0) {
        snprintf(err, errlen, "%s: no oracle for memory model '%s' (ptx, ptx6, sc, tso)", t->path,
                 r->model);
        return -1;
    }
    r->model = oracle_model_names[m];
    struct oracle_opts oo = {.unroll = o->unroll, .explain = true};
    int judged = oracle_judge(t, (enum oracle_model)m, &oo, &r->oracle, err, errlen);
    if (judged == ORACLE_LIMIT) {
        /* run all the same: the outcomes are recorded, none is judged */
        r->unjudged = true;
        snprintf(r->reason, sizeof r->reason, "oracle limit: %.300s", err);
        err[0] = 0;
    } else if (judged) {
        return -1;
    }
    r->verdict = r->unjudged ? -1 : oracle_verdict(t, &r->oracle);
    if (r->unjudged) {
        /* a constant condition may be decided all the same (its outcomes stay
         * unjudged) */
        char cerr[256];
        oracle_constant_verdict(t, (enum oracle_model)m, o->unroll, &r->verdict, cerr, sizeof cerr);
    }
    r->check = litmus_ptx_check(t->kind, r->verdict);
    r->ref_verdict = !ref ? -1 : m == OM_PTX ? ref->verdict : m == OM_PTX6 ? ref->verdict6 : -1;
    if (r->ref_verdict >= 0 && r->verdict >= 0 && r->ref_verdict != r->verdict) {
        r->ref_disagrees = true;
        r->status = LITMUS_FAIL;
        snprintf(r->reason, sizeof r->reason,
                 "the oracle's %s verdict %d disagrees with the reference verdict %d: a bug in "
                 "one of the two",
                 r->model, r->verdict, r->ref_verdict);
        return 0;
    }
    const char *u =
        litmus_unsupported_on(t, MAX(o->ptx.gpus, 1u), MAX(o->ptx.gpms, 1u), o->ptx.cpus);
    if (u) {
        skip(r, u);
        return 0;
    }
    if (sc_enumerate(t, &r->sc, 0, err, errlen))
        return -1;
    /* the [not SC] marks come from sc.cat, the model an SC run is judged by;
     * from the interleavings when the oracle is beyond its limits */
    bool sc_judged = !r->unjudged;
    if (sc_judged && m != OM_SC) {
        int sj = oracle_judge(t, OM_SC, &(struct oracle_opts){.unroll = o->unroll}, &r->sc_oracle,
                              err, errlen);
        if (sj && sj != ORACLE_LIMIT)
            return -1;
        sc_judged = !sj;
        err[0] = 0;
    }
    const struct oracle_result *sco = m == OM_SC ? &r->oracle : &r->sc_oracle;
    r->sc_cond =
        sc_judged ? oracle_cond_reachable(t, sco, true) : sc_cond_reachable(t, &r->sc, true);
    if (!r->sc.n_outcomes) {
        skip(r, r->sc.may_hang ? "every execution waits forever at a barrier (a liveness test)"
                               : "no interleaving terminates (a liveness test)");
        return 0;
    }
    if (r->sc.may_hang) {
        skip(r, "some executions wait forever at a barrier; a run could hang");
        return 0;
    }
    bool spin_stops = l.ops->set_spin_stops && l.ops->spin_stopped;
    if (is_ptx(r->model) && ref && ref->liveness == 0 && !spin_stops) {
        /* the model allows runs that never finish (a weak polling loop may
         * keep reading a stale value); a launch cannot be abandoned midway */
        skip(r, "PTX liveness verdict 0: a run may spin forever, and a hung launch cannot be "
                "stopped");
        return 0;
    }
    struct litmus_ptx p;
    char why[256];
    if (litmus_ptx_build(t, &o->ptx, &p, why, sizeof why)) {
        skip(r, why);
        return 0;
    }

    struct host *h = host_new(l);
    if (spin_stops)
        l.ops->set_spin_stops(l.obj, true);
    char fname[600];
    snprintf(fname, sizeof fname, "%s (translated)", t->path);
    host_load_ptx(h, p.text, fname);
    addr_t mem = host_malloc(h, p.mem_bytes), out = host_malloc(h, p.out_bytes);
    uint8_t *image = calloc(1, p.mem_bytes);
    int32_t *res = calloc(1, p.out_bytes), *vals = calloc(t->n_obs + 1, sizeof *vals);
    if (!image || !res || !vals) {
        snprintf(err, errlen, "out of memory");
        free(image), free(res), free(vals);
        host_delete(h);
        litmus_ptx_free(&p);
        return -1;
    }
    for (unsigned k = 0; k < t->n_locs; k++)
        if (t->locs[k].alias_of < 0)
            memcpy(image + p.loc_offset[k], &t->locs[k].init, 4);
    struct rng rng;
    rng_seed(&rng, o->seed, name_stream(t->name));
    struct karg args[2 + 2 * LITMUS_MAX_THREADS + 3];
    unsigned n_args = 0;
    args[n_args++] = KARG_PTR(mem);
    args[n_args++] = KARG_PTR(out);
    for (unsigned th = 0; th < t->n_threads; th++)
        args[n_args++] = KARG_U32(0);
    args[n_args++] = KARG_U32(o->warm_delay);
    unsigned wmask_at = n_args;
    for (unsigned th = 0; th < t->n_threads; th++)
        args[n_args++] = KARG_U32(0);
    unsigned cpu_at = p.n_cpu_ctas ? n_args++ : 0; /* p_cpu */
    if (p.spin_flags)
        args[n_args++] = KARG_U32(o->ptx.spin_budget); /* p_spin */
    r->spin_checked = p.spin_flags;
    r->lanes_share_warp = r->sc.simt_ordered;
    if (r->lanes_share_warp && p.spin_flags && !r->unjudged && judge_spin(t, m, o, r, err, errlen))
        rc = -1; /* lanes of one warp: the model's liveness is part of the verdict below */

    for (unsigned it = 0; it < o->iterations && !rc; it++) {
        for (unsigned th = 0; th < t->n_threads; th++) {
            args[2 + th] = KARG_U32((uint32_t)rng_below(&rng, (uint64_t)o->max_skew + 1));
            /* each location pre-warmed in this thread's L1 with probability 1/2 */
            args[wmask_at + th] = KARG_U32((uint32_t)rng_next(&rng));
        }
        host_memcpy_to_dev(h, mem, image, p.mem_bytes);
        host_memset(h, out, 0, p.out_bytes);
        if (p.n_cpu_ctas) { /* the CPU's threads, at the same time as the GPU's */
            args[cpu_at] = KARG_U32(1);
            host_launch_on(h, HOST_CPU, p.n_ctas != 0, p.kernel, DIM1(p.n_cpu_ctas), DIM1(1), 0,
                           args, n_args);
        }
        if (p.n_ctas) {
            if (p.n_cpu_ctas)
                args[cpu_at] = KARG_U32(0);
            host_launch(h, p.kernel, DIM1(p.n_ctas), DIM1(32 * p.warps_per_cta), 0, args, n_args);
        }
        r->iterations++;
        bool stopped = spin_stops && l.ops->spin_stopped(l.obj);
        uint32_t spun = 0; /* threads that ran out of their spin budget */
        if (!stopped) {
            host_memcpy_from_dev(h, res, out, p.out_bytes);
            for (unsigned th = 0; th < t->n_threads && p.spin_flags; th++)
                if (res[p.spin_offset / 4 + th])
                    spun |= 1u << th;
            if (spun && !r->n_spun)
                r->first_spun = (unsigned)__builtin_ctz(spun);
            r->n_spun += spun != 0;
        }
        if (stopped || spun) { /* no final state: the iteration did not finish */
            if (!r->spins++ && !r->unjudged && !r->lanes_share_warp &&
                judge_spin(t, m, o, r, err, errlen)) {
                rc = -1;
                break;
            }
            continue;
        }
        if (!record_outcome(t, r, h, &p, res, vals, mem, sc_judged, sco)) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
            break;
        }
    }
    if (spin_stops)
        l.ops->set_spin_stops(l.obj, false);
    free(image);
    free(res);
    free(vals);
    host_delete(h);
    litmus_ptx_free(&p);
    if (rc)
        return rc;

    judge_run(t, r);
    return 0;
}

void litmus_result_free(struct litmus_result *r)
{
    for (unsigned i = 0; i < r->n_hist; i++)
        free(r->hist[i].values);
    free(r->hist);
    sc_result_free(&r->sc);
    oracle_result_free(&r->oracle);
    oracle_result_free(&r->sc_oracle);
    memset(r, 0, sizeof *r);
}

void litmus_result_print(const struct litmus_result *r, FILE *out)
{
    const struct litmus_test *t = r->test;
    fprintf(out, "%s (%s) on %s [model %s]\n", t->path, t->name, r->protocol, r->model);
    if (r->status == LITMUS_SKIP || r->ref_disagrees) {
        fprintf(out, "  %s (%s)\n", r->ref_disagrees ? "FAIL" : "SKIP", r->reason);
        return;
    }
    char buf[512];
    fprintf(out, "  %u iterations, histogram:\n", r->iterations);
    for (unsigned i = 0; i < r->n_hist; i++) {
        litmus_outcome_format(t, r->hist[i].values, buf, sizeof buf);
        fprintf(out, "  %10llu %c %s%s%s\n", (unsigned long long)r->hist[i].count,
                r->hist[i].cond ? '*' : ':', buf, r->hist[i].sc_allowed ? "" : "  [not SC]",
                r->hist[i].forbidden ? "  <-- FORBIDDEN" : "");
    }
    if (r->spins)
        fprintf(out, "  %10llu : did not finish (spin on loads)%s\n", (unsigned long long)r->spins,
                r->spin_forbidden ? "  <-- FORBIDDEN" : "");
    fprintf(out, "  hits: %llu of %u satisfy the condition (%s ...)%s\n",
            (unsigned long long)r->hits, r->iterations, litmus_kind_names[t->kind],
            r->sc_cond ? "; SC can reach it" : "; SC cannot reach it");
    if (r->spin_checked)
        fprintf(out,
                "  forward progress: %u of %u iterations finished within the spin budget; "
                "termination %s\n",
                r->iterations - r->n_spun, r->iterations,
                r->lanes_share_warp ? r->progress_why
                : r->progress_guaranteed
                    ? "guaranteed under SC (every fair interleaving ends)"
                    : "not guaranteed (a fair SC interleaving may run forever)");
    const char *constant = oracle_constant_note(t);
    if (r->status == LITMUS_UNKNOWN) {
        if (r->verdict >= 0)
            fprintf(out, "  verdict: %s oracle = %d (%s), %s; outcomes unjudged (%s)\n", r->model,
                    r->verdict, litmus_check_names[r->check], constant, r->reason);
        else
            fprintf(out, "  verdict: unknown (%s)\n", r->reason);
        fprintf(out, "  UNKNOWN (oracle limit)\n");
        return;
    }
    fprintf(out, "  verdict: %s oracle = %d (%s), %u of %u outcomes allowed", r->model, r->verdict,
            litmus_check_names[r->check], r->oracle.n_allowed, r->oracle.n_outcomes);
    if (constant[0])
        fprintf(out, "; %s", constant);
    if (r->ref_verdict >= 0)
        fprintf(out, "; reference agrees");
    fprintf(out, "\n");
    if (r->n_unseen)
        fprintf(out, "  note: %s\n", r->unseen_note);
    if (r->status == LITMUS_FAIL) {
        fprintf(out, "  FAIL (%s)\n", r->reason);
        /* why the model forbids the first forbidden outcome observed */
        for (unsigned i = 0; i < r->n_hist && !r->spin_forbidden; i++) {
            if (!r->hist[i].forbidden)
                continue;
            const struct oracle_result *o = &r->oracle;
            int k = litmus_outcome_find(o->outcomes, o->n_outcomes, o->n_obs, r->hist[i].values);
            if (k >= 0 && o->why && o->why[k])
                fprintf(out, "  why: %s", o->why[k]);
            break;
        }
    } else
        fprintf(out, "  PASS\n");
}
