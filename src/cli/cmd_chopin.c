/*
 * cmd_chopin.c - `gpucoh chopin`: split-frame rendering on several GPUs
 * (thesis Chapter 6, spec 004b §3-§5): make frame traces, run designs on
 * them, compare with primitive duplication.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "cli/cmd_sweep.h"
#include "cli/cmds.h"
#include "cli/common.h"
#include "gfx/gen.h"
#include "gfx/sfr.h"

#define MAX_LIST 64

static void chopin_usage(FILE *out)
{
    fputs("usage: gpucoh chopin config [--config FILE] [--set section.key=value]... [--verbose]\n"
          "       gpucoh chopin gen --game NAME|all [--seed N] [--draws N --tris N]\n"
          "                         [--generator budget|first] [--out F|--dir D]\n"
          "       gpucoh chopin groups --trace FILE [--threshold N]\n"
          "       gpucoh chopin run --trace F[,F...]|--game G[,G...]|all [--seed N]\n"
          "                         [--design D[,D...]|all] [--config FILE]\n"
          "                         [--set section.key=value]... [--vary section.key=V1,V2,...]\n"
          "                         [--json FILE] [--csv FILE] [--stats FILE] [--quiet]\n"
          "       gpucoh chopin repro [gpucoh repro options]    (the same as gpucoh repro chopin)\n"
          "\n"
          "A draw-level model of split-frame rendering (SFR) on GPUs joined by point-to-point\n"
          "links: each GPU renders part of one frame and the parts are put together. Designs:\n"
          "  dup           primitive duplication: every GPU runs all geometry and keeps the\n"
          "                fragments of its own 64x64 tiles (the baseline)\n"
          "  gpupd         GPUpd: each GPU projects 1/N of the triangles, the GPUs exchange\n"
          "                primitive IDs one after another, then render what falls on their tiles\n"
          "  gpupd-ideal   ... with zero-latency, unlimited links and unlimited runahead\n"
          "  chopin        CHOPIN: draws of a large composition group go to one GPU each (the\n"
          "                draw scheduler picks the GPU with the fewest triangles left), then\n"
          "                sub-images are composed in parallel, each GPU sending to all "
          "(direct-send)\n"
          "  chopin-cs     CHOPIN + the image-composition scheduler (pairs only ready, free GPUs)\n"
          "  chopin-ideal  CHOPIN + CompSched with zero-latency, unlimited links and buffers\n"
          "\n"
          "config prints the resolved model parameters as INI (--verbose: with their meaning).\n"
          "gen writes a synthetic trace shaped like a game of thesis Table 6.3 (cod2 cry grid\n"
          "mirror nfs stal ut3 wolf); --draws/--tris shrink it for tests; --generator first is\n"
          "the first generator (20-60 screens of pixels a frame; run: --set\n"
          "trace.generator=first), kept as an ablation. groups prints the\n"
          "composition groups a threshold would compose. run simulates each trace under each\n"
          "design (and each --vary value), prints frame cycles and speedup over dup (dup runs\n"
          "first; 0 when it is not among the designs), and checks that the composed frame\n"
          "equals a sequential rendering of the trace (exit 1 if not). --game generates the\n"
          "game's trace (with --seed, default 1) instead of reading a file, all of them with\n"
          "--game all; --stats writes one run's statistics as JSON (one trace, one design: what\n"
          "a sweep's frames run reads, docs/chopin.md); --quiet prints no table.\n"
          "repro is gpucoh repro chopin: thesis Figs. 6.12-6.19 from repro/chopin/ (a sweep of\n"
          "frames runs, the thesis's numbers and claims as data), on the reproduction engine\n"
          "(docs/repro.md).\n"
          "Trace format: docs/frame-trace.md; the model and its parameters: docs/chopin.md;\n"
          "default parameters (Table 6.2): configs/chopin-8gpu.ini.\n"
          "\n"
          "exit status: 0 ok, 1 a composed frame differs from the sequential one, 2 bad input\n"
          "(a malformed trace names file:line), 3 simulator fault (deadlock).\n"
          "\n"
          "examples:\n"
          "  gpucoh chopin gen --game cod2 --out cod2.trace\n"
          "  gpucoh chopin run --trace cod2.trace --design all\n"
          "  gpucoh chopin run --trace cod2.trace --design dup,chopin-cs --vary "
          "machine.gpus=2,4,8,16\n",
          out);
}

/* The CSV columns of a run after `lead` (the caller's key columns): cycles,
 * speedup, frame check, groups, bytes by traffic kind, GPU time by activity. */
static void chopin_csv_header(FILE *f, const char *lead)
{
    fprintf(f, "%s,cycles,speedup_vs_dup,correct,groups_composed,tris_composed", lead);
    for (unsigned k = 0; k < SFR_N_TRAFFIC; k++)
        fprintf(f, ",bytes_%s", sfr_traffic_names[k]);
    for (unsigned a = 0; a < SFR_N_ACT; a++)
        fprintf(f, ",%s", sfr_activity_names[a]);
    fputc('\n', f);
}

static void chopin_csv_row(FILE *f, const struct sfr_result *r, double speedup)
{
    fprintf(f, "%llu,%.6f,%d,%u,%llu", (unsigned long long)r->cycles, speedup, !r->wrong_tiles,
            r->groups_composed, (unsigned long long)r->tris_composed);
    for (unsigned k = 0; k < SFR_N_TRAFFIC; k++)
        fprintf(f, ",%llu", (unsigned long long)r->traffic[k]);
    for (unsigned a = 0; a < SFR_N_ACT; a++)
        fprintf(f, ",%.1f", r->activity[a]);
    fputc('\n', f);
}

static unsigned split_list(char *s, char **out)
{
    unsigned n = 0;
    for (char *t = strtok(s, ","); t && n < MAX_LIST; t = strtok(NULL, ","))
        out[n++] = t;
    return n;
}

static int cmd_gen(int argc, char **argv)
{
    const char *game = NULL, *out = NULL, *dir = NULL, *generator = "budget";
    uint64_t seed = 1;
    unsigned draws = 0, tris = 0;
    const struct opt rows[] = {
        OPT_STR_ROW("--game", NULL, &game),
        OPT_U64_ROW("--seed", NULL, &seed, 0, 0x1p64),
        OPT_UINT_ROW("--draws", NULL, &draws, 0, 1u << 20),
        OPT_UINT_ROW("--tris", NULL, &tris, 0, GFX_MAX_TRIS),
        OPT_OUT_ROW("--out", NULL, &out),
        OPT_STR_ROW("--dir", NULL, &dir),
        OPT_STR_ROW("--generator", NULL, &generator),
        OPT_END,
    };
    int prc = opt_parse("chopin gen", (const struct opt *const[]){rows, NULL}, argc, argv, 2, NULL,
                        chopin_usage);
    if (prc != OPT_CONTINUE)
        return prc;
    if (!game)
        fatal("chopin gen: --game NAME|all is required");
    if (!!draws != !!tris)
        fatal("chopin gen: --draws and --tris go together");
    if (!strcmp(game, "all") && !dir)
        fatal("chopin gen: --game all needs --dir");
    int gen = -1;
    for (int k = 0; gfx_generator_names[k]; k++)
        if (!strcmp(generator, gfx_generator_names[k]))
            gen = k;
    if (gen < 0)
        fatal("chopin gen: unknown --generator '%s' (budget first)", generator);
    for (const struct gfx_game *g = gfx_games; g->name; g++) {
        if (strcmp(game, "all") && strcmp(game, g->name))
            continue;
        struct gfx_game gg = *g;
        if (draws) {
            if (draws < 100 || tris < 30000)
                fatal("chopin gen: --draws must be >= 100 and --tris >= 30000");
            gg.draws = draws, gg.tris = tris;
        }
        struct gfx_trace t;
        char err[256];
        if (gfx_generate_with(&t, &gg, seed, (enum gfx_generator)gen, err, sizeof err))
            fatal("chopin gen: %s", err);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        gfx_trace_write(&t, f);
        fclose(f);
        char path[4096];
        if (dir)
            snprintf(path, sizeof path, "%s/%s.trace", dir, g->name);
        int rc = 0;
        if (dir || out)
            rc = write_file_atomic(dir ? path : out, text);
        else
            fputs(text, stdout);
        free(text);
        gfx_trace_free(&t);
        if (rc)
            return EXIT_USAGE;
        if (strcmp(game, "all"))
            return 0;
    }
    if (strcmp(game, "all"))
        fatal("chopin gen: unknown game '%s' (cod2 cry grid mirror nfs stal ut3 wolf)", game);
    return 0;
}

static void load_trace(struct gfx_trace *t, const char *path)
{
    char err[512];
    if (gfx_trace_load(t, path, err, sizeof err))
        fatal("%s", err);
}

static int cmd_groups(int argc, char **argv)
{
    const char *path = NULL;
    uint64_t thr = 4096;
    const struct opt rows[] = {
        OPT_IN_ROW("--trace", NULL, &path),
        OPT_U64_ROW("--threshold", NULL, &thr, 0, UINT32_MAX),
        OPT_END,
    };
    int prc = opt_parse("chopin groups", (const struct opt *const[]){rows, NULL}, argc, argv, 2,
                        NULL, chopin_usage);
    if (prc != OPT_CONTINUE)
        return prc;
    if (!path)
        fatal("chopin groups: --trace FILE is required");
    struct gfx_trace t;
    load_trace(&t, path);
    uint32_t big = 0, ordered = 0;
    uint64_t covered = 0;
    for (uint32_t g = 0; g < t.n_groups; g++)
        if (t.groups[g].tris >= thr) {
            big++;
            covered += t.groups[g].tris;
            ordered += gfx_draw_ordered(&t.draws[t.groups[g].first]);
        }
    printf("%s: %ux%u, %u draws, %llu triangles, %u groups; threshold %llu composes %u groups "
           "(%u ordered) covering %.2f%% of triangles\n",
           t.name, t.width, t.height, t.n_draws, (unsigned long long)t.tris, t.n_groups,
           (unsigned long long)thr, big, ordered, 100.0 * (double)covered / (double)t.tris);
    gfx_trace_free(&t);
    return 0;
}

static int cmd_sfr_config(int argc, char **argv)
{
    const char *config = NULL, *sets[SIM_MAX_SETS];
    struct opt_args set_list = {sets, 0, SIM_MAX_SETS};
    bool verbose = false;
    const struct opt rows[] = {
        OPT_IN_ROW("--config", NULL, &config),
        OPT_CALL_ROW("--set", "-s", opt_append, &set_list),
        OPT_FLAG_ROW("--verbose", NULL, &verbose),
        OPT_END,
    };
    int prc = opt_parse("chopin config", (const struct opt *const[]){rows, NULL}, argc, argv, 2,
                        NULL, chopin_usage);
    if (prc != OPT_CONTINUE)
        return prc;
    struct sfr_config c;
    char err[512];
    if (sfr_config_load(&c, config, sets, set_list.n, err, sizeof err))
        fatal("%s", err);
    cfg_print(sfr_opts, &c, stdout, verbose);
    return 0;
}

/* A trace named on the command line: a file, or a game generated here. */
static void get_trace(struct gfx_trace *t, const char *name, bool generate, uint64_t seed,
                      enum gfx_generator gen, double draw_sigma)
{
    if (!generate) {
        load_trace(t, name);
        return;
    }
    const struct gfx_game *g = gfx_game_find(name);
    char err[256];
    if (!g)
        fatal("chopin run: unknown game '%s' (cod2 cry grid mirror nfs stal ut3 wolf)", name);
    if (gfx_generate_spread(t, g, seed, gen, draw_sigma, err, sizeof err))
        fatal("chopin run: %s", err);
}

/* --stats FILE: one run's statistics, as a sweep's frames run reads them
 * (docs/chopin.md). */
static cJSON *run_stats(const struct gfx_trace *t, const char *game, uint64_t seed,
                        const struct sfr_config *c, int design, const struct sfr_result *r,
                        double wall)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "gpucoh_version", GPUCOH_VERSION);
    cJSON_AddStringToObject(o, "model", "frames");
    cJSON_AddStringToObject(o, "trace", t->name);
    if (game)
        cJSON_AddNumberToObject(o, "seed", (double)seed);
    cJSON_AddStringToObject(o, "design", sfr_design_names[design]);
    cJSON_AddNumberToObject(o, "gpus", c->gpus);
    cJSON_AddNumberToObject(o, "cycles", (double)r->cycles);
    cJSON_AddBoolToObject(o, "check_passed", !r->wrong_tiles);
    double v[SFR_N_STATS];
    sfr_stats(r, v);
    cJSON *st = cJSON_AddObjectToObject(o, "stats");
    for (unsigned k = 0; k < SFR_N_STATS; k++)
        cJSON_AddNumberToObject(st, sfr_stat_names[k], v[k]);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(o, "speed"), "wall_seconds", wall);
    return o;
}

static int cmd_sfr_run(int argc, char **argv)
{
    char *traces_arg = NULL, *games_arg = NULL, *designs_arg = "all", *vary = NULL;
    const char *config = NULL, *json = NULL, *csv = NULL, *stats = NULL;
    const char *sets[SIM_MAX_SETS + 1];
    struct opt_args set_list = {sets, 0, SIM_MAX_SETS};
    uint64_t seed = 1;
    bool quiet = false;
    const struct opt rows[] = {
        OPT_STR_ROW("--trace", NULL, &traces_arg),
        OPT_STR_ROW("--game", NULL, &games_arg),
        OPT_U64_ROW("--seed", NULL, &seed, 0, 0x1p64),
        OPT_OUT_ROW("--stats", NULL, &stats),
        OPT_FLAG_ROW("--quiet", "-q", &quiet),
        OPT_STR_ROW("--design", NULL, &designs_arg),
        OPT_IN_ROW("--config", NULL, &config),
        OPT_CALL_ROW("--set", "-s", opt_append, &set_list),
        OPT_STR_ROW("--vary", NULL, &vary),
        OPT_OUT_ROW("--json", NULL, &json),
        OPT_OUT_ROW("--csv", NULL, &csv),
        OPT_END,
    };
    int prc = opt_parse("chopin run", (const struct opt *const[]){rows, NULL}, argc, argv, 2, NULL,
                        chopin_usage);
    if (prc != OPT_CONTINUE)
        return prc;
    unsigned n_sets = set_list.n;
    if (!traces_arg == !games_arg)
        fatal("chopin run: --trace FILE or --game NAME is required (one of them)");
    char *tr[MAX_LIST], *dn[MAX_LIST], *vals[MAX_LIST];
    unsigned n_tr = 0;
    if (games_arg && !strcmp(games_arg, "all")) { /* as `gen --game all`: every game of Table 6.3 */
        for (const struct gfx_game *g = gfx_games; g->name && n_tr < MAX_LIST; g++)
            tr[n_tr++] = (char *)g->name;
    } else {
        n_tr = split_list(games_arg ? games_arg : traces_arg, tr);
    }
    int designs[SFR_N_DESIGNS];
    unsigned n_d = 0;
    if (!strcmp(designs_arg, "all")) {
        for (int d = 0; d < SFR_N_DESIGNS; d++)
            designs[n_d++] = d;
    } else {
        unsigned k = split_list(designs_arg, dn);
        for (unsigned i = 0; i < k; i++) {
            int d = sfr_design_find(dn[i]);
            if (d < 0)
                fatal("chopin run: unknown design '%s' (dup gpupd gpupd-ideal chopin chopin-cs "
                      "chopin-ideal)",
                      dn[i]);
            if (n_d < SFR_N_DESIGNS)
                designs[n_d++] = d;
        }
    }
    for (unsigned i = 1; i < n_d; i++) /* dup first: the others' speedups are over it */
        if (designs[i] == SFR_DUP) {
            memmove(designs + 1, designs, i * sizeof *designs);
            designs[0] = SFR_DUP;
        }
    char vary_key[128] = "";
    unsigned n_vals = 1;
    vals[0] = NULL;
    if (vary) {
        char *eq = strchr(vary, '=');
        if (!eq)
            fatal("chopin run: --vary %s: expected section.key=V1,V2,...", vary);
        snprintf(vary_key, sizeof vary_key, "%.*s", (int)(eq - vary), vary);
        n_vals = split_list(eq + 1, vals);
        if (!n_vals)
            fatal("chopin run: --vary %s: no values", vary);
    }
    if (vary && !strncmp(vary_key, "trace.", 6))
        fatal("chopin run: --vary %s: the trace is made once per game; use --set", vary_key);
    struct sfr_config base; /* what makes the traces: trace.generator, trace.draw_sigma */
    char berr[512];
    if (sfr_config_load(&base, config, sets, n_sets, berr, sizeof berr))
        fatal("%s", berr);
    if (stats && (n_tr != 1 || n_d != 1 || n_vals != 1))
        fatal("chopin run: --stats FILE is for one run: one trace or game, one design, no --vary");
    cJSON *root = cJSON_CreateObject(), *runs = cJSON_AddArrayToObject(root, "runs");
    cJSON *one = NULL;
    cJSON_AddStringToObject(root, "gpucoh_version", GPUCOH_VERSION);
    char *csv_text = NULL;
    size_t csv_len = 0;
    FILE *cf = open_memstream(&csv_text, &csv_len);
    chopin_csv_header(cf, "trace,design,vary,value");
    if (!quiet)
        printf("%-10s %-13s %-10s %12s %8s %5s %10s %9s\n", "trace", "design", vary ? vary_key : "",
               "cycles", "vs dup", "ok", "compose MB", "groups");
    int rc = 0;
    for (unsigned ti = 0; ti < n_tr; ti++) {
        struct gfx_trace t;
        get_trace(&t, tr[ti], games_arg != NULL, seed, (enum gfx_generator)base.trace_generator,
                  base.trace_draw_sigma);
        for (unsigned vi = 0; vi < n_vals; vi++) {
            char assign[256];
            const char *all_sets[SIM_MAX_SETS + 1];
            memcpy(all_sets, sets, n_sets * sizeof *sets);
            unsigned ns = n_sets;
            if (vary) {
                snprintf(assign, sizeof assign, "%s=%s", vary_key, vals[vi]);
                all_sets[ns++] = assign;
            }
            struct sfr_config c;
            char err[512];
            if (sfr_config_load(&c, config, all_sets, ns, err, sizeof err))
                fatal("%s", err);
            uint64_t dup_cycles = 0;
            for (unsigned di = 0; di < n_d; di++) {
                struct sfr_result r;
                double wall0 = wall_seconds();
                sfr_run(&t, &c, (enum sfr_design)designs[di], &r, NULL);
                if (stats)
                    one =
                        run_stats(&t, games_arg, seed, &c, designs[di], &r, wall_seconds() - wall0);
                if (designs[di] == SFR_DUP)
                    dup_cycles = r.cycles;
                double sp = dup_cycles ? (double)dup_cycles / (double)r.cycles : 0;
                double cmb = r.traffic[SFR_T_COMPOSE] / 1e6;
                if (!quiet)
                    printf("%-10s %-13s %-10s %12llu %8.3f %5s %10.2f %9u\n", t.name,
                           sfr_design_names[designs[di]], vary ? vals[vi] : "",
                           (unsigned long long)r.cycles, sp, r.wrong_tiles ? "WRONG" : "ok", cmb,
                           r.groups_composed);
                fflush(stdout);
                if (r.wrong_tiles)
                    rc = EXIT_CHECK_FAILED;
                fprintf(cf, "%s,%s,%s,%s,", t.name, sfr_design_names[designs[di]], vary_key,
                        vary ? vals[vi] : "");
                chopin_csv_row(cf, &r, sp);
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "trace", t.name);
                cJSON_AddStringToObject(o, "design", sfr_design_names[designs[di]]);
                if (vary)
                    cJSON_AddStringToObject(o, vary_key, vals[vi]);
                cJSON_AddNumberToObject(o, "cycles", (double)r.cycles);
                cJSON_AddNumberToObject(o, "speedup_vs_dup", sp);
                cJSON_AddBoolToObject(o, "frame_correct", !r.wrong_tiles);
                cJSON_AddNumberToObject(o, "wrong_tiles", r.wrong_tiles);
                cJSON_AddNumberToObject(o, "groups_composed", r.groups_composed);
                cJSON_AddNumberToObject(o, "tris_composed", (double)r.tris_composed);
                cJSON_AddNumberToObject(o, "geometry_tris", (double)r.geometry_tris);
                cJSON_AddNumberToObject(o, "shaded_px", (double)r.shaded_px);
                cJSON_AddNumberToObject(o, "link_messages", (double)r.messages);
                cJSON *tb = cJSON_AddObjectToObject(o, "traffic_bytes");
                for (unsigned k = 0; k < SFR_N_TRAFFIC; k++)
                    cJSON_AddNumberToObject(tb, sfr_traffic_names[k], (double)r.traffic[k]);
                cJSON *ab = cJSON_AddObjectToObject(o, "mean_gpu_cycles");
                for (unsigned a = 0; a < SFR_N_ACT; a++)
                    cJSON_AddNumberToObject(ab, sfr_activity_names[a], r.activity[a]);
                cJSON *gc = cJSON_AddArrayToObject(o, "gpu_finish_cycles");
                for (unsigned g = 0; g < c.gpus; g++)
                    cJSON_AddItemToArray(gc, cJSON_CreateNumber((double)r.gpu_cycles[g]));
                cJSON_AddItemToArray(runs, o);
            }
        }
        gfx_trace_free(&t);
    }
    fclose(cf);
    if (csv && write_file_atomic(csv, csv_text))
        rc = EXIT_USAGE;
    free(csv_text);
    if (json) {
        char *text = cJSON_Print(root);
        if (write_file_atomic(json, text))
            rc = EXIT_USAGE;
        free(text);
    }
    cJSON_Delete(root);
    if (one) {
        char *text = cJSON_Print(one);
        if (write_file_atomic(stats, text))
            rc = EXIT_USAGE;
        free(text);
        cJSON_Delete(one);
    }
    return rc;
}

int cmd_chopin(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        chopin_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : 0;
    }
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            chopin_usage(stdout);
            return 0;
        }
    if (!strcmp(argv[1], "repro")) { /* gpucoh repro chopin [options] */
        argv[1] = "chopin";
        return cmd_repro(argc, argv);
    }
    if (!strcmp(argv[1], "config"))
        return cmd_sfr_config(argc, argv);
    if (!strcmp(argv[1], "gen"))
        return cmd_gen(argc, argv);
    if (!strcmp(argv[1], "groups"))
        return cmd_groups(argc, argv);
    if (!strcmp(argv[1], "run"))
        return cmd_sfr_run(argc, argv);
    fprintf(stderr, "gpucoh chopin: unknown subcommand '%s'\n", argv[1]);
    chopin_usage(stderr);
    return EXIT_USAGE;
}
