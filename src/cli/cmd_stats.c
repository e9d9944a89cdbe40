/*
 * cmd_stats.c - `gpucoh stats diff A.json B.json`: the statistics two
 * stats files (docs/stats.md) disagree on, with B/A.
 *
 * Both files are flattened to one value per name (objects joined with '.',
 * array elements as [i]: "stats.gpu.l2[3].misses", "config.l1.ways",
 * "kernel_stats.launches[1].cycles"; a launch's counters by name:
 * "kernel_stats.launches[1].stats.gpu.l2[3].misses") and compared name by
 * name; `speed` (wall-clock time) is never compared. Differences are printed
 * settings first (what was run differently: the configuration, protocol,
 * workload), then numbers by how far B/A is from 1 (on a log scale: x2 and
 * x0.5 rank alike; a value that is 0 on one side first), then names present
 * on one side only. Exit status as diff(1): 0 no difference, 1 some, 2 bad
 * input.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/log.h"
#include "cli/cmds.h"
#include "cli/opt.h"

static void usage(FILE *out)
{
    fputs("usage: gpucoh stats diff A.json B.json [--all] [--threshold X]\n"
          "\n"
          "Compares two statistics files (--stats of run, exec, litmus, sweep; schema in\n"
          "docs/stats.md) and prints every value that differs, with B/A: first the\n"
          "settings that differ (configuration, protocol, workload), then the numbers,\n"
          "the largest change first (x2 and x0.5 rank alike; a value 0 on one side first),\n"
          "then the names only one file has. Names are flattened: stats.gpu.l2[3].misses,\n"
          "config.l1.ways, kernel_stats.launches[1].stats.gpu.l2[3].misses (launch 1's).\n"
          "speed.* (wall time) is not compared.\n"
          "\n"
          "  --all          also print the values that are equal (after the differences)\n"
          "  --threshold X  count a number as different only if |B/A - 1| > X\n"
          "                 (e.g. 0.01: more than 1%; default 0: any difference)\n"
          "\n"
          "exit status: 0 no difference, 1 differences, 2 usage error or a file that is\n"
          "not a statistics file (FILE:LINE: what is wrong)\n"
          "\n"
          "example: gpucoh stats diff rc.json mesi.json --threshold 0.05\n",
          out);
}

/* One flattened value: a number, or text (strings, booleans, null). */
struct flat {
    char *name;
    bool is_num;
    double num;
    char *text;
};

struct flat_list {
    struct flat *v;
    size_t n, cap;
};

static void add_flat(struct flat_list *l, const char *name, const cJSON *item)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v)
            panic("out of memory");
    }
    struct flat *f = &l->v[l->n++];
    memset(f, 0, sizeof *f);
    f->name = strdup(name);
    if (cJSON_IsNumber(item)) {
        f->is_num = true;
        f->num = item->valuedouble;
    } else {
        f->text = cJSON_IsString(item) ? strdup(item->valuestring)
                                       : strdup(cJSON_IsTrue(item)    ? "true"
                                                : cJSON_IsFalse(item) ? "false"
                                                                      : "null");
    }
    if (!f->name || (!f->is_num && !f->text))
        panic("out of memory");
}

static void flatten(struct flat_list *l, const char *prefix, const cJSON *item)
{
    if (cJSON_IsObject(item) || cJSON_IsArray(item)) {
        unsigned i = 0;
        for (const cJSON *c = item->child; c; c = c->next, i++) {
            size_t n = strlen(prefix) + (c->string ? strlen(c->string) : 0) + 24;
            char *name = malloc(n);
            if (!name)
                panic("out of memory");
            if (cJSON_IsArray(item))
                snprintf(name, n, "%s[%u]", prefix, i);
            else
                snprintf(name, n, "%s%s%s", prefix, *prefix ? "." : "", c->string);
            if (strcmp(name, "speed"))
                flatten(l, name, c);
            free(name);
        }
        return;
    }
    add_flat(l, prefix, item);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct flat *)a)->name, ((const struct flat *)b)->name);
}

static void free_flat(struct flat_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].name);
        free(l->v[i].text);
    }
    free(l->v);
}

/* kernel_stats' columns (names, and per launch values[] in their order)
 * become per launch an object "stats" of name: value, so that a launch's
 * counter is compared by its name (kernel_stats.launches[1].stats.gpu.l2[0].misses). */
static void name_kernel_values(cJSON *root)
{
    cJSON *ks = cJSON_GetObjectItemCaseSensitive(root, "kernel_stats");
    cJSON *names = cJSON_GetObjectItemCaseSensitive(ks, "names");
    cJSON *launches = cJSON_GetObjectItemCaseSensitive(ks, "launches");
    if (!cJSON_IsArray(names) || !cJSON_IsArray(launches))
        return;
    for (cJSON *l = launches->child; l; l = l->next) {
        cJSON *values = cJSON_GetObjectItemCaseSensitive(l, "values");
        if (!cJSON_IsArray(values))
            continue;
        cJSON *named = cJSON_CreateObject();
        const cJSON *n = names->child, *v = values->child;
        for (; n && v; n = n->next, v = v->next)
            if (cJSON_IsString(n))
                cJSON_AddItemToObject(named, n->valuestring, cJSON_Duplicate(v, false));
        cJSON_DeleteItemFromObjectCaseSensitive(l, "values");
        cJSON_AddItemToObject(l, "stats", named);
    }
    cJSON_DeleteItemFromObjectCaseSensitive(ks, "names");
}

/* Load and flatten a stats file; exit 2 with PATH:LINE: what is wrong. */
static void load(const char *path, struct flat_list *l)
{
    char err[1024];
    size_t len;
    char *text = file_read_source(path, &len, err, sizeof err);
    if (!text)
        fatal("%s", err);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, true);
    if (!root) {
        const char *at = end ? end : cJSON_GetErrorPtr();
        unsigned line = 1;
        for (const char *p = text; at && p < at && *p; p++)
            line += *p == '\n';
        free(text);
        fatal("%s:%u: not valid JSON", path, line);
    }
    free(text);
    if (!cJSON_IsObject(root) || !cJSON_GetObjectItemCaseSensitive(root, "gpucoh_version")) {
        cJSON_Delete(root);
        fatal("%s:1: not a gpucoh statistics file (no gpucoh_version member; docs/stats.md)", path);
    }
    name_kernel_values(root);
    flatten(l, "", root);
    cJSON_Delete(root);
    qsort(l->v, l->n, sizeof *l->v, by_name);
}

/* A row of the report: a name in A, B or both. */
struct row {
    const struct flat *a, *b;
    int group;    /* 0 settings, 1 numbers, 2 one side only, 3 equal */
    double score; /* numbers: |log(B/A)|, HUGE_VAL when one side is 0 */
};

static int by_rank(const void *x, const void *y)
{
    const struct row *a = x, *b = y;
    if (a->group != b->group)
        return a->group - b->group;
    if (a->score != b->score)
        return a->score < b->score ? 1 : -1;
    return strcmp((a->a ? a->a : a->b)->name, (b->a ? b->a : b->b)->name);
}

static void put_value(const struct flat *f, char *buf, size_t n)
{
    if (!f)
        snprintf(buf, n, "-");
    else if (!f->is_num)
        snprintf(buf, n, "%s", f->text);
    else if (f->num == floor(f->num) && fabs(f->num) < 1e18)
        snprintf(buf, n, "%.0f", f->num);
    else
        snprintf(buf, n, "%.6g", f->num);
}

static int diff(const char *pa, const char *pb, bool all, double threshold)
{
    struct flat_list la = {0}, lb = {0};
    load(pa, &la);
    load(pb, &lb);
    struct row *rows = calloc(la.n + lb.n + 1, sizeof *rows);
    if (!rows)
        panic("out of memory");
    size_t n = 0, i = 0, j = 0, compared = 0, differ = 0;
    while (i < la.n || j < lb.n) {
        int c = i == la.n ? 1 : j == lb.n ? -1 : strcmp(la.v[i].name, lb.v[j].name);
        struct row r = {c <= 0 ? &la.v[i] : NULL, c >= 0 ? &lb.v[j] : NULL, 3, 0};
        i += c <= 0;
        j += c >= 0;
        compared++;
        if (!r.a || !r.b) {
            r.group = 2;
        } else if (r.a->is_num && r.b->is_num) {
            double x = r.a->num, y = r.b->num;
            if (x != y) {
                r.score = x == 0 || y == 0 || (x < 0) != (y < 0) ? HUGE_VAL : fabs(log(y / x));
                bool beyond = x == 0 ? fabs(y) > 0 : fabs(y / x - 1) > threshold;
                r.group = beyond ? 1 : 3;
            }
        } else if (r.a->is_num != r.b->is_num || !r.a->is_num) {
            bool same = !r.a->is_num && !r.b->is_num && !strcmp(r.a->text, r.b->text);
            r.group = same ? 3 : 0;
        }
        differ += r.group != 3;
        if (r.group != 3 || all)
            rows[n++] = r;
    }
    qsort(rows, n, sizeof *rows, by_rank);
    int width = 9;
    for (size_t k = 0; k < n; k++) {
        int w = (int)strlen((rows[k].a ? rows[k].a : rows[k].b)->name);
        width = w > width ? w : width;
    }
    width = width > 60 ? 60 : width;
    if (n)
        printf("%-*s  %16s  %16s  %9s\n", width, "statistic", "A", "B", "B/A");
    static const char *const heads[] = {"settings that differ", "numbers that differ",
                                        "in one file only", "equal"};
    int group = -1;
    for (size_t k = 0; k < n; k++) {
        const struct row *r = &rows[k];
        if (r->group != group) {
            group = r->group;
            printf("-- %s\n", heads[group]);
        }
        char va[128], vb[128], q[32] = "";
        put_value(r->a, va, sizeof va);
        put_value(r->b, vb, sizeof vb);
        if (r->a && r->b && r->a->is_num && r->b->is_num) {
            if (r->a->num != 0)
                snprintf(q, sizeof q, "%.4g", r->b->num / r->a->num);
            else
                snprintf(q, sizeof q, r->b->num == 0 ? "1" : "inf");
        }
        printf("%-*s  %16s  %16s  %9s\n", width, (r->a ? r->a : r->b)->name, va, vb, q);
    }
    printf("%zu of %zu values differ%s (A: %s, B: %s)\n", differ, compared,
           threshold > 0 ? " beyond the threshold" : "", pa, pb);
    free(rows);
    free_flat(&la);
    free_flat(&lb);
    return differ ? EXIT_CHECK_FAILED : 0;
}

int cmd_stats(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "diff")) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            usage(stdout);
            return 0;
        }
        if (argc >= 2)
            fprintf(stderr, "gpucoh stats: unknown subcommand '%s' (known: diff)\n", argv[1]);
        usage(stderr);
        return EXIT_USAGE;
    }
    bool all = false;
    double threshold = 0;
    const char *files[2] = {NULL, NULL};
    const struct opt rows[] = {
        OPT_FLAG_ROW("--all", NULL, &all),
        OPT_F64_ROW("--threshold", NULL, &threshold, 0, 1e9),
        OPT_END,
    };
    struct opt_args pos = {files, 0, 2};
    int rc = opt_parse("stats diff", (const struct opt *const[]){rows, NULL}, argc, argv, 2, &pos,
                       usage);
    if (rc != OPT_CONTINUE)
        return rc;
    if (pos.n != 2) {
        fprintf(stderr, "gpucoh stats diff: two statistics files are needed (A.json B.json)\n");
        usage(stderr);
        return EXIT_USAGE;
    }
    return diff(files[0], files[1], all, threshold);
}
