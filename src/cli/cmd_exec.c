/*
 * cmd_exec.c - `gpucoh exec SPEC`: load a launch-spec file (launchspec.h),
 * run it on the timing machine or, with --functional, on the functional mode,
 * write the buffers asked for with --dump, report like `gpucoh run`, and exit
 * 1 if a check failed.
 *
 * Everything in the spec is checked (syntax, PTX, kernels, argument sizes,
 * data files) and every --dump name is matched to a buffer before the machine
 * is built, so a mistake costs no simulation time.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cli/cmd_exec.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "cli/common.h"
#include "coh/getm/getm_options.h"
#include "gpu/functional.h"
#include "host/host.h"
#include "host/launchspec.h"

/* The configuration's [getm] section. */
static const struct getm_spec *getm_of(const struct config *c)
{
    return config_section(c, &getm_options);
}

#define EXEC_MAX_DUMPS 64

static void usage(FILE *out)
{
    fputs("usage: gpucoh exec SPEC [--dump NAME=FILE]... [--max-insts N] [options]\n"
          "\n"
          "Run the launch-spec file SPEC: load its PTX, fill its buffers, run its launches,\n"
          "checks and prints in file order (format: docs/launch-spec.md). On a machine with\n"
          "CPU cores (cpu.cores, configs/spandex.ini) 'launch K on cpu ...' runs a kernel on\n"
          "them, one thread per core, and a launch line ending in '&' runs together with the\n"
          "next launch: a CPU and a GPU kernel that synchronise through memory\n"
          "(examples/cpugpu.spec, docs/cpu.md). 'symbol NAME TYPE COUNT FILL' sets a\n"
          "kernel's __constant__ or __device__ data for the launches below it; a launch\n"
          "whose kernel reads __constant__ data nobody set is refused (exit 2).\n"
          "\n"
          "  --dump NAME=FILE      after the run, write buffer NAME to FILE as raw\n"
          "                        little-endian elements (repeatable)\n"
          "  --max-insts N         with --functional: warp instructions one kernel may run\n"
          "                        before it is stopped as a runaway (default: sim.max_insts,\n"
          "                        auto = 2^24 per warp of the launch; timing runs also stop\n"
          "                        at sim.max_cycles and when warps spin, sim.spin_cycles)\n"
          "  --dry-run             check the spec, its PTX and data files and the machine\n"
          "                        configuration, run nothing (exit 0 or 2)\n"
          "  --help                this text\n",
          out);
    fputs(sim_opts_help, out);
    fputs("\nexit: 0 every check passed, 1 a check failed, 2 bad spec or usage,\n"
          "      3 simulator fault (deadlock, starvation, runaway kernel)\n",
          out);
}

struct exec_dump {
    char name[64];
    const char *path;
};

struct exec_dumps {
    struct exec_dump v[EXEC_MAX_DUMPS];
    unsigned n;
};

/* --dump NAME=FILE: FILE must be writable before the run starts. */
static int take_dump(void *ctx, const char *opt, const char *val, char *err, size_t errlen)
{
    struct exec_dumps *d = ctx;
    const char *eq = strchr(val, '=');
    if (!eq || eq == val || !eq[1] || (size_t)(eq - val) >= sizeof d->v[0].name) {
        snprintf(err, errlen, "%s needs NAME=FILE, not '%s'", opt, val);
        return -1;
    }
    if (d->n == EXEC_MAX_DUMPS) {
        snprintf(err, errlen, "too many %s options (at most %d)", opt, EXEC_MAX_DUMPS);
        return -1;
    }
    if (opt_check_output(opt, eq + 1, err, errlen))
        return -1;
    memcpy(d->v[d->n].name, val, (size_t)(eq - val));
    d->v[d->n].name[eq - val] = 0;
    d->v[d->n++].path = eq + 1;
    return 0;
}

int cmd_exec(int argc, char **argv)
{
    struct sim_opts o = {0};
    const char *spec_path = NULL;
    struct exec_dumps dumps = {.n = 0};
    uint64_t max_insts = 0;
    bool dry_run = false;
    struct opt sim_rows[SIM_OPT_ROWS];
    sim_opts_rows(&o, SIM_OPT_ALL | SIM_OPT_RUN | SIM_OPT_TRACE, sim_rows);
    const struct opt rows[] = {
        OPT_CALL_ROW("--dump", NULL, take_dump, &dumps),
        OPT_U64_ROW("--max-insts", NULL, &max_insts, 1, 0x1p64),
        OPT_FLAG_ROW("--dry-run", NULL, &dry_run),
        OPT_END,
    };
    struct opt_args pos = {&spec_path, 0, 1};
    int rc = opt_parse("exec", (const struct opt *const[]){rows, sim_rows, NULL}, argc, argv, 1,
                       &pos, usage);
    if (rc != OPT_CONTINUE)
        return rc;
    if (!spec_path) {
        fprintf(stderr, "gpucoh exec: no spec file given\n(gpucoh exec --help for usage)\n");
        return EXIT_USAGE;
    }
    if (max_insts && !o.functional) {
        fprintf(stderr, "gpucoh exec: --max-insts applies to --functional runs (timing runs: "
                        "--set sim.max_insts=N)\n");
        return EXIT_USAGE;
    }

    char err[1024];
    struct launchspec *spec = launchspec_load(spec_path, err, sizeof err);
    if (!spec)
        fatal("%s", err);
    if (!spec->n_launches && !spec->n_checks && !spec->n_prints)
        fatal("%s: no launch, check or print line: nothing would run", spec_path);
    for (unsigned d = 0; d < dumps.n; d++)
        if (launchspec_find_buffer(spec, dumps.v[d].name) < 0)
            fatal("--dump %s: %s declares no buffer named '%s'", dumps.v[d].name, spec_path,
                  dumps.v[d].name);

    if (dry_run) {
        struct config cfg;
        if (config_load(&cfg, o.config_file ? o.config_file : config_default_file(), o.sets,
                        o.n_sets, err, sizeof err))
            fatal("%s", err);
        printf("%s: %u launch%s, %u check%s, %u print%s; nothing run (--dry-run)\n", spec_path,
               spec->n_launches, spec->n_launches == 1 ? "" : "es", spec->n_checks,
               spec->n_checks == 1 ? "" : "s", spec->n_prints, spec->n_prints == 1 ? "" : "s");
        launchspec_free(spec);
        return 0;
    }
    struct sim_session s;
    o.kernel_stats = true; /* --stats holds every statistic per launch */
    sim_open(&s, &o);
    if (s.functional && max_insts)
        functional_set_opts(s.functional, &(struct functional_opts){
                                              .max_warp_insts = max_insts,
                                              .spin_rounds = s.cfg.sim.spin_cycles,
                                              .progress_aborts = getm_of(&s.cfg)->progress_aborts});

    int result = launchspec_run(spec, s.host, stdout);
    for (unsigned d = 0; d < dumps.n; d++)
        if (launchspec_dump(spec, s.host, dumps.v[d].name, dumps.v[d].path, err, sizeof err))
            fatal("%s", err);

    char title[300];
    snprintf(title, sizeof title, "exec %s", spec_path);
    cJSON *extra = cJSON_CreateObject();
    cJSON_AddStringToObject(extra, "spec", spec_path);
    cJSON_AddBoolToObject(extra, "check_passed", result == 0);
    rc = sim_report(&s, stdout, title, extra);
    cJSON_Delete(extra);
    printf("  checks          %s\n", result ? "FAILED" : spec->n_checks ? "passed" : "none");
    sim_close(&s);
    launchspec_free(spec);
    return rc ? rc : result ? EXIT_CHECK_FAILED : 0;
}
