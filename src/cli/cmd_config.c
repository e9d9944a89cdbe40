/*
 * cmd_config.c - `gpucoh config show`: the fully resolved configuration;
 * `gpucoh config list`: the machine files shipped in configs/.
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
          "       gpucoh config list\n"
          "\n"
          "list: the machine files in configs/ with what each is (tc-fermi, the default;\n"
          "the papers' machines; volta-v100 and ampere-a100, presets of current GPUs with\n"
          "the source of every number in their comments). Use one with --config FILE.\n"
          "\n"
          "show: prints the configuration after applying the file and every --set, in INI form\n"
          "(so it can be saved and reused), once it has passed every check a run makes.\n"
          "--help-keys adds each option's meaning, unit and allowed values. A comment line\n"
          "says which memory model the machine promises programs: the protocol's own under\n"
          "order.model = rmo, tso or sc under those models on a write-atomic protocol; other\n"
          "combinations are refused (exit 2).\n"
          "\n" SIM_HELP_MACHINE,
          out);
}

int cmd_config(int argc, char **argv)
{
    struct sim_opts o = {0};
    bool verbose = false;
    if (argc == 2 && !strcmp(argv[1], "list")) {
        list_configs();
        return 0;
    }
    if (argc < 2 || strcmp(argv[1], "show")) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            usage(stdout);
            return 0;
        }
        usage(stderr);
        return EXIT_USAGE;
    }
    struct opt sim_rows[SIM_OPT_ROWS];
    sim_opts_rows(&o, SIM_OPT_MACHINE, sim_rows);
    const struct opt rows[] = {OPT_FLAG_ROW("--help-keys", NULL, &verbose), OPT_END};
    int rc = opt_parse("config", (const struct opt *const[]){rows, sim_rows, NULL}, argc, argv, 2,
                       NULL, usage);
    if (rc != OPT_CONTINUE)
        return rc;
    struct config c;
    char err[512];
    const char *file = o.config_file ? o.config_file : config_default_file();
    if (config_load(&c, file, o.sets, o.n_sets, err, sizeof err))
        fatal("%s", err);
    printf("; resolved from %s%s\n", file, o.n_sets ? " and --set overrides" : "");
    printf("; promises programs the %s memory model (order.model = %s on %s)\n", config_promise(&c),
           order_policy_names[c.sm.order.model], c.coherence.protocol);
    cfg_print(config_options(), &c, stdout, verbose);
    return 0;
}
