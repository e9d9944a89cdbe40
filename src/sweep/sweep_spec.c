/*
 * sweep_spec.c - the sweep spec parser: lines of directives, grouped into
 * blocks, each expanded to the cross product of its axes.
 *
 *   sweep NAME                 start a block (the lines before the first one form a block too)
 *   workloads W...             workload names or sets (basic inter intra sync all); W:VARIANT
 *                              runs a workload's variant (its input: ht:m)
 *   protocols P...             registry protocols, or NAME=PROTO[:KEY=V[,KEY=V...]]; the key
 *                              `variant` selects the workloads' twin (getm=getm:variant=tx)
 *   sizes S...                 tiny small paper (default small)
 *   set KEY V...               a parameter axis; several axes multiply
 *   config FILE...             machine files, an axis (default: the default machine)
 *   model memory|frames        what the block simulates (first in its block; default memory)
 *   seed N                     the generated input's seed (`--input-seed`, default 1);
 *                              frames: the trace generator's seed (default 1)
 *
 * A frames block runs the split-frame rendering model (gpucoh chopin run):
 * its workloads are games (gpucoh chopin gen), its protocols designs, its
 * keys those of `gpucoh chopin config`, its machine files the model's.
 *
 * Everything a run does is checked here, before any child starts: workloads
 * and protocols against the registries, keys against the option table, each
 * value by loading it, machine files by loading them. Errors are
 * "spec:line: what is wrong" and nothing is run.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "sweep/sweep.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "base/hash.h"
#include "base/log.h"
#include "coh/proto.h"
#include "gfx/gen.h"
#include "host/launchspec.h"
#include "host/workload.h"
#include "sim/cfg.h"
#include "system/config.h"

#define MAX_TOKENS 256
#define MAX_AXES   8

struct pentry { /* one item of a protocols line */
    const char *name, *protocol;
    const char *variant; /* variant=V: joined to each workload's (NULL: none) */
    const char *settings[SWEEP_MAX_SETTINGS];
    unsigned n_settings;
    bool missing;
};

struct axis {
    const char *key;
    const char *values[MAX_TOKENS];
    unsigned n;
};

struct block {
    const char *name;
    unsigned line; /* its `sweep` line (0 for the leading block) */
    enum sweep_model model;
    unsigned n_directives; /* other than sweep and model: model must come first */
    const char *seed;      /* frames: the trace's; memory: the input's, NULL for the default */
    unsigned seed_line;
    /* seed N1 N2...: the block once per seed, each copy named NAME followed
     * by its seed (sweep seed + seed 2 3: blocks seed2 and seed3) */
    const char *seeds[MAX_TOKENS];
    unsigned n_seeds;
    const char *wl_names[MAX_TOKENS], *wl_sets[MAX_TOKENS];
    const struct workload *wls[MAX_TOKENS]; /* memory blocks: the registry entry */
    const char *wl_variants[MAX_TOKENS];    /* W:VARIANT's variant, or NULL */
    const char *wl_specs[MAX_TOKENS];       /* a launch spec's resolved path, or NULL */
    unsigned wl_lines[MAX_TOKENS];
    unsigned n_wls;
    struct pentry prs[MAX_TOKENS];
    unsigned n_prs, prs_line;
    const char *sizes[WL_NSIZES * 4];
    unsigned n_sizes;
    struct axis axes[MAX_AXES];
    unsigned n_axes;
    const char *configs[MAX_TOKENS];      /* as written (hashed) */
    const char *config_paths[MAX_TOKENS]; /* resolved (passed to the child) */
    unsigned n_configs;
    bool any; /* a directive was seen */
};

static int fail(char *err, size_t n, const char *path, unsigned line, const char *fmt, ...)
    PRINTF_LIKE(5, 6);
static int fail(char *err, size_t n, const char *path, unsigned line, const char *fmt, ...)
{
    int k = snprintf(err, n, "%s:%u: ", path, line);
    va_list ap;
    va_start(ap, fmt);
    if (k >= 0 && (size_t)k < n)
        vsnprintf(err + k, n - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *own(struct sweep_spec *s, const char *text)
{
    if (s->n_owned == s->cap_owned) {
        s->cap_owned = s->cap_owned ? 2 * s->cap_owned : 64;
        s->owned = realloc(s->owned, s->cap_owned * sizeof *s->owned);
        if (!s->owned)
            abort();
    }
    char *copy = strdup(text);
    if (!copy)
        abort();
    s->owned[s->n_owned++] = copy;
    return copy;
}

/* A machine file named in a spec: as written, else under the project root. */
static const char *resolve_config(struct sweep_spec *s, const char *written)
{
    if (!access(written, R_OK))
        return own(s, written);
    if (written[0] == '/')
        return NULL;
    const char *root = getenv("GPUCOH_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root ? root : GPUCOH_SOURCE_DIR, written);
    if (!access(path, R_OK))
        return own(s, path);
    return NULL;
}

const char *const sweep_model_names[2] = {"memory", "frames"};

/* Check one "key=value" of the split-frame model by loading it. */
static int check_frame_setting(const char *kv, const char *path, unsigned line, char *err, size_t n)
{
    struct sfr_config c;
    char why[512];
    if (!sfr_config_load(&c, NULL, &kv, 1, why, sizeof why))
        return 0;
    const char *msg = strncmp(why, "--set: ", 7) ? why : why + 7;
    return fail(err, n, path, line, "%s (gpucoh chopin config --verbose)", msg);
}

/* "key=value" must have that form (file:line and exit 2 if not). */
static int check_form(const char *kv, const char *path, unsigned line, char *err, size_t n)
{
    const char *eq = strchr(kv, '=');
    return !eq || eq == kv ? fail(err, n, path, line, "'%s' is not KEY=VALUE", kv) : 0;
}

/* Check one "key=value" against the option table: its form and its key. */
static int check_key(const char *kv, const char *path, unsigned line, char *err, size_t n)
{
    if (check_form(kv, path, line, err, n))
        return -1;
    size_t klen = (size_t)(strchr(kv, '=') - kv);
    const struct cfg_opt *o;
    for (o = config_options(); o->name; o++)
        if (strlen(o->name) == klen && !strncmp(o->name, kv, klen))
            break;
    if (!o->name && !strncmp(kv, "variant", klen))
        return fail(err, n, path, line,
                    "variant is not an option: a configuration selects the "
                    "workloads' variant (NAME=PROTOCOL:variant=V), a workload its own (W:V)");
    if (!o->name)
        return fail(err, n, path, line, "unknown option '%.*s' (gpucoh config show --help-keys)",
                    (int)klen, kv);
    if (!strncmp(kv, "coherence.protocol", klen))
        return fail(err, n, path, line, "set the protocol with a protocols line, not %.*s",
                    (int)klen, kv);
    return 0;
}

/* Whether the settings kvs[0..n_kv) load together: on the default machine,
 * or, with proto (a protocol's name), on that protocol. why: the reason of
 * the last load that failed. */
static bool loads(const char *const *kvs, unsigned n_kv, const char *proto, char *why,
                  size_t why_len)
{
    const char *with[SWEEP_MAX_SETTINGS + 1];
    char proto_kv[80];
    struct config cfg;
    if (!config_load(&cfg, NULL, kvs, n_kv, why, why_len))
        return true;
    if (!proto || !proto_find(proto) ||
        snprintf(proto_kv, sizeof proto_kv, "coherence.protocol=%s", proto) >= (int)sizeof proto_kv)
        return false;
    with[0] = proto_kv;
    memcpy(with + 1, kvs, n_kv * sizeof *kvs);
    return !config_load(&cfg, NULL, with, n_kv + 1, why, why_len);
}

/* Check one "key=value" by its key and by loading it: alone on the default
 * machine, and, for a protocols entry (proto not NULL), on its protocol too.
 * It is wrong only when both fail, so that a setting valid only on some
 * protocols (order.model=tso needs a write-atomic one) is judged on its own,
 * and one that needs the block's machine file (rccsc needs the order.model =
 * sc of configs/rcc-fermi.ini) is left to the run. */
static int check_setting(enum sweep_model model, const char *kv, const char *proto,
                         const char *path, unsigned line, char *err, size_t n)
{
    if (model == SWEEP_FRAMES)
        return check_form(kv, path, line, err, n) ? -1
                                                  : check_frame_setting(kv, path, line, err, n);
    if (check_key(kv, path, line, err, n))
        return -1;
    char why[512];
    if (!loads(&kv, 1, proto, why, sizeof why)) {
        const char *msg = strncmp(why, "--set: ", 7) ? why : why + 7; /* it is not a --set here */
        return fail(err, n, path, line, "%s", msg);
    }
    return 0;
}

/* A protocols entry's settings: each one's key, then the entry's settings
 * loaded together (a pair that is valid only together, l1.line=32 with
 * l2.line=32, is a configuration), or else each alone, as check_setting
 * judges them, so that the message names the setting that is wrong. */
static int check_entry_settings(enum sweep_model model, const char *const *kvs, unsigned n_kv,
                                const char *proto, const char *path, unsigned line, char *err,
                                size_t n)
{
    if (model == SWEEP_FRAMES) {
        for (unsigned i = 0; i < n_kv; i++)
            if (check_setting(model, kvs[i], NULL, path, line, err, n))
                return -1;
        return 0;
    }
    for (unsigned i = 0; i < n_kv; i++)
        if (check_key(kvs[i], path, line, err, n))
            return -1;
    char why[512];
    if (n_kv > 1 && loads(kvs, n_kv, proto, why, sizeof why))
        return 0;
    for (unsigned i = 0; i < n_kv; i++)
        if (check_setting(model, kvs[i], proto, path, line, err, n))
            return -1;
    return 0;
}

static bool valid_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_' || *s == '.'))
            return false;
    return true;
}

/* NAME=PROTO[:KEY=V[,KEY=V...]] or PROTO. */
static int parse_pentry(struct sweep_spec *s, struct pentry *p, enum sweep_model model,
                        const char *tok, const struct sweep_parse_opts *o, const char *path,
                        unsigned line, char *err, size_t n)
{
    memset(p, 0, sizeof *p);
    char buf[1024];
    if (strlen(tok) >= sizeof buf)
        return fail(err, n, path, line, "protocol entry too long");
    strcpy(buf, tok);
    char *eq = strchr(buf, '=');
    char *proto = buf, *rest = NULL;
    if (eq) {
        *eq = 0;
        proto = eq + 1;
        char *colon = strchr(proto, ':');
        if (colon) {
            *colon = 0;
            rest = colon + 1;
        }
    }
    if (!valid_name(buf))
        return fail(err, n, path, line,
                    "'%s': a configuration name is letters, digits, '-', '_', '.'", tok);
    if (!valid_name(proto))
        return fail(err, n, path, line, "'%s': expected NAME=PROTOCOL[:KEY=VALUE,...]", tok);
    p->name = own(s, buf);
    p->protocol = own(s, proto);
    if (rest) {
        if (!*rest)
            return fail(err, n, path, line, "'%s': no settings after ':'", tok);
        for (char *kv = strtok(rest, ","); kv; kv = strtok(NULL, ",")) {
            if (!strncmp(kv, "variant=", 8) && model == SWEEP_MEMORY) {
                if (p->variant || !valid_name(kv + 8))
                    return fail(err, n, path, line, "'%s': %s", tok,
                                p->variant ? "variant given twice"
                                           : "a variant is letters, digits, '-', '_', '.'");
                p->variant = own(s, kv + 8);
                continue;
            }
            if (p->n_settings == SWEEP_MAX_SETTINGS)
                return fail(err, n, path, line, "too many settings in '%s'", tok);
            p->settings[p->n_settings++] = own(s, kv);
        }
        if (check_entry_settings(model, p->settings, p->n_settings, proto, path, line, err, n))
            return -1;
    }
    if (model == SWEEP_FRAMES) {
        if (sfr_design_find(p->protocol) < 0)
            return fail(err, n, path, line,
                        "unknown design '%s' (dup gpupd gpupd-ideal chopin chopin-cs "
                        "chopin-ideal)",
                        p->protocol);
        return 0;
    }
    const struct proto_desc *d = proto_find(p->protocol);
    if (!d) {
        if (!o || !o->skip_missing)
            return fail(err, n, path, line,
                        "protocol '%s' is not built in this gpucoh (gpucoh list protocols)",
                        p->protocol);
        p->missing = true;
    }
    return 0;
}

/* name is the app as written ("ht:m" for a workload's variant). */
static int add_workload(struct block *b, const char *name, const char *set,
                        const struct workload *w, const char *variant, const char *path,
                        unsigned line, char *err, size_t n)
{
    for (unsigned k = 0; k < b->n_wls; k++)
        if (!strcmp(b->wl_names[k], name))
            return 0;
    if (b->n_wls == MAX_TOKENS)
        return fail(err, n, path, line, "too many workloads");
    b->wl_specs[b->n_wls] = NULL;
    b->wls[b->n_wls] = w;
    b->wl_variants[b->n_wls] = variant;
    b->wl_lines[b->n_wls] = line;
    b->wl_names[b->n_wls] = name;
    b->wl_sets[b->n_wls++] = set;
    return 0;
}

/* The variants w declares, for a message: "tx, m, m-tx" or "it has none". */
static void variant_list(const struct workload *w, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (const char *const *v = w->variants; v && *v; v++)
        len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s",
                                v == w->variants ? "" : ", ", *v);
    if (!w->variants || !*w->variants)
        snprintf(buf, n, "it has none");
}

/* A frames block's workload: a game of the trace generator, or all of them. */
static int take_game(struct block *b, const char *tok, const char *path, unsigned line, char *err,
                     size_t n)
{
    bool all = !strcmp(tok, "all") || !strcmp(tok, "games");
    if (!all && !gfx_game_find(tok))
        return fail(err, n, path, line,
                    "unknown game '%s' (cod2 cry grid mirror nfs stal ut3 wolf, or games)", tok);
    for (const struct gfx_game *g = gfx_games; g->name; g++)
        if ((all || !strcmp(tok, g->name)) &&
            add_workload(b, g->name, "games", NULL, NULL, path, line, err, n))
            return -1;
    return 0;
}

/* A launch spec named as a workload (`workloads mine.spec`, docs/sweep.md):
 * found beside the sweep file, else from the current folder, else under
 * the project root, and loaded (its PTX parsed, its launches checked) so
 * that a mistake in it is found before anything runs. */
static int take_launch_spec(struct sweep_spec *s, struct block *b, const char *tok,
                            const char *path, unsigned line, char *err, size_t n)
{
    char beside[4096];
    const char *slash = strrchr(path, '/');
    snprintf(beside, sizeof beside, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, tok);
    const char *found =
        tok[0] != '/' && !access(beside, R_OK) ? own(s, beside) : resolve_config(s, tok);
    if (!found)
        return fail(err, n, path, line,
                    "launch spec '%s' not found (looked beside %s, in the current folder and "
                    "under the project root)",
                    tok, path);
    char why[1024];
    struct launchspec *ls = launchspec_load(found, why, sizeof why);
    if (!ls)
        return fail(err, n, path, line, "workload %s: %s", tok, why);
    bool runs = ls->n_launches > 0;
    launchspec_free(ls);
    if (!runs)
        return fail(err, n, path, line, "workload %s: the launch spec launches no kernel", tok);
    if (add_workload(b, own(s, tok), "spec", NULL, NULL, path, line, err, n))
        return -1;
    for (unsigned k = 0; k < b->n_wls; k++)
        if (!strcmp(b->wl_names[k], tok))
            b->wl_specs[k] = found;
    return 0;
}

static bool is_launch_spec(const char *tok)
{
    size_t len = strlen(tok);
    return len > 5 && !strcmp(tok + len - 5, ".spec");
}

static int take_workload(struct sweep_spec *s, struct block *b, const char *tok, const char *path,
                         unsigned line, char *err, size_t n)
{
    if (b->model == SWEEP_MEMORY && is_launch_spec(tok))
        return take_launch_spec(s, b, tok, path, line, err, n);
    const char *colon = strchr(tok, ':');
    if (colon && b->model == SWEEP_FRAMES)
        return fail(err, n, path, line, "'%s': a game has no variants", tok);
    if (b->model == SWEEP_FRAMES)
        return take_game(b, tok, path, line, err, n);
    if (colon) { /* NAME:VARIANT, one workload's variant */
        char name[256], list[512];
        size_t len = (size_t)(colon - tok);
        if (len >= sizeof name || !colon[1])
            return fail(err, n, path, line, "'%s': expected WORKLOAD:VARIANT", tok);
        memcpy(name, tok, len);
        name[len] = 0;
        const struct workload *w = wl_find(name);
        if (!w)
            return fail(err, n, path, line,
                        "unknown workload '%s' (gpucoh list workloads; a set "
                        "has no variants)",
                        name);
        if (!wl_has_variant(w, colon + 1)) {
            variant_list(w, list, sizeof list);
            return fail(err, n, path, line, "workload %s has no variant '%s' (%s)", name, colon + 1,
                        list);
        }
        return add_workload(b, own(s, tok), w->set, w, own(s, colon + 1), path, line, err, n);
    }
    bool is_set = !strcmp(tok, "all");
    for (const struct workload *const *w = wl_registry; *w; w++)
        is_set |= !strcmp((*w)->set, tok);
    const struct workload *found[MAX_TOKENS];
    unsigned nf = 0;
    if (is_set) {
        for (const struct workload *const *w = wl_registry; *w && nf < MAX_TOKENS; w++)
            if (!strcmp(tok, "all") || !strcmp((*w)->set, tok))
                found[nf++] = *w;
    } else {
        const struct workload *w = wl_find(tok);
        if (!w)
            return fail(err, n, path, line, "unknown workload '%s' (gpucoh list workloads)", tok);
        found[nf++] = w;
    }
    for (unsigned i = 0; i < nf; i++)
        if (add_workload(b, found[i]->name, found[i]->set, found[i], NULL, path, line, err, n))
            return -1;
    return 0;
}

/* h updated with one field of a run id: its text, then a separator byte. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
    return hash_fnv1a(hash_fnv1a(h, s, strlen(s)), "\xff", 1);
}

static int cmp_setting(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    size_t lx = strcspn(x, "="), ly = strcspn(y, "=");
    int c = strncmp(x, y, lx < ly ? lx : ly);
    return c ? c : (lx > ly) - (lx < ly);
}

/* The variant a run of workload w under entry p passes: the workload's and
 * the entry's joined by '-' ("m" and "tx": "m-tx"), one alone, or NULL. */
static const char *run_variant(struct sweep_spec *s, const struct block *b, unsigned w,
                               const struct pentry *p)
{
    const char *a = b->wl_variants[w], *c = p->variant;
    if (!a || !c)
        return a ? a : c;
    char joined[512];
    snprintf(joined, sizeof joined, "%s-%s", a, c);
    return own(s, joined);
}

static void add_run(struct sweep_spec *s, const struct block *b, unsigned w, const char *size,
                    const struct pentry *p, const char *cfg_written, const char *cfg_path,
                    const unsigned *pick)
{
    struct sweep_run r;
    memset(&r, 0, sizeof r);
    const char *all[SWEEP_MAX_SETTINGS * 2];
    unsigned na = 0;
    for (unsigned i = 0; i < p->n_settings; i++)
        all[na++] = p->settings[i];
    for (unsigned a = 0; a < b->n_axes && na < SWEEP_MAX_SETTINGS * 2; a++) {
        char kv[512];
        snprintf(kv, sizeof kv, "%s=%s", b->axes[a].key, b->axes[a].values[pick[a]]);
        all[na++] = own(s, kv);
    }
    /* later settings of a key win; then sort by key */
    for (unsigned i = 0; i < na; i++) {
        bool later = false;
        for (unsigned k = i + 1; k < na; k++)
            later |= !cmp_setting(&all[i], &all[k]);
        if (!later && r.n_settings < SWEEP_MAX_SETTINGS)
            r.settings[r.n_settings++] = all[i];
    }
    qsort(r.settings, r.n_settings, sizeof r.settings[0], cmp_setting);
    char text[4096] = "";
    size_t len = 0;
    for (unsigned i = 0; i < r.n_settings; i++)
        len += (size_t)snprintf(text + len, len < sizeof text ? sizeof text - len : 0, "%s%s",
                                i ? ";" : "", r.settings[i]);
    r.settings_text = own(s, text);
    r.block = b->name;
    r.model = b->model;
    r.workload = b->wl_names[w];
    r.wl = b->wls[w] ? b->wls[w]->name : r.workload;
    r.spec_file = b->wl_specs[w];
    if (r.spec_file) /* one run whatever the sizes: the spec says its inputs */
        size = "spec";
    r.variant = b->model == SWEEP_MEMORY ? run_variant(s, b, w, p) : NULL;
    r.set = b->wl_sets[w];
    r.size = size;
    r.seed = b->seed ? b->seed : "";
    r.config = p->name;
    r.protocol = p->protocol;
    r.config_file = cfg_path;
    r.line = b->prs_line;
    uint64_t h = fnv1a(HASH_FNV_INIT, r.workload);
    h = fnv1a(h, size);
    h = fnv1a(h, p->protocol);
    h = fnv1a(h, r.settings_text);
    h = fnv1a(h, cfg_written ? cfg_written : "");
    if (b->model == SWEEP_FRAMES) /* memory runs' ids stay what they were */
        h = fnv1a(fnv1a(h, "frames"), r.seed);
    else if (*r.seed) /* and so do those without a seed of their own */
        h = fnv1a(fnv1a(h, "input-seed"), r.seed);
    if (r.variant) /* so do those of runs without a variant */
        h = fnv1a(fnv1a(h, "variant"), r.variant);
    char app[128]; /* "ht:m" names its files ht.m-... */
    snprintf(app, sizeof app, "%s", r.workload);
    for (char *c = strchr(app, ':'); c; c = strchr(c, ':'))
        *c = '.';
    if (r.spec_file) { /* "studies/mine.spec" names its files mine-spec-... */
        const char *base = strrchr(r.workload, '/');
        snprintf(app, sizeof app, "%.*s", (int)strlen(base ? base + 1 : r.workload) - 5,
                 base ? base + 1 : r.workload);
        for (char *c = app; *c; c++)
            if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-' && *c != '.')
                *c = '_';
    }
    snprintf(r.id, sizeof r.id, "%s-%s-%s-%012llx", app, size, p->protocol,
             (unsigned long long)(h & 0xffffffffffffull));
    if (s->n_runs == s->cap_runs) {
        s->cap_runs = s->cap_runs ? 2 * s->cap_runs : 64;
        s->runs = realloc(s->runs, s->cap_runs * sizeof *s->runs);
        if (!s->runs)
            abort();
    }
    s->runs[s->n_runs++] = r;
}

static void add_block_runs(struct sweep_spec *s, struct block *b, const char *const *sizes,
                           unsigned n_sizes);

static bool block_defined(const struct sweep_spec *s, const char *name)
{
    for (unsigned i = 0; i < s->n_runs; i++)
        if (!strcmp(s->runs[i].block, name))
            return true;
    return false;
}

static int expand(struct sweep_spec *s, struct block *b, const struct sweep_parse_opts *o,
                  const char *path, char *err, size_t n)
{
    if (!b->any)
        return 0;
    const char *what = b->line ? b->name : "the first block";
    if (!b->n_wls)
        return fail(err, n, path, b->line ? b->line : 1, "%s has no workloads line", what);
    if (!b->n_prs)
        return fail(err, n, path, b->line ? b->line : 1, "%s has no protocols line", what);
    const char *sizes[WL_NSIZES * 4];
    unsigned n_sizes = b->n_sizes;
    memcpy(sizes, b->sizes, sizeof sizes);
    if (b->model == SWEEP_FRAMES) { /* a game's trace has one size */
        sizes[0] = "frame";
        n_sizes = 1;
    } else if (o && o->size) {
        sizes[0] = o->size;
        n_sizes = 1;
    } else if (!n_sizes) {
        sizes[0] = "small";
        n_sizes = 1;
    }
    for (unsigned w = 0; w < b->n_wls && b->model == SWEEP_MEMORY && b->seed; w++)
        if (b->wl_specs[w]) /* gpucoh exec reads its inputs from the spec */
            return fail(err, n, path, b->seed_line,
                        "seed: the launch spec %s names its own inputs (line %u); a seed is for "
                        "generated inputs",
                        b->wl_names[w], b->wl_lines[w]);
    for (unsigned w = 0; w < b->n_wls && b->model == SWEEP_MEMORY; w++)
        for (unsigned p = 0; p < b->n_prs; p++) { /* every run's variant must exist */
            const char *v = run_variant(s, b, w, &b->prs[p]);
            char list[512];
            if (v && b->wl_specs[w])
                return fail(err, n, path, b->prs_line,
                            "configuration %s runs variant '%s', which the launch spec %s "
                            "does not have (line %u names it)",
                            b->prs[p].name, v, b->wl_names[w], b->wl_lines[w]);
            if (!v || wl_has_variant(b->wls[w], v))
                continue;
            variant_list(b->wls[w], list, sizeof list);
            return fail(err, n, path, b->prs_line,
                        "configuration %s runs %s with variant '%s', which workload %s does not "
                        "have (%s; line %u names it)",
                        b->prs[p].name, b->wl_names[w], v, b->wls[w]->name, list, b->wl_lines[w]);
        }
    if (b->n_seeds < 2) {
        add_block_runs(s, b, sizes, n_sizes);
    } else {
        const char *name = b->name;
        for (unsigned i = 0; i < b->n_seeds; i++) {
            char copy[256];
            snprintf(copy, sizeof copy, "%s%s", name, b->seeds[i]);
            if (!valid_name(copy) || block_defined(s, copy))
                return fail(err, n, path, b->seed_line, "seed %s makes block '%s', %s", b->seeds[i],
                            copy,
                            valid_name(copy) ? "which is defined already" : "not a valid name");
            b->name = own(s, copy);
            b->seed = b->seeds[i];
            add_block_runs(s, b, sizes, n_sizes);
        }
    }
    memset(b, 0, sizeof *b);
    return 0;
}

/* One block's runs (and the configurations it names that are not built). */
static void add_block_runs(struct sweep_spec *s, struct block *b, const char *const *sizes,
                           unsigned n_sizes)
{
    unsigned n_cfg = b->n_configs ? b->n_configs : 1;
    for (unsigned p = 0; p < b->n_prs; p++) {
        if (!b->prs[p].missing)
            continue;
        if (s->n_missing < SWEEP_MAX_MISSING)
            s->missing[s->n_missing++] =
                (struct sweep_missing){b->prs[p].name, b->prs[p].protocol, b->name, b->prs_line};
    }
    for (unsigned c = 0; c < n_cfg; c++)
        for (unsigned z = 0; z < n_sizes; z++)
            for (unsigned w = 0; w < b->n_wls; w++)
                for (unsigned p = 0; p < b->n_prs; p++) {
                    if (b->prs[p].missing)
                        continue;
                    unsigned pick[MAX_AXES] = {0};
                    for (;;) {
                        add_run(s, b, w, sizes[z], &b->prs[p], b->n_configs ? b->configs[c] : NULL,
                                b->n_configs ? b->config_paths[c] : NULL, pick);
                        unsigned a = 0;
                        while (a < b->n_axes && ++pick[a] == b->axes[a].n)
                            pick[a++] = 0;
                        if (a == b->n_axes)
                            break;
                    }
                }
}

static int parse_line(struct sweep_spec *s, struct block *b, char **tok, unsigned nt,
                      const struct sweep_parse_opts *o, const char *path, unsigned line, char *err,
                      size_t n)
{
    const char *d = tok[0];
    if (!strcmp(d, "sweep")) {
        if (nt != 2 || !valid_name(tok[1]))
            return fail(err, n, path, line, "expected: sweep NAME");
        if (expand(s, b, o, path, err, n)) /* the block before: its runs are known now */
            return -1;
        if (block_defined(s, tok[1]))
            return fail(err, n, path, line, "block '%s' is defined twice", tok[1]);
        b->name = own(s, tok[1]);
        b->line = line;
        b->any = true;
        return 0;
    }
    if (nt < 2)
        return fail(err, n, path, line, "'%s' needs at least one value", d);
    b->any = true;
    if (!strcmp(d, "model")) {
        if (nt != 2 || (strcmp(tok[1], "memory") && strcmp(tok[1], "frames")))
            return fail(err, n, path, line, "expected: model memory|frames");
        if (b->n_directives)
            return fail(err, n, path, line, "model goes first in its block");
        b->model = !strcmp(tok[1], "frames") ? SWEEP_FRAMES : SWEEP_MEMORY;
        b->seed = "1";
        return 0;
    }
    b->n_directives++;
    if (!strcmp(d, "seed")) {
        if (b->seed_line)
            return fail(err, n, path, line, "a second seed line in one block (list them on one)");
        for (unsigned i = 1; i < nt; i++) {
            char *end = tok[i];
            errno = 0;
            if (tok[i][0] != '-')
                strtoull(tok[i], &end, 10);
            if (end == tok[i] || *end || errno)
                return fail(err, n, path, line,
                            "expected: seed N... (whole numbers; several: the block once per "
                            "seed, named NAME followed by it)");
            for (unsigned k = 0; k < b->n_seeds; k++)
                if (!strcmp(b->seeds[k], tok[i]))
                    return fail(err, n, path, line, "seed %s is named twice", tok[i]);
            b->seeds[b->n_seeds++] = own(s, tok[i]);
        }
        if (b->n_seeds > 1 && !b->line)
            return fail(err, n, path, line,
                        "several seeds need a block name to add them to (a sweep NAME line)");
        b->seed = b->seeds[0];
        b->seed_line = line;
    } else if (!strcmp(d, "workloads")) {
        for (unsigned i = 1; i < nt; i++)
            if (take_workload(s, b, tok[i], path, line, err, n))
                return -1;
    } else if (!strcmp(d, "protocols")) {
        if (b->n_prs)
            return fail(err, n, path, line,
                        "a second protocols line in one block (list them on one)");
        b->prs_line = line;
        for (unsigned i = 1; i < nt; i++) {
            if (parse_pentry(s, &b->prs[b->n_prs], b->model, tok[i], o, path, line, err, n))
                return -1;
            for (unsigned k = 0; k < b->n_prs; k++)
                if (!strcmp(b->prs[k].name, b->prs[b->n_prs].name))
                    return fail(err, n, path, line, "configuration '%s' is named twice",
                                b->prs[k].name);
            b->n_prs++;
        }
    } else if (!strcmp(d, "sizes")) {
        if (b->model == SWEEP_FRAMES)
            return fail(err, n, path, line, "a frames block has no sizes (a game's trace is one)");
        for (unsigned i = 1; i < nt; i++) {
            int k = wl_size_find(tok[i]);
            if (k < 0)
                return fail(err, n, path, line, "size '%s': expected " WL_SIZE_CHOICES, tok[i]);
            if (b->n_sizes < WL_NSIZES * 4)
                b->sizes[b->n_sizes++] = wl_size_names[k];
        }
    } else if (!strcmp(d, "set")) {
        if (nt < 3)
            return fail(err, n, path, line, "expected: set SECTION.KEY VALUE...");
        if (b->n_axes == MAX_AXES)
            return fail(err, n, path, line, "too many set axes in one block (at most %d)",
                        MAX_AXES);
        struct axis *a = &b->axes[b->n_axes];
        for (unsigned k = 0; k < b->n_axes; k++)
            if (!strcmp(b->axes[k].key, tok[1]))
                return fail(err, n, path, line, "%s is already an axis of this block", tok[1]);
        if (strchr(tok[1], '='))
            return fail(err, n, path, line, "expected: set SECTION.KEY VALUE... (no '=')");
        a->key = own(s, tok[1]);
        a->n = 0;
        for (unsigned i = 2; i < nt; i++) {
            char kv[512];
            snprintf(kv, sizeof kv, "%s=%s", tok[1], tok[i]);
            if (check_setting(b->model, kv, NULL, path, line, err, n))
                return -1;
            a->values[a->n++] = own(s, tok[i]);
        }
        b->n_axes++;
    } else if (!strcmp(d, "config")) {
        for (unsigned i = 1; i < nt; i++) {
            const char *p = resolve_config(s, tok[i]);
            if (!p)
                return fail(err, n, path, line, "machine file '%s': %s", tok[i], strerror(ENOENT));
            struct config cfg;
            struct sfr_config sc;
            char why[512];
            if (b->model == SWEEP_FRAMES ? sfr_config_load(&sc, p, NULL, 0, why, sizeof why)
                                         : config_load(&cfg, p, NULL, 0, why, sizeof why))
                return fail(err, n, path, line, "machine file: %s", why);
            b->configs[b->n_configs] = own(s, tok[i]);
            b->config_paths[b->n_configs++] = p;
        }
    } else {
        return fail(err, n, path, line,
                    "unknown directive '%s' (expected sweep, workloads, protocols, sizes, set, "
                    "config, model, seed)",
                    d);
    }
    return 0;
}

int sweep_spec_parse(struct sweep_spec *s, const char *path, const char *text,
                     const struct sweep_parse_opts *o, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->path = own(s, path);
    struct block *b = calloc(1, sizeof *b);
    if (!b)
        abort();
    b->name = "";
    int rc = 0;
    unsigned line = 0;
    const char *p = text;
    while (*p && !rc) {
        line++;
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char buf[4096];
        if (len >= sizeof buf) {
            rc = fail(err, errlen, path, line, "line too long");
            break;
        }
        memcpy(buf, p, len);
        buf[len] = 0;
        p += len + (end ? 1 : 0);
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char *tok[MAX_TOKENS];
        unsigned nt = 0;
        for (char *t = strtok(buf, " \t\r"); t; t = strtok(NULL, " \t\r")) {
            if (nt == MAX_TOKENS) {
                rc = fail(err, errlen, path, line, "too many values (at most %d)", MAX_TOKENS - 1);
                break;
            }
            tok[nt++] = t;
        }
        if (!rc && nt)
            rc = parse_line(s, b, tok, nt, o, path, line, err, errlen);
    }
    if (!rc)
        rc = expand(s, b, o, path, err, errlen);
    free(b);
    if (!rc && !s->n_runs && !s->n_missing)
        rc = fail(err, errlen, path, line ? line : 1, "the spec defines no runs");
    if (rc)
        sweep_spec_free(s);
    return rc;
}

int sweep_spec_load(struct sweep_spec *s, const char *path, const struct sweep_parse_opts *o,
                    char *err, size_t errlen)
{
    char *text = file_read_source(path, NULL, err, errlen);
    if (!text) {
        memset(s, 0, sizeof *s);
        return -1;
    }
    int rc = sweep_spec_parse(s, path, text, o, err, errlen);
    free(text);
    return rc;
}

void sweep_spec_free(struct sweep_spec *s)
{
    for (unsigned i = 0; i < s->n_owned; i++)
        free(s->owned[i]);
    free(s->owned);
    free(s->runs);
    memset(s, 0, sizeof *s);
}

const struct sweep_run *sweep_find(const struct sweep_spec *s, const char *block,
                                   const char *workload, const char *config, const char *setting)
{
    for (unsigned i = 0; i < s->n_runs; i++) {
        const struct sweep_run *r = &s->runs[i];
        if (strcmp(r->block, block) || strcmp(r->workload, workload) || strcmp(r->config, config))
            continue;
        if (!setting)
            return r;
        for (unsigned k = 0; k < r->n_settings; k++)
            if (!strcmp(r->settings[k], setting))
                return r;
    }
    return NULL;
}
