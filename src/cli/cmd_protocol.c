/*
 * cmd_protocol.c - `gpucoh protocol show NAME`: a protocol's controller
 * tables, as Markdown (for docs/protocols/) or Graphviz dot.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "cli/cmds.h"
#include "cli/opt.h"
#include "coh/proto.h"

static void usage(FILE *out)
{
    fputs("usage: gpucoh protocol show NAME [--format md|dot]\n"
          "\n"
          "Prints every controller table of protocol NAME (gpucoh list protocols):\n"
          "states, events, and for each (state, event) the actions and next state.\n"
          "Empty cells are protocol holes: reaching one stops a run with exit 3.\n",
          out);
}

int cmd_protocol(int argc, char **argv)
{
    const char *name = NULL, *format = "md";
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (argc < 3 || strcmp(argv[1], "show")) {
        usage(stderr);
        return EXIT_USAGE;
    }
    static const char *const formats[] = {"md", "dot", NULL};
    int fmt = 0;
    const struct opt rows[] = {OPT_ENUM_ROW("--format", NULL, &fmt, formats), OPT_END};
    struct opt_args pos = {&name, 0, 1};
    int rc = opt_parse("protocol", (const struct opt *const[]){rows, NULL}, argc, argv, 2, &pos,
                       usage);
    if (rc != OPT_CONTINUE)
        return rc;
    format = formats[fmt];
    const struct proto_desc *p = name ? proto_find(name) : NULL;
    if (!p)
        fatal("unknown protocol '%s' (gpucoh list protocols)", name ? name : "");
    if (!strcmp(format, "md")) {
        printf("# Protocol `%s`\n\n%s. Promises the %s memory model; %u virtual networks (", p->name,
               p->title, mem_model_names[p->model], p->n_vnets);
        for (unsigned v = 0; v < p->n_vnets; v++)
            printf("%s%s", v ? ", " : "", p->vnet_names[v]);
        printf(").\n\n");
    }
    for (const struct coh_table *const *t = p->tables; *t; t++) {
        if (!strcmp(format, "md"))
            coh_table_print_md(*t, stdout);
        else
            coh_table_print_dot(*t, stdout);
    }
    return 0;
}
