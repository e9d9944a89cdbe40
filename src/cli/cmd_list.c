/*
 * cmd_list.c - `gpucoh list protocols|configs|workloads`.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "cli/cmds.h"
#include "coh/proto.h"
#include "gpu/order.h"
#include "system/config.h"
#include "host/workload.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_configs(void)
{
    const char *root = getenv("GPUCOH_ROOT");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/configs", root ? root : GPUCOH_SOURCE_DIR);
    DIR *d = opendir(dir);
    if (!d)
        fatal("%s: cannot open", dir);
    char *names[256];
    unsigned n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".ini"))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (unsigned i = 0; i < n; i++) {
        printf("%s/%s\n", dir, names[i]);
        free(names[i]);
    }
}

int cmd_list(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (argc > 2) {
        fprintf(stderr, "gpucoh list: unexpected argument '%s'\n", argv[2]);
        return EXIT_USAGE;
    }
    if (!strcmp(what, "protocols")) {
        for (const struct proto_desc *const *p = proto_registry; *p; p++) {
            printf("%-10s", (*p)->name);
            for (unsigned m = 0; order_policies[m]; m++) {
                const char *pr = proto_promise(*p, m);
                printf(" %-3s", pr ? pr : "-");
            }
            printf("  %s%s%s%s\n", (*p)->test_only ? "[test only] " : "",
                   (*p)->multi_gpm ? "[multi-GPM] " : "",
                   (*p)->not_in_all ? "[not in all] " : "", (*p)->title);
        }
    } else if (!strcmp(what, "configs")) {
        list_configs();
    } else if (!strcmp(what, "workloads")) {
        for (const struct workload *const *w = wl_registry; *w; w++)
            printf("%-18s %-9s %s\n", (*w)->name, (*w)->set, (*w)->desc);
    } else {
        fputs("usage: gpucoh list protocols|configs|workloads\n"
              "  protocols  name; the memory model the machine promises programs under\n"
              "             order.model = rmo, tso, sc, sc-typeaware ('-': refused, the\n"
              "             protocol is not write-atomic, or runs only under another\n"
              "             model, as rccsc needs sc); what it is\n"
              "  configs    machine configurations shipped in configs/\n"
              "  workloads  name, set (basic, inter, intra, sync, order, stc, stc-reuse,\n"
              "             mg), what it computes\n",
              strcmp(what, "--help") && strcmp(what, "-h") ? stderr : stdout);
        return strcmp(what, "--help") && strcmp(what, "-h") ? EXIT_USAGE : 0;
    }
    return 0;
}
