/*
 * cli.c - gpucoh's top level: subcommand table and help.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

#include "base/log.h"

static int cmd_version(int argc, char **argv)
{
    (void)argc, (void)argv;
    printf("gpucoh %s\n", GPUCOH_VERSION);
    return 0;
}

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    {"version", cmd_version, "print the version"},
};

static void usage(FILE *out)
{
    fputs("usage: gpucoh COMMAND [options]   (gpucoh COMMAND --help for more)\n\ncommands:\n",
          out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
}

int cli_main(int argc, char **argv)
{
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
