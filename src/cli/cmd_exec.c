/*
 * cmd_exec.c - `gpucoh exec SPEC`: load a launch-spec file (launchspec.h),
 * run it on the timing machine or, with --functional, on the functional mode,
 * write the buffers asked for with --dump, and exit 1 if a check failed.
 *
 * Everything in the spec is checked (syntax, PTX, kernels, argument sizes,
 * data files) before anything runs, so a mistake costs no simulation time.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cli/cmd_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "gpu/functional.h"
#include "host/host.h"
#include "host/launcher.h"
#include "host/launchspec.h"
#include "mem/backing.h"

/* The timing machine built from the command line's machine options (which it
 * removes from argv). Provided by the CLI framework (cli/common.h); declared
 * weak here so that exec links, and reports a clear error for timing mode,
 * in a build that does not have it yet. */
struct launcher cli_timing_launcher(int *argc, char ***argv) __attribute__((weak));

#define EXEC_MAX_DUMPS 64

static void usage(FILE *out)
{
    fputs("usage: gpucoh exec SPEC [--functional] [--dump NAME=FILE]... [--max-insts N]\n"
          "                        [machine options]\n"
          "\n"
          "Run the launch-spec file SPEC: load its PTX, fill its buffers, run its launches\n"
          "and checks in order (format: docs/launch-spec.md).\n"
          "\n"
          "  --functional      run without a timing model (fast; global memory is read and\n"
          "                    written directly)\n"
          "  --dump NAME=FILE  after the run, write buffer NAME to FILE (raw little-endian\n"
          "                    elements); may be repeated\n"
          "  --max-insts N     functional mode: warp instructions one kernel may run before\n"
          "                    it is stopped as a runaway (default 2^34)\n"
          "  --help            this text\n"
          "Without --functional, the machine options of the timing model apply.\n"
          "\n"
          "exit: 0 every check passed, 1 a check failed, 2 bad spec or usage,\n"
          "      3 simulator fault (deadlock, runaway kernel)\n",
          out);
}

static int usage_error(const char *fmt, const char *arg)
{
    fputs("gpucoh exec: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(gpucoh exec --help for usage)\n", stderr);
    return EXIT_USAGE;
}

struct exec_dump {
    char *name;
    const char *path;
};

int cmd_exec(int argc, char **argv)
{
    bool functional = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--functional"))
            functional = true;
    }

    struct launcher timing = {0};
    if (!functional) {
        if (!cli_timing_launcher)
            fatal("exec: the timing machine is not part of this build yet; run with "
                  "--functional");
        timing = cli_timing_launcher(&argc, &argv); /* takes its machine options out */
    }

    const char *spec_path = NULL;
    struct exec_dump dumps[EXEC_MAX_DUMPS];
    unsigned n_dumps = 0;
    struct functional_opts fopts = {0};
    int rc = EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        if (!strcmp(a, "--functional"))
            continue;
        if (!strcmp(a, "--dump") || !strncmp(a, "--dump=", 7)) {
            val = a[6] == '=' ? a + 7 : (i + 1 < argc ? argv[++i] : NULL);
            const char *eq = val ? strchr(val, '=') : NULL;
            if (!eq || eq == val || !eq[1])
                return usage_error("--dump needs NAME=FILE%s", "");
            if (n_dumps == EXEC_MAX_DUMPS)
                return usage_error("more than 64 --dump options%s", "");
            dumps[n_dumps].name = strndup(val, (size_t)(eq - val));
            dumps[n_dumps++].path = eq + 1;
        } else if (!strcmp(a, "--max-insts") || !strncmp(a, "--max-insts=", 12)) {
            val = a[11] == '=' ? a + 12 : (i + 1 < argc ? argv[++i] : NULL);
            char *end;
            unsigned long long n = val ? strtoull(val, &end, 0) : 0;
            if (!val || !*val || *end || !n)
                return usage_error("--max-insts needs a positive number, not '%s'",
                                   val ? val : "");
            if (!functional)
                return usage_error("--max-insts applies to --functional runs%s", "");
            fopts.max_warp_insts = n;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option '%s'", a);
        } else if (spec_path) {
            return usage_error("more than one spec file ('%s')", a);
        } else {
            spec_path = a;
        }
    }
    if (!spec_path)
        return usage_error("no spec file given%s", "");

    char err[1024];
    struct launchspec *s = launchspec_load(spec_path, err, sizeof err);
    if (!s)
        fatal("%s", err);
    for (unsigned d = 0; d < n_dumps; d++)
        if (launchspec_find_buffer(s, dumps[d].name) < 0)
            fatal("--dump %s: %s declares no buffer named '%s'", dumps[d].name, spec_path,
                  dumps[d].name);

    struct backing store;
    struct functional *fn = NULL;
    struct host *h;
    if (functional) {
        backing_init(&store);
        fn = functional_new(&store, &fopts);
        h = host_new(functional_launcher(fn));
    } else {
        h = host_new(timing);
    }

    rc = launchspec_run(s, h, stdout);
    for (unsigned d = 0; d < n_dumps; d++)
        if (launchspec_dump(s, h, dumps[d].name, dumps[d].path, err, sizeof err))
            fatal("%s", err);

    if (fn) {
        const struct functional_stats *st = functional_stats(fn);
        printf("functional: %llu kernel%s, %llu warp instructions, %llu thread instructions\n",
               (unsigned long long)st->kernels, st->kernels == 1 ? "" : "s",
               (unsigned long long)st->warp_insts, (unsigned long long)st->thread_insts);
    } else {
        printf("cycles: %llu\n", (unsigned long long)host_cycles(h));
    }
    printf("%s\n", rc ? "FAILED" : "ok");

    host_delete(h);
    launchspec_free(s);
    if (fn) {
        functional_delete(fn);
        backing_destroy(&store);
    }
    for (unsigned d = 0; d < n_dumps; d++)
        free(dumps[d].name);
    return rc;
}
