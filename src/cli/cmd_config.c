/*
 * cmd_config.c - `gpucoh config show`: the fully resolved configuration.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "cli/cmds.h"
#include "cli/common.h"

static void usage(FILE *out)
{
    fputs("usage: gpucoh config show [--config FILE] [--set SECTION.KEY=V]... [--help-keys]\n"
          "\n"
          "Prints the configuration after applying the file and every --set, in INI form\n"
          "(so it can be saved and reused). --help-keys adds each option's meaning, unit\n"
          "and allowed values. A comment line says which memory model the machine\n"
          "promises programs: the protocol's own under order.model = rmo, tso or sc under\n"
          "those models on a write-atomic protocol; other combinations are refused (exit 2).\n",
          out);
}

int cmd_config(int argc, char **argv)
{
    struct sim_opts o = {0};
    bool verbose = false;
    if (argc < 2 || strcmp(argv[1], "show")) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            usage(stdout);
            return 0;
        }
        usage(stderr);
        return EXIT_USAGE;
    }
    for (int i = 2; i < argc; i++) {
        if (sim_opts_take(&o, argc, argv, &i))
            continue;
        if (!strcmp(argv[i], "--help-keys")) {
            verbose = true;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "gpucoh config: unknown option '%s'\n", argv[i]);
            return EXIT_USAGE;
        }
    }
    struct config c;
    char err[512];
    const char *file = o.config_file ? o.config_file : config_default_file();
    if (config_load(&c, file, o.sets, o.n_sets, err, sizeof err))
        fatal("%s", err);
    printf("; resolved from %s%s\n", file, o.n_sets ? " and --set overrides" : "");
    printf("; promises programs the %s memory model (order.model = %s on %s)\n",
           config_promise(&c), order_policy_names[c.sm.order.model], c.coherence.protocol);
    cfg_print(config_options(), &c, stdout, verbose);
    return 0;
}
