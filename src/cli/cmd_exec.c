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
#include "gpu/functional.h"
#include "host/host.h"
#include "host/launchspec.h"

#define EXEC_MAX_DUMPS 64

static void usage(FILE *out)
{
    fputs("usage: gpucoh exec SPEC [--dump NAME=FILE]... [--max-insts N] [options]\n"
          "\n"
          "Run the launch-spec file SPEC: load its PTX, fill its buffers, run its launches,\n"
          "checks and prints in file order (format: docs/launch-spec.md).\n"
          "\n"
          "  --dump NAME=FILE      after the run, write buffer NAME to FILE as raw\n"
          "                        little-endian elements (repeatable)\n"
          "  --max-insts N         with --functional: warp instructions one kernel may run\n"
          "                        before it is stopped as a runaway (default 2^34)\n"
          "  --help                this text\n",
          out);
    fputs(sim_opts_help, out);
    fputs("\nexit: 0 every check passed, 1 a check failed, 2 bad spec or usage,\n"
          "      3 simulator fault (deadlock, starvation, runaway kernel)\n",
          out);
}

static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "gpucoh exec: %s%s\n(gpucoh exec --help for usage)\n", what, arg);
    return EXIT_USAGE;
}

struct exec_dump {
    char name[64];
    const char *path;
};

int cmd_exec(int argc, char **argv)
{
    struct sim_opts o = {0};
    const char *spec_path = NULL;
    struct exec_dump dumps[EXEC_MAX_DUMPS];
    unsigned n_dumps = 0;
    uint64_t max_insts = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (sim_opts_take(&o, argc, argv, &i))
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--dump") || !strncmp(a, "--dump=", 7)) {
            const char *val = a[6] == '=' ? a + 7 : i + 1 < argc ? argv[++i] : "";
            const char *eq = strchr(val, '=');
            if (!eq || eq == val || !eq[1] || (size_t)(eq - val) >= sizeof dumps[0].name)
                return usage_error("--dump needs NAME=FILE, not ", val);
            if (n_dumps == EXEC_MAX_DUMPS)
                return usage_error("too many --dump options", "");
            memcpy(dumps[n_dumps].name, val, (size_t)(eq - val));
            dumps[n_dumps].name[eq - val] = 0;
            dumps[n_dumps++].path = eq + 1;
        } else if (!strcmp(a, "--max-insts") || !strncmp(a, "--max-insts=", 12)) {
            const char *val = a[11] == '=' ? a + 12 : i + 1 < argc ? argv[++i] : "";
            char *end;
            max_insts = strtoull(val, &end, 0);
            if (!*val || *end || !max_insts || val[0] == '-')
                return usage_error("--max-insts needs a positive number, not ", val);
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option ", a);
        } else if (spec_path) {
            return usage_error("more than one spec file: ", a);
        } else {
            spec_path = a;
        }
    }
    if (!spec_path)
        return usage_error("no spec file given", "");
    if (max_insts && !o.functional)
        return usage_error("--max-insts applies to --functional runs", "");

    char err[1024];
    struct launchspec *spec = launchspec_load(spec_path, err, sizeof err);
    if (!spec)
        fatal("%s", err);
    for (unsigned d = 0; d < n_dumps; d++)
        if (launchspec_find_buffer(spec, dumps[d].name) < 0)
            fatal("--dump %s: %s declares no buffer named '%s'", dumps[d].name, spec_path,
                  dumps[d].name);

    struct sim_session s;
    sim_open(&s, &o);
    if (s.functional && max_insts)
        functional_set_opts(s.functional, &(struct functional_opts){.max_warp_insts = max_insts});

    int result = launchspec_run(spec, s.host, stdout);
    for (unsigned d = 0; d < n_dumps; d++)
        if (launchspec_dump(spec, s.host, dumps[d].name, dumps[d].path, err, sizeof err))
            fatal("%s", err);

    char title[300];
    snprintf(title, sizeof title, "exec %s", spec_path);
    cJSON *extra = cJSON_CreateObject();
    cJSON_AddStringToObject(extra, "spec", spec_path);
    cJSON_AddBoolToObject(extra, "check_passed", result == 0);
    int rc = sim_report(&s, stdout, title, extra);
    cJSON_Delete(extra);
    printf("  checks          %s\n", result ? "FAILED" : spec->n_checks ? "passed" : "none");
    sim_close(&s);
    launchspec_free(spec);
    return rc ? rc : result ? EXIT_CHECK_FAILED : 0;
}
