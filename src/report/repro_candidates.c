/*
 * repro_candidates.c - `gpucoh repro NAME --candidates`: for every miss, the
 * sweep blocks not declared as its [explain] that move it at least a tenth
 * of the way to the paper (repro_explain_toward), each computed exactly as
 * an [explain] naming that block would be.
 *
 * A search over the blocks a reproduction already ran, not an explanation:
 * a block that moves a number may do it for a reason other than the one the
 * miss needs (another input, another machine), so the list goes to stdout,
 * never into report.txt, and a miss counts as explained only by an
 * [explain] that a person declared with the mechanism it tests.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/claim_expr.h"
#include "report/repro_values.h"

#define MAX_CANDIDATES 256

/* Whether KEY takes two values or more over one configuration's runs among
 * a block's (runs, n): a key its `set` lines sweep, which an ablation must
 * name (`l1size l1.size=8K`) to mean one of them; not one that only tells
 * its configurations apart (`order.model`). */
static bool key_varies(const struct sweep_run *const *runs, unsigned n, const char *key, size_t kl)
{
    for (unsigned i = 0; i < n; i++) {
        const char *va = repro_setting_of(runs[i], key, kl);
        for (unsigned j = i + 1; va && j < n; j++) {
            const char *vb = strcmp(runs[j]->config, runs[i]->config)
                                 ? NULL
                                 : repro_setting_of(runs[j], key, kl);
            if (vb && strcmp(va, vb))
                return true;
        }
    }
    return false;
}

static bool is_replica(const struct repro *r, const char *block)
{
    for (unsigned i = 0; i < r->d.n_replicas; i++)
        if (!strcmp(r->d.replicas[i].block, block))
            return true;
    return false;
}

static void add(struct rp_ablation *out, unsigned *n, unsigned max, const struct repro *r,
                const char *block, const char *setting)
{
    for (unsigned c = 0; c < *n; c++)
        if (!strcmp(out[c].block, block) && !strcmp(out[c].setting, setting))
            return;
    if (*n == max)
        return;
    out[*n] = (struct rp_ablation){.rest_main = is_replica(r, block)};
    snprintf(out[*n].block, sizeof out[*n].block, "%s", block);
    snprintf(out[*n].setting, sizeof out[*n].setting, "%s", setting);
    (*n)++;
}

/* Every (block, setting) an [explain] could name: each block but the main
 * one, at each value of each key it sweeps, or whole where it sweeps none.
 * A replica's apps it does not run are the main block's (as the report's
 * spread computes it); any other block is compared over its own apps. */
static unsigned ablations(const struct repro *r, struct rp_ablation *out, unsigned max)
{
    const struct sweep_spec *s = &r->spec;
    const struct sweep_run **runs = malloc((s->n_runs ? s->n_runs : 1) * sizeof *runs);
    if (!runs)
        abort();
    unsigned n = 0;
    for (unsigned i = 0; i < s->n_runs; i++) {
        const char *block = s->runs[i].block;
        bool first = strcmp(block, r->d.block) != 0;
        for (unsigned j = 0; j < i && first; j++)
            first = strcmp(s->runs[j].block, block) != 0;
        if (!first)
            continue;
        unsigned nr = 0;
        for (unsigned j = i; j < s->n_runs; j++)
            if (!strcmp(s->runs[j].block, block))
                runs[nr++] = &s->runs[j];
        /* the keys of the block's settings, each decided once */
        const char *keys[SWEEP_MAX_SETTINGS * 4];
        bool varies[SWEEP_MAX_SETTINGS * 4];
        unsigned nk = 0;
        bool any = false;
        for (unsigned j = 0; j < nr; j++) {
            for (unsigned k = 0; k < runs[j]->n_settings; k++) {
                const char *set = runs[j]->settings[k], *eq = strchr(set, '=');
                size_t kl = eq ? (size_t)(eq - set) : 0;
                unsigned q = 0;
                while (q < nk && (strncmp(keys[q], set, kl) || keys[q][kl] != '='))
                    q++;
                if (q == nk && nk < sizeof keys / sizeof *keys) {
                    keys[nk] = set;
                    varies[nk++] = eq && key_varies(runs, nr, set, kl);
                }
                if (q < nk && varies[q]) {
                    any = true;
                    add(out, &n, max, r, block, set);
                }
            }
        }
        if (!any)
            add(out, &n, max, r, block, "");
    }
    free(runs);
    return n;
}

/* Whether a declared [explain] already names this ablation for the miss (a
 * block that sweeps no key: at any setting of it). */
static bool declared(const struct repro *r, const struct rp_explain *c)
{
    for (unsigned e = 0; e < r->d.n_explains; e++) {
        const struct rp_explain *x = &r->d.explains[e];
        if (x->row_index == c->row_index && x->claim_index == c->claim_index && !x->ref.block[0] &&
            !strcmp(x->ab.block, c->ab.block) &&
            (!c->ab.setting[0] || !strcmp(x->ab.setting, c->ab.setting)))
            return true;
    }
    return false;
}

/* One candidate that moves its miss: where (its block, scope) and what
 * (the number or claim before and after, as an [explain] line prints it). */
struct found {
    const struct rp_ablation *ab;
    char where[384], what[1100];
};

/* Whether the block runs configuration cfg at all. */
static bool block_runs(const struct repro *r, const char *block, const char *cfg)
{
    for (unsigned i = 0; i < r->spec.n_runs; i++)
        if (!strcmp(r->spec.runs[i].block, block) && !strcmp(r->spec.runs[i].config, cfg))
            return true;
    return false;
}

/* The main block's configurations the miss reads (a row's baseline and
 * design; a claim's calls' arguments) that the block does not run, so that
 * the ablation takes them from the main block: "; nol1 from the main
 * block". Right where the block changes one design's own modelling, wrong
 * where it changes the machine under all of them: the reader decides. */
static void from_main(const struct repro *r, const struct rp_explain *c, char *buf, size_t n)
{
    const char *read[CX_MAX_ARGS * 16];
    unsigned nr = 0;
    if (c->row_index >= 0) {
        read[nr++] = r->paper[c->row_index].baseline;
        read[nr++] = r->paper[c->row_index].design;
    } else {
        const struct cx_call *calls[16];
        unsigned nc = cx_calls(r->d.claims[c->claim_index].node, calls, 16);
        for (unsigned i = 0; i < nc; i++)
            for (unsigned a = 0; a < calls[i]->n_args; a++)
                read[nr++] = calls[i]->args[a];
    }
    size_t len = 0;
    for (unsigned k = 0; k < r->n_cfgs; k++) {
        bool reads = false;
        for (unsigned i = 0; i < nr && !reads; i++)
            reads = !strcmp(read[i], r->cfgs[k]);
        if (reads && !block_runs(r, c->ab.block, r->cfgs[k]) && len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "; ", r->cfgs[k]);
    }
    if (len && len < n)
        snprintf(buf + len, n - len, " from the main block");
}

static void describe(struct repro *r, const struct rp_explain *c, struct found *f)
{
    char apps[256];
    repro_block_apps(r, c->ab.block, apps, sizeof apps);
    f->ab = &c->ab;
    f->where[0] = 0;
    if (repro_ablation_scoped(r, &c->ab))
        snprintf(f->where, sizeof f->where, "; over its apps %s", apps);
    else if (c->ab.rest_main)
        snprintf(f->where, sizeof f->where, "; apps %s, the rest the main block's", apps);
    size_t len = strlen(f->where);
    from_main(r, c, f->where + len, sizeof f->where - len);
    int was, now;
    char detail[1024];
    double before = repro_explain_in(r, c, false, &was, detail, sizeof detail);
    double after = repro_explain_in(r, c, true, &now, detail, sizeof detail);
    if (c->row_index >= 0)
        snprintf(f->what, sizeof f->what, "%.2f \u2192 %.2f; paper %.2f", before, after,
                 r->paper[c->row_index].value);
    else
        snprintf(f->what, sizeof f->what, "[%s] \u2192 [%s]%s%s", repro_verdict_word(was),
                 repro_verdict_word(now), detail[0] ? ": " : "", detail);
}

/* The candidates of one miss, those of one block that move it the same way
 * on one line ("block range, order.uq_entries=1, 2, 4: ..."). */
static void print_found(const struct found *f, unsigned n, FILE *o)
{
    for (unsigned i = 0; i < n;) {
        unsigned j = i + 1;
        while (j < n && !strcmp(f[j].ab->block, f[i].ab->block) &&
               !strcmp(f[j].where, f[i].where) && !strcmp(f[j].what, f[i].what))
            j++;
        fprintf(o, "    block %s", f[i].ab->block);
        for (unsigned k = i; k < j; k++) {
            const char *set = f[k].ab->setting, *eq = strchr(set, '=');
            fprintf(o, "%s%s", k == i ? (set[0] ? ", " : "") : ", ", k == i || !eq ? set : eq + 1);
        }
        fprintf(o, "%s: %s\n", f[i].where, f[i].what);
        i = j;
    }
}

void repro_candidates(struct repro *r, FILE *o)
{
    static struct rp_ablation ab[MAX_CANDIDATES];
    static struct rp_explain cand[MAX_CANDIDATES];
    static struct found found[MAX_CANDIDATES];
    unsigned n_ab = ablations(r, ab, MAX_CANDIDATES);
    fprintf(o, "\n== Undeclared ablations that move a miss toward the paper (size %s) ==\n",
            repro_numbers_size(r));
    fputs("(every block of the sweep but the main one, at each value of each key it sweeps,\n"
          " where a miss moves at least a tenth of the way to the paper as an [explain]\n"
          " naming it would measure it: candidates to study, not explanations; a miss is\n"
          " explained only by an [explain] declared with the mechanism it tests)\n",
          o);
    unsigned n_miss = 0, n_moved = 0;
    for (unsigned i = 0; i < r->n_paper + r->d.n_claims; i++) {
        bool is_row = i < r->n_paper;
        unsigned k = is_row ? i : i - r->n_paper;
        if (is_row ? !effect_miss(&r->paper[k].effect) : r->claims[k].holds != 0)
            continue;
        n_miss++;
        unsigned n = 0;
        for (unsigned a = 0; a < n_ab; a++) {
            struct rp_explain *c = &cand[n];
            *c = (struct rp_explain){.row_index = is_row ? (int)k : -1,
                                     .claim_index = is_row ? -1 : (int)k,
                                     .ab = ab[a]};
            snprintf(c->name, sizeof c->name, "candidate");
            if (declared(r, c) || !repro_explain_toward(r, c))
                continue;
            if (!is_row) { /* over fewer apps a claim may hold already: nothing to move */
                int was;
                char detail[8];
                repro_explain_in(r, c, false, &was, detail, sizeof detail);
                if (was != 0)
                    continue;
            }
            describe(r, c, &found[n]);
            n++;
        }
        if (!n)
            continue;
        n_moved++;
        if (is_row) {
            const struct rp_paper_row *p = &r->paper[k];
            fprintf(o, "%s %s %s%s%s over %s: paper %.2f, gpucoh %.2f (%s)\n", p->figure, p->set,
                    p->app, p->app[0] ? " " : "", p->design, p->baseline[0] ? p->baseline : "-",
                    p->value, p->ours, p->metric);
        } else {
            fprintf(o, "claim %s [does not hold]: %s\n", r->d.claims[k].id, r->d.claims[k].text);
        }
        print_found(found, n, o);
    }
    fprintf(o, "%u misses, %u of them moved by an undeclared block (%u ablations tried)\n", n_miss,
            n_moved, n_ab);
}
