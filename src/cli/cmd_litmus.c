/*
 * cmd_litmus.c - `gpucoh litmus`: the validation harness's front-end.
 *
 * Reads every test first (a malformed file is reported, file:line, and left
 * out; the others still run), then either judges them with the oracle alone
 * (--explain) or, for each protocol, builds one machine (or the functional
 * runner) with the litmus randomisation switched on, runs each test through
 * litmus_run, prints per-test reports and per-protocol totals, and writes
 * --json whole. A launch that spins forever is an outcome ("did not finish",
 * litmus_run.h), not a fault. Exit status: 0 all passed or skipped, 1 a
 * forbidden outcome was observed (or the oracle and a reference verdict disagree), 2 usage or
 * input error (also after the other tests ran), 3 simulator fault.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cli/cmd_litmus.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/log.h"
#include "check/litmus_run.h"
#include "cli/common.h"
#include "coh/proto.h"

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: gpucoh litmus [--protocol NAME|all] [--functional] [--config F] [--set K=V]\n"
        "                     [--model ptx|ptx6|sc|tso] [--explain] [--unroll N]\n"
        "                     [--iterations N] [--spin-budget N] [--seed S] [--json FILE]\n"
        "                     [--core] [--skew N] [--jitter N] [--no-prewarm] [--all-lanes]\n"
        "                     [--pack]\n"
        "                     FILE|DIR...\n"
        "\n"
        "Runs PTX litmus tests (the dialect of the suite in litmus/, see litmus/README.md)\n"
        "many times on the simulated GPU and prints, per test, the histogram of final\n"
        "outcomes (registers and memory), how many iterations satisfied the test's\n"
        "condition (hits), the model's verdict, and PASS, FAIL or SKIP(reason).\n"
        "\n"
        "Each litmus thread becomes one warp of a generated kernel, placed on the CTA its\n"
        "annotation names (CTA i runs on SM i). Every iteration is a fresh launch with new\n"
        "random start skews and pre-warmed L1s, and the machine adds random delays where\n"
        "it offers them (l2.jitter_cycles, noc.jitter_cycles, dram.jitter_cycles) and\n"
        "random bank conflicts (noc.conflict_pct). A thread annotated P1@cpu N runs on\n"
        "CPU core N (machines with cpu.cores, e.g. configs/spandex.ini; docs/cpu.md), in a\n"
        "launch on the CPU cores that runs together with the GPU's; it shares only .sys\n"
        "scope with the other threads (litmus/cpu-gpu).\n"
        "\n"
        "The model a run is judged by is the one the machine promises: its protocol's\n"
        "under order.model=rmo (ptx), and tso or sc under order.model=tso, sc or\n"
        "sc-typeaware on a write-atomic protocol (gpucoh list protocols; other\n"
        "combinations are refused, and --protocol all skips them with a line saying so).\n"
        "\n"
        "The oracle: every test is judged by gpucoh's own memory-model oracle, which\n"
        "enumerates the test's candidate executions (reads-from, coherence order, RMW\n"
        "values, fence.sc order, barrier pairing; spin loops and retry loops of atomics\n"
        "cut, other loops unrolled up to --unroll; docs/oracle.md) and evaluates a cat\n"
        "model on each: ptx (PTX ISA 7.5, the mixed-proxy model), ptx6 (PTX 6.0), sc\n"
        "(sequential consistency) or tso (x86-TSO); the models are litmus/models/*.cat,\n"
        "built into gpucoh. An observed outcome the model does not allow is a FAIL\n"
        "(exit 1), whether or not the test has a reference verdict; a test of your own\n"
        "is judged the same way. Where the suite's reference verdicts (litmus/expected,\n"
        "computed by Dat3M) cover the test under the model, the oracle's verdict must\n"
        "equal it: a disagreement is a FAIL that names both. An allowed outcome never\n"
        "observed is a note. Tests needing what the simulated machine does not model\n"
        "(proxies, aliases, several GPUs) and tests that can hang at a barrier are\n"
        "skipped, never passed. A test beyond the oracle's limits (a loop past\n"
        "--unroll, a million candidate executions) still runs: its outcomes are recorded\n"
        "unjudged, reported UNKNOWN (oracle limit) and counted apart.\n"
        "\n"
        "A launch whose warps spin on loads for sim.spin_cycles while the memory system\n"
        "still answers them is given up: the histogram counts it as 'did not finish\n"
        "(spin on loads)', and the oracle judges it: allowed when some execution the\n"
        "model allows spins forever, each spinning load reading a write no other is\n"
        "coherence-after (a .weak poll of a flag two threads write, as in\n"
        "XF-Barrier-weak); otherwise a FAIL. The next test still runs. A request stuck\n"
        "in the memory system meanwhile is a simulator fault (exit 3).\n"
        "\n"
        "  --protocol NAME|all  protocol to run on (repeatable); all = every registered one\n"
        "                       but the multi-GPM ones (name those: nhcc, hmg, ...);\n"
        "                       default: the configuration's protocol\n"
        "  --functional         run in functional mode (SC at instruction granularity)\n"
        "  --model M            judge by model M instead of the one the machine promises\n"
        "                       (--functional promises sc)\n"
        "  --explain            run nothing: print every final outcome of each test with\n"
        "                       allowed/forbidden under the model (default ptx) and, for a\n"
        "                       forbidden one, the axiom it violates and a witness cycle of\n"
        "                       events and relations; then the verdict and the reference's,\n"
        "                       and for a test with branches whether a run may never\n"
        "                       finish (and the reference's liveness verdict)\n"
        "  --unroll N           backward jumps a loop that stores may take (default 8); a\n"
        "                       test that needs more gets no verdict: unknown when run,\n"
        "                       an error (exit 2) with --explain\n"
        "  --iterations N       launches per test and protocol (default 100)\n"
        "  --spin-budget N      backward jumps a looping thread may take in one launch\n"
        "                       (default 4096; 0: unbounded, the kernel without the\n"
        "                       check; tests with CTA barriers run without one); one\n"
        "                       that runs out gives up, and its iteration \"did not\n"
        "                       finish\": a FAIL where the model allows no execution\n"
        "                       that never ends (docs/oracle.md)\n"
        "  --seed S             seed of the randomisation (default 1); same seed, same run\n"
        "  --json FILE          per-test results of the runs: path, name, protocol, model,\n"
        "                       iterations, histogram, did_not_finish (and whether the\n"
        "                       model forbids it), hits, verdicts, pass/fail/skip\n"
        "  --core               run only the core subset of litmus/index.csv\n"
        "  --dry-run            read and check every test, run nothing (exit 0 or 2)\n"
        "  --skew N             start skew per thread, up to N delay-loop turns (default 64)\n"
        "  --jitter N           up to N extra cycles per L2/network/DRAM response (default 16)\n"
        "  --no-prewarm         do not pre-load the L1s with the initial values\n"
        "  --all-lanes          all 32 lanes of a litmus warp do the loads and stores\n"
        "  --pack               put the locations in one line instead of a line each\n"
        "  --config F, --set K=V  machine configuration, as for gpucoh run\n"
        "  --stats FILE.json    every statistic of the machine after all tests\n"
        "                       (docs/stats.md; one protocol, or --functional)\n"
        "  --coverage FILE      how often each protocol transition fired (one protocol)\n"
        "\n"
        "exit status: 0 no forbidden outcome, 1 a forbidden outcome (or a run that did\n"
        "not finish where the model forbids it) was observed or the oracle disagrees\n"
        "with a reference verdict, 2 usage or input error (a malformed test, or under\n"
        "--explain one the oracle cannot enumerate: file:line; the other tests still\n"
        "run), 3 simulator fault; unknown (oracle limit) leaves it as it is\n"
        "\n"
        "examples:\n"
        "  gpucoh litmus --explain litmus/ptx/Manual/MP-gpu.litmus\n"
        "  gpucoh litmus --explain --model tso litmus/ptx/Manual/SB-weak.litmus\n"
        "  gpucoh litmus --functional --iterations 20 litmus/ptx/Manual/MP-gpu.litmus\n"
        "  gpucoh litmus --protocol all --core --json out.json litmus/ptx\n");
}

/* Whether the configuration the options name (`protocol` among them) refuses
 * `protocol` under its order.model: it does not load, and does load with a
 * write-atomic protocol in place, which every model accepts, under a model
 * the protocol makes no promise under. A configuration that does not load
 * for another reason is left to sim_open. */
static bool refused(const struct sim_opts *o, const char *protocol)
{
    const struct proto_desc *p = proto_find(protocol), *const *wa = proto_registry;
    while (*wa && !(*wa)->write_atomic)
        wa++;
    if (!p || !*wa || o->n_sets + 1 > SIM_MAX_SETS)
        return false;
    const char *file = o->config_file ? o->config_file : config_default_file();
    struct config c;
    char err[512];
    if (!config_load(&c, file, o->sets, o->n_sets, err, sizeof err))
        return false; /* it runs (under the model it requires, when nobody chose one) */
    const char *sets[SIM_MAX_SETS + 1];
    char set_proto[96];
    memcpy(sets, o->sets, o->n_sets * sizeof *sets);
    snprintf(set_proto, sizeof set_proto, "coherence.protocol=%s", (*wa)->name);
    sets[o->n_sets] = set_proto;
    if (config_load(&c, file, sets, o->n_sets + 1, err, sizeof err))
        return false;
    return !proto_promise(p, c.sm.order.model);
}

struct file_list {
    char **v;
    unsigned n, cap;
};

static void add_file(struct file_list *l, const char *p)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v)
            fatal("out of memory");
    }
    l->v[l->n] = strdup(p);
    if (!l->v[l->n])
        fatal("out of memory");
    l->n++;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add FILE, or every *.litmus under DIR in sorted order. */
static void collect(struct file_list *l, const char *path)
{
    struct stat st;
    if (stat(path, &st))
        fatal("%s: %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode)) {
        add_file(l, path);
        return;
    }
    DIR *d = opendir(path);
    if (!d)
        fatal("%s: %s", path, strerror(errno));
    struct file_list here = {0};
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        size_t n = strlen(e->d_name);
        struct stat s2;
        if (!stat(p, &s2) && S_ISDIR(s2.st_mode))
            add_file(&here, p);
        else if (n > 7 && !strcmp(e->d_name + n - 7, ".litmus"))
            add_file(&here, p);
    }
    closedir(d);
    if (here.n) /* an empty folder has no array: qsort must not be given NULL */
        qsort(here.v, here.n, sizeof *here.v, cmp_str);
    for (unsigned i = 0; i < here.n; i++) {
        if (!stat(here.v[i], &st) && S_ISDIR(st.st_mode))
            collect(l, here.v[i]);
        else
            add_file(l, here.v[i]);
        free(here.v[i]);
    }
    free(here.v);
}

/* --protocol NAME, repeatable; "all" selects every protocol a litmus pass takes. */
struct protocol_choice {
    const char **names;
    unsigned n, max;
    bool all;
};

static int take_protocol(void *ctx, const char *name, const char *value, char *err, size_t errlen)
{
    struct protocol_choice *pc = ctx;
    if (!strcmp(value, "all")) {
        pc->all = true;
        return 0;
    }
    if (pc->n == pc->max) {
        snprintf(err, errlen, "%s: at most %u protocols", name, pc->max);
        return -1;
    }
    pc->names[pc->n++] = value;
    return 0;
}

static int take_model(void *ctx, const char *name, const char *value, char *err, size_t errlen)
{
    if (oracle_model_find(value) < 0) {
        snprintf(err, errlen, "%s: expected ptx, ptx6, sc or tso, got '%s'", name, value);
        return -1;
    }
    *(const char **)ctx = value;
    return 0;
}

static cJSON *result_json(const struct litmus_result *r)
{
    const struct litmus_test *t = r->test;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "path", t->path);
    cJSON_AddStringToObject(o, "name", t->name);
    cJSON_AddStringToObject(o, "protocol", r->protocol);
    cJSON_AddStringToObject(o, "model", r->model);
    cJSON_AddStringToObject(o, "condition", litmus_kind_names[t->kind]);
    cJSON_AddNumberToObject(o, "iterations", r->iterations);
    cJSON *h = cJSON_AddArrayToObject(o, "histogram");
    for (unsigned i = 0; i < r->n_hist; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON *oc = cJSON_AddObjectToObject(e, "outcome");
        for (unsigned k = 0; k < t->n_obs; k++) {
            char name[48];
            litmus_obs_name(t, k, name, sizeof name);
            cJSON_AddNumberToObject(oc, name, r->hist[i].values[k]);
        }
        cJSON_AddNumberToObject(e, "count", (double)r->hist[i].count);
        cJSON_AddBoolToObject(e, "condition_holds", r->hist[i].cond);
        cJSON_AddBoolToObject(e, "sc_allowed", r->hist[i].sc_allowed);
        cJSON_AddBoolToObject(e, "forbidden", r->hist[i].forbidden);
        cJSON_AddItemToArray(h, e);
    }
    cJSON_AddNumberToObject(o, "did_not_finish", (double)r->spins);
    cJSON_AddBoolToObject(o, "did_not_finish_forbidden", r->spin_forbidden);
    cJSON_AddNumberToObject(o, "hits", (double)r->hits);
    if (r->unjudged)
        cJSON_AddNullToObject(o, "verdict");
    else
        cJSON_AddNumberToObject(o, "verdict", r->verdict);
    cJSON_AddStringToObject(o, "verdict_use", litmus_check_names[r->check]);
    cJSON_AddNumberToObject(o, "outcomes_allowed", r->oracle.n_allowed);
    if (r->ref_verdict >= 0)
        cJSON_AddNumberToObject(o, "reference_verdict", r->ref_verdict);
    else
        cJSON_AddNullToObject(o, "reference_verdict");
    cJSON_AddBoolToObject(o, "sc_reaches_condition", r->sc_cond);
    if (r->spin_checked) {
        cJSON_AddNumberToObject(o, "iterations_out_of_spin_budget", r->n_spun);
        cJSON_AddBoolToObject(o, "termination_guaranteed", r->progress_guaranteed);
        if (r->lanes_share_warp) /* judged under the SIMT order: why */
            cJSON_AddStringToObject(o, "termination", r->progress_why);
    }
    static const char *const st[4] = {"pass", "fail", "skip", "unknown"};
    cJSON_AddStringToObject(o, "result", st[r->status]);
    if (r->reason[0])
        cJSON_AddStringToObject(o, "reason", r->reason);
    if (r->n_unseen)
        cJSON_AddStringToObject(o, "allowed_never_observed", r->unseen_note);
    return o;
}

/* The end of an --explain verdict line: whether the reference verdict
 * agrees. Returns EXIT_CHECK_FAILED when it disagrees, else 0. */
static int check_ref(const struct litmus_ref *refs, unsigned i, enum oracle_model m, int v)
{
    int ref = m == OM_PTX ? refs[i].verdict : m == OM_PTX6 ? refs[i].verdict6 : -1;
    if (ref < 0) {
        printf("; no reference verdict\n");
        return 0;
    }
    if (ref == v) {
        printf("; the reference verdict agrees\n");
        return 0;
    }
    printf("; DISAGREES with the reference verdict %d (a bug in one of the two)\n", ref);
    return EXIT_CHECK_FAILED;
}

/* --explain: the oracle's judgement of every test, nothing run. Returns 1
 * when the oracle disagrees with a reference verdict, else 0; counts tests
 * it cannot enumerate in *n_bad. */
static int explain_all(const struct litmus_test *tests, const struct litmus_ref *refs,
                       const bool *bad, unsigned n, const struct litmus_run_opts *ro,
                       bool core_only, unsigned *n_bad)
{
    const char *mname = ro->model ? ro->model : "ptx";
    enum oracle_model m = (enum oracle_model)oracle_model_find(mname);
    struct oracle_opts oo = {.unroll = ro->unroll, .explain = true};
    int rc = 0;
    char err[1024];
    for (unsigned i = 0; i < n; i++) {
        if (bad[i] || (core_only && refs[i].core != 1))
            continue;
        const struct litmus_test *t = &tests[i];
        struct oracle_result r;
        int judged = oracle_judge(t, m, &oo, &r, err, sizeof err), v;
        char cerr[256];
        if (judged == ORACLE_LIMIT &&
            oracle_constant_verdict(t, m, ro->unroll, &v, cerr, sizeof cerr) && v >= 0) {
            /* the outcomes are beyond the limits, the constant condition is not */
            printf("%s (%s) [model %s: %s]\n", t->path, t->name, mname, cat_title(oracle_cat(m)));
            printf("  outcomes not enumerated (%s)\n", err);
            printf("  verdict: %s ... is %d (%s), %s", litmus_kind_names[t->kind], v,
                   litmus_check_names[litmus_ptx_check(t->kind, v)], oracle_constant_note(t));
            rc |= check_ref(refs, i, m, v);
            continue;
        }
        if (judged) {
            fprintf(stderr, "gpucoh litmus: %s\n", err);
            (*n_bad)++;
            continue;
        }
        printf("%s (%s) [model %s: %s]\n", t->path, t->name, mname, cat_title(oracle_cat(m)));
        printf("  %u outcomes of %llu candidate executions; '*' marks the condition's "
               "outcomes; loops unrolled up to %u backward jumps (%u used)\n",
               r.n_outcomes, (unsigned long long)r.n_candidates, r.unroll, r.max_backjumps);
        oracle_print(t, &r, stdout);
        v = oracle_verdict(t, &r);
        printf("  verdict: %s ... is %d (%s)", litmus_kind_names[t->kind], v,
               litmus_check_names[litmus_ptx_check(t->kind, v)]);
        if (oracle_constant_note(t)[0])
            printf(", %s", oracle_constant_note(t));
        rc |= check_ref(refs, i, m, v);
        oracle_result_free(&r);
        if (t->features & LITMUS_F_CONTROL) { /* a loop may spin forever */
            struct oracle_opts lo = {.unroll = ro->unroll, .liveness = true};
            if (oracle_judge(t, m, &lo, &r, err, sizeof err)) {
                fprintf(stderr, "gpucoh litmus: %s\n", err);
                (*n_bad)++;
                continue;
            }
            printf("  a run that never finishes (a loop spinning forever): %s (%llu candidate "
                   "executions)",
                   r.may_spin ? "allowed" : "forbidden", (unsigned long long)r.n_spin_candidates);
            /* the reference's liveness verdicts are PTX 7.5's (0: some run never
             * finishes, by a spin or a barrier hang; no test with a loop hangs
             * at a barrier) */
            int live = m == OM_PTX ? refs[i].liveness : -1;
            if (live >= 0 && live == r.may_spin) {
                printf("; DISAGREES with the reference liveness verdict %d\n", live);
                rc = EXIT_CHECK_FAILED;
            } else if (live >= 0) {
                printf("; the reference liveness verdict %d agrees\n", live);
            } else {
                printf("\n");
            }
            oracle_result_free(&r);
        }
    }
    return rc;
}

struct totals {
    unsigned pass, fail, skip, unknown, unseen;
};

/* The machine settings of one pass: its protocol (NULL: the configuration's),
 * the seed and, with jitter, random extra delays and bank conflicts; the
 * settings' text goes into set_proto, set_seed and set_jit, which must live
 * as long as o. */
static void pass_sets(struct sim_opts *o, const char *protocol, uint64_t seed, unsigned jitter,
                      char set_proto[96], char set_seed[64], char set_jit[3][64])
{
    if (protocol && o->n_sets + 3 < SIM_MAX_SETS) {
        snprintf(set_proto, 96, "coherence.protocol=%s", protocol);
        o->sets[o->n_sets++] = set_proto;
    }
    if (o->n_sets + 2 < SIM_MAX_SETS) {
        snprintf(set_seed, 64, "sim.seed=%llu", (unsigned long long)seed);
        o->sets[o->n_sets++] = set_seed;
    }
    /* random extra delays where the machine offers them (options that do
     * not exist yet are left out, so the harness runs on any machine) */
    static const char *const jitter_opts[3] = {"l2.jitter_cycles", "noc.jitter_cycles",
                                               "dram.jitter_cycles"};
    for (unsigned k = 0; k < 3 && jitter && !o->functional; k++)
        if (cfg_find(config_options(), jitter_opts[k]) && o->n_sets + 1 < SIM_MAX_SETS) {
            snprintf(set_jit[k], 64, "%s=%u", jitter_opts[k], jitter);
            o->sets[o->n_sets++] = set_jit[k];
        }
    /* and random bank conflicts: 1 grant in 8 leaves its bank busy a while */
    if (jitter && !o->functional && o->n_sets + 1 < SIM_MAX_SETS)
        o->sets[o->n_sets++] = "noc.conflict_pct=12";
}

/* Run every test read (not bad, and of the core set with core_only) on
 * launcher l: print each result, add it to jres and count it in tot; a test
 * the harness cannot run is reported, marked bad and counted in n_bad. */
static void run_tests(struct litmus_test *tests, struct litmus_ref *refs, bool *bad, unsigned n,
                      bool core_only, const char *pname, struct launcher l,
                      const struct litmus_run_opts *rp, cJSON *jres, struct totals *tot,
                      unsigned *n_bad, char *err, size_t errlen)
{
    for (unsigned i = 0; i < n; i++) {
        if (bad[i] || (core_only && refs[i].core != 1))
            continue;
        struct litmus_result r;
        if (litmus_run(&tests[i], &refs[i], pname, l, rp, &r, err, errlen)) {
            fprintf(stderr, "gpucoh litmus: %s\n", err);
            bad[i] = true;
            (*n_bad)++;
            continue;
        }
        litmus_result_print(&r, stdout);
        tot->pass += r.status == LITMUS_PASS;
        tot->fail += r.status == LITMUS_FAIL;
        tot->skip += r.status == LITMUS_SKIP;
        tot->unknown += r.status == LITMUS_UNKNOWN;
        tot->unseen += r.n_unseen ? 1 : 0;
        cJSON_AddItemToArray(jres, result_json(&r));
        litmus_result_free(&r);
    }
}

/* A pass's totals: a line on stdout and an entry of jsum. */
static void report_totals(cJSON *jsum, const char *pname, const char *model,
                          const struct totals *tot)
{
    printf("== %s (model %s): %u passed, %u failed, %u skipped, %u unknown (oracle limit), "
           "%u with allowed outcomes never observed\n",
           pname, model, tot->pass, tot->fail, tot->skip, tot->unknown, tot->unseen);
    fflush(stdout);
    cJSON *js = cJSON_CreateObject();
    cJSON_AddStringToObject(js, "protocol", pname);
    cJSON_AddStringToObject(js, "model", model);
    cJSON_AddNumberToObject(js, "passed", tot->pass);
    cJSON_AddNumberToObject(js, "failed", tot->fail);
    cJSON_AddNumberToObject(js, "skipped", tot->skip);
    cJSON_AddNumberToObject(js, "unknown", tot->unknown);
    cJSON_AddNumberToObject(js, "allowed_never_observed", tot->unseen);
    cJSON_AddItemToArray(jsum, js);
}

int cmd_litmus(int argc, char **argv)
{
    struct sim_opts so = {0};
    const char *protocols[64];
    unsigned n_protocols = 0;
    const char *json = NULL;
    bool core_only = false, all = false, explain = false, dry_run = false, no_prewarm = false;
    unsigned jitter = 16;
    struct litmus_run_opts ro = {.iterations = 100,
                                 .seed = 1,
                                 .max_skew = 64,
                                 .warm_delay = 32,
                                 .ptx = {.prewarm = true, .spin_budget = 4096}};
    struct file_list files = {0};

    struct protocol_choice pc = {.names = protocols, .max = ARRAY_LEN(protocols)};
    const char *model = NULL;
    const char **paths = calloc((size_t)argc, sizeof *paths);
    if (!paths)
        fatal("out of memory");
    const struct opt rows[] = {
        OPT_CALL_ROW("--protocol", NULL, take_protocol, &pc),
        OPT_UINT_ROW("--iterations", NULL, &ro.iterations, 1, 100000000),
        OPT_U64_ROW("--seed", NULL, &ro.seed, 0, 0xffffffffu),
        OPT_OUT_ROW("--json", NULL, &json),
        OPT_FLAG_ROW("--core", NULL, &core_only),
        OPT_FLAG_ROW("--dry-run", NULL, &dry_run),
        OPT_UINT_ROW("--skew", NULL, &ro.max_skew, 0, 1000000),
        OPT_UINT_ROW("--jitter", NULL, &jitter, 0, 100000),
        OPT_FLAG_ROW("--all-lanes", NULL, &ro.ptx.all_lanes),
        OPT_FLAG_ROW("--pack", NULL, &ro.ptx.pack),
        OPT_CALL_ROW("--model", NULL, take_model, &model),
        OPT_UINT_ROW("--unroll", NULL, &ro.unroll, 1, 1000),
        OPT_UINT_ROW("--spin-budget", NULL, &ro.ptx.spin_budget, 0, 100000000),
        OPT_FLAG_ROW("--explain", NULL, &explain),
        OPT_FLAG_ROW("--no-prewarm", NULL, &no_prewarm),
        OPT_END,
    };
    struct opt sim_rows[SIM_OPT_ROWS];
    sim_opts_rows(&so, SIM_OPT_ALL, sim_rows);
    struct opt_args pos = {paths, 0, (unsigned)argc};
    int parsed = opt_parse("litmus", (const struct opt *const[]){rows, sim_rows, NULL}, argc, argv,
                           1, &pos, usage);
    if (parsed != OPT_CONTINUE) {
        free(paths);
        return parsed;
    }
    all = pc.all, n_protocols = pc.n;
    ro.model = model;
    ro.ptx.prewarm = !no_prewarm;
    for (unsigned k = 0; k < pos.n; k++) {
        unsigned before = files.n;
        collect(&files, paths[k]);
        if (files.n == before)
            fatal("%s: a folder with no .litmus file in it (or its subfolders)", paths[k]);
    }
    free(paths);
    if (explain && json) {
        fprintf(stderr, "gpucoh litmus: --json records runs; --explain runs nothing\n");
        return EXIT_USAGE;
    }
    if (!files.n) {
        fprintf(stderr, "gpucoh litmus: no test files given\n");
        usage(stderr);
        return EXIT_USAGE;
    }

    /* read everything first: a malformed test is reported and left out, and
     * the run ends with exit 2 after the others */
    char err[1024];
    struct litmus_test *tests = calloc(files.n, sizeof *tests);
    struct litmus_ref *refs = calloc(files.n, sizeof *refs);
    bool *bad = calloc(files.n, sizeof *bad);
    if (!tests || !refs || !bad)
        fatal("out of memory");
    struct litmus_refs *table = litmus_refs_load(err, sizeof err);
    if (!table)
        warn("%s; reference verdicts unavailable (no cross-check of the oracle)", err);
    unsigned n_bad = 0;
    for (unsigned i = 0; i < files.n; i++) {
        if (litmus_parse_file(files.v[i], &tests[i], err, sizeof err)) {
            fprintf(stderr, "gpucoh litmus: %s\n", err);
            bad[i] = true;
            n_bad++;
            continue;
        }
        litmus_refs_lookup(table, files.v[i], &refs[i]);
    }
    if (explain) {
        int rc = explain_all(tests, refs, bad, files.n, &ro, core_only, &n_bad);
        litmus_refs_free(table);
        free(tests), free(refs), free(bad);
        for (unsigned i = 0; i < files.n; i++)
            free(files.v[i]);
        free(files.v);
        return n_bad ? EXIT_USAGE : rc;
    }
    if (dry_run)
        printf("%u litmus test%s read; nothing run (--dry-run)\n", files.n - n_bad,
               files.n - n_bad == 1 ? "" : "s");

    if (all)
        for (const struct proto_desc *const *p = proto_registry; *p; p++)
            if (n_protocols < ARRAY_LEN(protocols) && !(*p)->test_only && !(*p)->multi_gpm &&
                !(*p)->not_in_all && !(*p)->example)
                protocols[n_protocols++] = (*p)->name;
    if (so.functional)
        n_protocols = 0; /* one pass, the functional mode */
    unsigned passes = dry_run ? 0 : so.functional ? 1 : (n_protocols ? n_protocols : 1);
    if (passes > 1 && (so.stats_file || so.coverage_file))
        fatal("--stats and --coverage describe one machine: give one --protocol");

    cJSON *jout = cJSON_CreateObject();
    cJSON *jres = cJSON_AddArrayToObject(jout, "results");
    cJSON *jsum = cJSON_AddArrayToObject(jout, "protocols");
    bool any_fail = false, stats_bad = false;
    for (unsigned pi = 0; pi < passes; pi++) {
        struct sim_opts o = so;
        char set_proto[96], set_seed[64], set_jit[3][64];
        pass_sets(&o, n_protocols ? protocols[pi] : NULL, ro.seed, jitter, set_proto, set_seed,
                  set_jit);
        o.quiet = true;
        if (all && !o.functional && refused(&o, protocols[pi])) {
            /* under tso or sc, `all` means every protocol that can keep the promise */
            printf("== %s: skipped (not write-atomic, so the SM's memory model cannot be "
                   "promised on it)\n",
                   protocols[pi]);
            continue;
        }
        struct sim_session s;
        sim_open(&s, &o);
        const char *pname = o.functional ? "functional" : s.cfg.coherence.protocol;
        struct litmus_run_opts rp = ro; /* judged by what this machine promises */
        if (!rp.model)
            rp.model = o.functional ? "sc" : config_promise(&s.cfg);
        if (!o.functional) { /* threads placed on GPUs and GPMs the machine has */
            rp.ptx.gpus = s.cfg.topology.gpus;
            rp.ptx.gpms = s.cfg.topology.gpms;
            rp.ptx.cpus = s.cfg.cpu.cores;
        }
        struct launcher l =
            o.functional ? functional_launcher(s.functional) : machine_launcher(s.machine);
        struct totals tot = {0};
        run_tests(tests, refs, bad, files.n, core_only, pname, l, &rp, jres, &tot, &n_bad, err,
                  sizeof err);
        report_totals(jsum, pname, rp.model, &tot);
        any_fail |= tot.fail > 0;
        if (so.stats_file || so.coverage_file) {
            FILE *quiet = fopen("/dev/null", "w");
            if (!quiet || sim_report(&s, quiet, "litmus", NULL))
                stats_bad = true;
            if (quiet)
                fclose(quiet);
        }
        sim_close(&s);
    }
    int rc = n_bad || stats_bad ? EXIT_USAGE : any_fail ? EXIT_CHECK_FAILED : 0;
    if (n_bad)
        fprintf(stderr, "gpucoh litmus: %u test file%s with errors (above) not run\n", n_bad,
                n_bad == 1 ? "" : "s");
    if (json) {
        char *text = cJSON_Print(jout);
        if (!text || write_file_atomic(json, text)) {
            fprintf(stderr, "gpucoh litmus: cannot write %s\n", json);
            rc = EXIT_USAGE;
        }
        free(text);
    }
    cJSON_Delete(jout);
    litmus_refs_free(table);
    free(tests);
    free(refs);
    free(bad);
    for (unsigned i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    return rc;
}
