/*
 * cli.c - gpucoh's top level: subcommand table and help.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "base/build.h"
#include "base/log.h"
#include "cli/cmd_exec.h"
#include "cli/cmd_litmus.h"
#include "cli/cmd_sweep.h"
#include "cli/cmds.h"

static int cmd_version(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, "gpucoh version: unexpected argument '%s'\n", argv[1]);
        return EXIT_USAGE;
    }
    printf("gpucoh %s (build %s: the fingerprint of the sources a run depends on and the "
           "compiler)\n",
           GPUCOH_VERSION, build_fingerprint());
    return 0;
}

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    {"run", cmd_run, "run a workload on the simulated GPU and report what it measured"},
    {"compare", cmd_compare, "run workloads under several protocols and compare them"},
    {"exec", cmd_exec, "run any PTX file described by a launch spec (no C needed)"},
    {"cuda", cmd_cuda, "run an unmodified CUDA program (nvcc -cudart shared) on the simulator"},
    {"litmus", cmd_litmus, "run PTX litmus tests under protocols and judge them by their model"},
    {"stress", cmd_stress, "data-race-free random tester: every loaded value checked"},
    {"verify", cmd_verify, "explore every event order of the real controllers on a tiny machine"},
    {"sweep", cmd_sweep, "run protocols x workloads x settings from a spec file (or on Slurm)"},
    {"repro", cmd_repro, "reproduce a paper (repro tc: spec 002; repro all) and compare"},
    {"chopin", cmd_chopin, "split-frame rendering on several GPUs (CHOPIN): traces, designs"},
    {"stats", cmd_stats, "compare two statistics files (stats diff A.json B.json)"},
    {"config", cmd_config, "show the resolved machine configuration; list the machine files"},
    {"protocol", cmd_protocol, "print a protocol's controller tables (Markdown or dot)"},
    {"spandex", cmd_spandex, "Spandex FCS: derive request types per instruction (select)"},
    {"list", cmd_list, "list protocols, configurations or workloads"},
    {"version", cmd_version, "print the version (also gpucoh --version)"},
};

static void usage(FILE *out)
{
    fputs("gpucoh - an execution-driven simulator of GPU memory systems: real CUDA kernels\n"
          "(the PTX nvcc emits) on SMs, L1s, a crossbar, L2 banks and DRAM whose caches hold\n"
          "data, under interchangeable coherence protocols.\n\n"
          "usage: gpucoh COMMAND [options]   (gpucoh COMMAND --help for more)\n\ncommands:\n",
          out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
    fputs("\nexamples:\n"
          "  gpucoh list workloads\n"
          "  gpucoh run --workload mp --size tiny --protocol rc\n"
          "  gpucoh config show --set l1.ways=8\n"
          "  gpucoh protocol show rc --format md\n",
          out);
}

int cli_main(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")))
        return cmd_version(argc - 1, argv + 1);
    if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
        !strcmp(argv[1], "-h")) {
        usage(stdout);
        return argc < 2 ? EXIT_USAGE : 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "gpucoh: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
