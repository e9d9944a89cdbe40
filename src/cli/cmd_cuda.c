/*
 * cmd_cuda.c - `gpucoh cuda [options] -- PROGRAM [ARGS]`: run an unmodified
 * CUDA program (built with nvcc -cudart shared) on the simulated machine
 * through the libcudart stand-in (src/cudart/, docs/cuda.md).
 *
 * The machine options are checked here (a bad configuration is exit 2
 * before the program starts), handed to the stand-in in its environment
 * variables (GPUCOH_CONFIG, GPUCOH_SET, GPUCOH_STATS, GPUCOH_CHECK), and the
 * program replaces this process with the stand-in first on
 * LD_LIBRARY_PATH, so its exit status is the program's.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/log.h"
#include "cli/cmds.h"
#include "cli/common.h"
#include "system/config.h"

static void usage(FILE *out)
{
    fputs("usage: gpucoh cuda [options] -- PROGRAM [ARGS]...\n"
          "\n"
          "Run an ordinary CUDA program on the simulated GPU. Build it as usual with the\n"
          "dynamic runtime, keeping the PTX (the stand-in runs PTX, not machine code):\n"
          "\n"
          "  nvcc -arch=sm_75 -cudart shared -o vecadd vecadd.cu\n"
          "  gpucoh cuda --protocol mesi --stats vecadd.json -- ./vecadd 1024\n"
          "\n"
          "The program runs against gpucoh's libcudart stand-in (build/lib/libcudart.so.13,\n"
          "first on LD_LIBRARY_PATH): every kernel runs on the configured machine, one line\n"
          "per kernel on stderr (cycles, instructions, L1 and L2 hit rates), and --stats\n"
          "writes every kernel's statistics when the program exits. Streams are sequential\n"
          "and event times are simulated cycles at the core clock. A runtime call the\n"
          "stand-in lacks fails with cudaErrorNotSupported and a line naming it\n"
          "(docs/cuda.md lists what is supported).\n"
          "\n"
          "Without this command, set the same things in the environment:\n"
          "  LD_LIBRARY_PATH=build/lib GPUCOH_PROTOCOL=mesi GPUCOH_CONFIG=file.ini\n"
          "  GPUCOH_SET='l1.ways=8;sim.seed=3' GPUCOH_STATS=out.json ./vecadd\n"
          "  (and GPUCOH_TRACE, GPUCOH_TRACE_KERNEL, GPUCOH_TRACE_WARPS, GPUCOH_TRACE_CTAS,\n"
          "  GPUCOH_TRACE_CYCLES, GPUCOH_INST_STATS for the trace options below)\n"
          "\n" SIM_HELP_MACHINE SIM_HELP_CHECK "report options:\n"
          "  --stats FILE.json     write the statistics of the run and of every kernel at\n"
          "                        the program's exit (whole or not at all)\n"
          "  --help                this text\n" SIM_HELP_TRACE "\n"
          "exit: the program's status; 2 bad options, configuration or program (no PTX,\n"
          "      a corrupt fat binary, PTX gpucoh cannot run), 3 simulator fault\n",
          out);
}

/* The folder holding the stand-in: lib/ beside this executable. */
static void stand_in_dir(char *dir, size_t n)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        fatal("gpucoh cuda: cannot find the gpucoh executable (/proc/self/exe): %s",
              strerror(errno));
    exe[len] = 0;
    snprintf(dir, n, "%s/lib", dirname(exe));
    char lib[PATH_MAX + 32];
    snprintf(lib, sizeof lib, "%s/libcudart.so.13", dir);
    if (access(lib, R_OK))
        fatal("gpucoh cuda: the CUDA runtime stand-in %s is missing (build it: cmake --build "
              "build --target cudart)",
              lib);
}

static void set_env(const char *name, const char *value)
{
    if (setenv(name, value, 1))
        fatal("gpucoh cuda: cannot set %s: %s", name, strerror(errno));
}

int cmd_cuda(int argc, char **argv)
{
    struct sim_opts o = {0};
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        int at = i;
        if (!sim_opts_take_groups(&o, SIM_OPT_ALL | SIM_OPT_TRACE, argc, argv, &i)) {
            fprintf(stderr, "gpucoh cuda: unknown option '%s'\n(gpucoh cuda --help for usage)\n",
                    argv[at]);
            return EXIT_USAGE;
        }
    }
    if (i + 1 >= argc) {
        fprintf(stderr, "gpucoh cuda: no program given after '--'\n(gpucoh cuda --help for "
                        "usage)\n");
        return EXIT_USAGE;
    }
    if (o.functional || o.coverage_file) {
        fprintf(stderr, "gpucoh cuda: %s is not available for CUDA programs (timing runs only)\n",
                o.functional ? "--functional" : "--coverage");
        return EXIT_USAGE;
    }
    char **program = &argv[i + 1];

    /* the configuration is checked now, so that a mistake costs no program run */
    char err[1024];
    struct config cfg;
    const char *file = o.config_file ? o.config_file : config_default_file();
    if (config_load(&cfg, file, o.sets, o.n_sets, err, sizeof err))
        fatal("%s", err);

    char path[PATH_MAX];
    if (!realpath(file, path))
        fatal("%s: %s", file, strerror(errno));
    set_env("GPUCOH_CONFIG", path);
    size_t cap = 1, len = 0;
    for (unsigned k = 0; k < o.n_sets; k++) {
        if (strchr(o.sets[k], ';'))
            fatal("gpucoh cuda: --set %s: a value may not hold ';' (it separates GPUCOH_SET)",
                  o.sets[k]);
        cap += strlen(o.sets[k]) + 1;
    }
    char *sets = calloc(1, cap);
    if (!sets)
        panic("out of memory");
    for (unsigned k = 0; k < o.n_sets; k++)
        len += (size_t)snprintf(sets + len, cap - len, "%s%s", k ? ";" : "", o.sets[k]);
    /* the options replace whatever the environment said */
    set_env("GPUCOH_SET", sets);
    free(sets);
    unsetenv("GPUCOH_PROTOCOL");
    unsetenv("GPUCOH_SEED");
    if (o.stats_file) {
        set_env("GPUCOH_STATS", o.stats_file);
    } else {
        unsetenv("GPUCOH_STATS");
    }
    set_env("GPUCOH_CHECK", o.check ? "1" : "0");
    /* the trace options (checked as they were read) */
    const char *const trace_env[][2] = {
        {"GPUCOH_TRACE", o.trace_file},          {"GPUCOH_INST_STATS", o.inst_stats_file},
        {"GPUCOH_TRACE_KERNEL", o.trace_kernel}, {"GPUCOH_TRACE_WARPS", o.trace_warps},
        {"GPUCOH_TRACE_CTAS", o.trace_ctas},     {"GPUCOH_TRACE_CYCLES", o.trace_cycles}};
    for (unsigned k = 0; k < sizeof trace_env / sizeof trace_env[0]; k++) {
        if (trace_env[k][1])
            set_env(trace_env[k][0], trace_env[k][1]);
        else
            unsetenv(trace_env[k][0]);
    }

    char dir[PATH_MAX];
    stand_in_dir(dir, sizeof dir);
    const char *old = getenv("LD_LIBRARY_PATH");
    char *ld = malloc(strlen(dir) + (old ? strlen(old) : 0) + 2);
    if (!ld)
        panic("out of memory");
    sprintf(ld, old && *old ? "%s:%s" : "%s%s", dir, old && *old ? old : "");
    set_env("LD_LIBRARY_PATH", ld);
    free(ld);
#ifdef GPUCOH_ASAN_RUNTIME
    /* A sanitized build (GPUCOH_SANITIZE): its stand-in links the ASan
     * runtime, which must be the first library a process loads, and the
     * program, built by nvcc without it, does not load it: preload it. */
    const char *pre = getenv("LD_PRELOAD");
    char *preload = xmalloc(strlen(GPUCOH_ASAN_RUNTIME) + (pre ? strlen(pre) : 0) + 2);
    sprintf(preload, pre && *pre ? "%s:%s" : "%s%s", GPUCOH_ASAN_RUNTIME, pre && *pre ? pre : "");
    set_env("LD_PRELOAD", preload);
    free(preload);
#endif

    fflush(NULL);
    execvp(program[0], program);
    fatal("gpucoh cuda: cannot run %s: %s", program[0], strerror(errno));
}
