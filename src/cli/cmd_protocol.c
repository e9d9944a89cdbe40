/*
 * cmd_protocol.c - `gpucoh protocol show NAME`: a protocol's controller
 * tables, as Markdown (for docs/protocols/) or Graphviz dot, or their size
 * (states, events, transitions: spec 003 §2.8 compares protocols by it).
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
    fputs("usage: gpucoh protocol show NAME [--format md|dot|count]\n"
          "\n"
          "Prints every controller table of protocol NAME (gpucoh list protocols):\n"
          "states, events, and for each (state, event) the actions and next state.\n"
          "Empty cells are protocol holes: reaching one stops a run with exit 3.\n"
          "\n"
          "--format count prints the size of each table instead, one line per\n"
          "controller: states, events, transitions (cells with actions) and stall\n"
          "cells, and the protocol's totals; NAME may be `all` (every protocol but\n"
          "the test-only ones). A measure of how much a design has to validate.\n"
          "\n"
          "example: gpucoh protocol show spandex-d --format count\n",
          out);
}

static void print_count_header(void)
{
    printf("%-10s %-18s %6s %6s %11s %6s\n", "protocol", "controller", "states", "events",
           "transitions", "stalls");
}

/* One line per table and the protocol's total: states, events, cells with
 * actions, stall cells. */
static void print_count(const struct proto_desc *p)
{
    unsigned states = 0, events = 0, done = 0, stalls = 0;
    for (const struct coh_table *const *t = p->tables; *t; t++) {
        unsigned d = 0, st = 0;
        for (unsigned s = 0; s < (*t)->n_states; s++)
            for (unsigned e = 0; e < (*t)->n_events; e++) {
                const struct coh_trans *c = coh_cell(*t, s, e);
                d += c->kind == COH_DO;
                st += c->kind == COH_STALL;
            }
        char ctrl[64];
        snprintf(ctrl, sizeof ctrl, "%s.%s", (*t)->proto, (*t)->ctrl);
        printf("%-10s %-18s %6u %6u %11u %6u\n", p->name, ctrl, (*t)->n_states, (*t)->n_events, d,
               st);
        states += (*t)->n_states;
        events += (*t)->n_events;
        done += d;
        stalls += st;
    }
    printf("%-10s %-18s %6u %6u %11u %6u\n", p->name, "total", states, events, done, stalls);
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
    static const char *const formats[] = {"md", "dot", "count", NULL};
    int fmt = 0;
    const struct opt rows[] = {OPT_ENUM_ROW("--format", NULL, &fmt, formats), OPT_END};
    struct opt_args pos = {&name, 0, 1};
    int rc =
        opt_parse("protocol", (const struct opt *const[]){rows, NULL}, argc, argv, 2, &pos, usage);
    if (rc != OPT_CONTINUE)
        return rc;
    format = formats[fmt];
    if (!strcmp(format, "count") && name && !strcmp(name, "all")) {
        print_count_header();
        for (const struct proto_desc *const *q = proto_registry; *q; q++)
            if (!(*q)->test_only && !(*q)->example)
                print_count(*q);
        return 0;
    }
    const struct proto_desc *p = name ? proto_find(name) : NULL;
    if (!p)
        fatal("unknown protocol '%s' (gpucoh list protocols)", name ? name : "");
    if (!strcmp(format, "count")) {
        print_count_header();
        print_count(p);
        return 0;
    }
    if (!strcmp(format, "md")) {
        printf("# Protocol `%s`\n\n%s. Promises the %s memory model; %u virtual networks (",
               p->name, p->title, mem_model_names[p->model], p->n_vnets);
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
