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

/* What a machine file is: the first sentence of its header comment, less
 * its "; NAME - ". */
static void config_title(const char *path, char *buf, size_t n)
{
    char text[1024] = "";
    size_t len = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        buf[0] = 0;
        return;
    }
    char line[512];
    while (fgets(line, sizeof line, f) && line[0] == ';') {
        const char *t = line + 1 + strspn(line + 1, " \t");
        size_t tl = strcspn(t, "\r\n");
        if (!tl)
            break; /* the end of the first paragraph */
        len += (size_t)snprintf(text + len, len < sizeof text ? sizeof text - len : 0, "%s%.*s",
                                len ? " " : "", (int)tl, t);
        if (len >= sizeof text || text[strlen(text) - 1] == '.')
            break;
    }
    fclose(f);
    const char *from = strstr(text, " - ");
    from = from ? from + 3 : text;
    char *end = strstr((char *)from, ". ");
    while (end && end - from >= 3 && !strncmp(end - 3, "Fig", 3)) /* "Fig. 4" ends nothing */
        end = strstr(end + 2, ". ");
    if (end)
        end[1] = 0;
    snprintf(buf, n, "%s", from);
}

void list_configs(void)
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
        char path[8192], title[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        config_title(path, title, sizeof title);
        printf("%-40s %s\n", path, title);
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
        int width = 0; /* the longest name sets the column */
        for (const struct proto_desc *const *p = proto_registry; *p; p++)
            if ((int)strlen((*p)->name) > width)
                width = (int)strlen((*p)->name);
        for (const struct proto_desc *const *p = proto_registry; *p; p++) {
            printf("%-*s", width, (*p)->name);
            for (unsigned m = 0; order_policies[m]; m++) {
                const char *pr = proto_promise(*p, m);
                printf(" %-3s", pr ? pr : "-");
            }
            printf("  %s%s%s%s%s\n", (*p)->test_only ? "[test only] " : "",
                   (*p)->example ? "[example] " : "", (*p)->multi_gpm ? "[multi-GPM] " : "",
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
              "  configs    machine configurations shipped in configs/: path, description\n"
              "             (the same as gpucoh config list)\n"
              "  workloads  name, set (basic, inter, intra, sync, order, stc, stc-reuse,\n"
              "             mg), what it computes\n",
              strcmp(what, "--help") && strcmp(what, "-h") ? stderr : stdout);
        return strcmp(what, "--help") && strcmp(what, "-h") ? EXIT_USAGE : 0;
    }
    return 0;
}
