/*
 * coh.c - transition-table execution, coverage and printing (see coh.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/coh.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"

void coh_cov_init(struct coh_cov *c, const struct coh_table *t)
{
    size_t n = (size_t)t->n_states * t->n_events;
    c->t = t;
    c->hits = calloc(n, sizeof *c->hits);
    c->stalls = calloc(n, sizeof *c->stalls);
    if (!c->hits || !c->stalls)
        panic("out of memory");
}

void coh_cov_destroy(struct coh_cov *c)
{
    free(c->hits);
    free(c->stalls);
    memset(c, 0, sizeof *c);
}

static void dump_msg(const struct msg *m, FILE *out)
{
    fprintf(out,
            "  message: type %u addr %#llx src %u dst %u vnet %u op %s sem %s scope %s "
            "sm %u warp %u id %u born %llu\n",
            m->type, (unsigned long long)m->addr, m->src, m->dst, m->vnet,
            m->req.op < MEM_NOPS ? mem_op_names[m->req.op] : "?",
            m->req.sem < SEM_N ? mem_sem_names[m->req.sem] : "?",
            m->req.scope < SCOPE_N ? mem_scope_names[m->req.scope] : "?", m->req.sm, m->req.warp,
            m->req.id, (unsigned long long)m->born);
}

enum coh_result coh_step(const struct coh_table *t, struct coh_cov *cov, struct coh_ctx *x)
{
    const struct coh_trans *cell = coh_cell(t, x->state, x->event);
    size_t k = (size_t)x->state * t->n_events + x->event;
    switch (cell->kind) {
    case COH_DO:
        break;
    case COH_STALL:
        cov->stalls[k]++;
        return COH_STALLED;
    default:
        fprintf(stderr,
                "gpucoh: protocol hole in %s %s at t=%llu ps: no transition for state %s, "
                "event %s, line %#llx\n",
                t->proto, x->ctrl_name, (unsigned long long)x->eng->now, t->state_names[x->state],
                t->event_names[x->event], (unsigned long long)x->addr);
        if (x->msg)
            dump_msg(x->msg, stderr);
        if (t->dump)
            t->dump(x, stderr);
        panic("missing protocol transition %s:%s [%s][%s]", t->proto, t->ctrl,
              t->state_names[x->state], t->event_names[x->event]);
    }
    unsigned from = x->state;
    for (coh_act *const *a = cell->acts; *a; a++)
        (*a)(x);
    t->set_state(x, cell->next);
    cov->hits[k]++;
    if (cov->hist) {
        struct coh_history *h = cov->hist;
        h->e[h->n++ & (h->cap - 1)] =
            (struct coh_hist_entry){x->eng->now,       x->addr,       x->ctrl_name,       t,
                                    (uint8_t)x->event, (uint8_t)from, (uint8_t)cell->next};
    }
    if (cov->trace)
        fprintf(cov->trace, "%12llu %-18s %-12s %6s>%-6s %#llx\n", (unsigned long long)x->eng->now,
                x->ctrl_name, t->event_names[x->event], t->state_names[from],
                t->state_names[cell->next], (unsigned long long)x->addr);
    return COH_FIRED;
}

void coh_history_print(const struct coh_history *h, addr_t line, FILE *out)
{
    uint64_t first = h->n > h->cap ? h->n - h->cap : 0;
    for (uint64_t i = first; i < h->n; i++) {
        const struct coh_hist_entry *e = &h->e[i & (h->cap - 1)];
        if (e->addr != line)
            continue;
        fprintf(out, "    %12llu ps  %-20s %-10s %s -> %s\n", (unsigned long long)e->t, e->ctrl,
                e->table->event_names[e->event], e->table->state_names[e->from],
                e->table->state_names[e->to]);
    }
}

static const char *action_name(const struct coh_table *t, coh_act *fn)
{
    for (const struct coh_action_name *a = t->actions; a && a->fn; a++)
        if (a->fn == fn)
            return a->name;
    return "?";
}

void coh_table_print_md(const struct coh_table *t, FILE *out)
{
    fprintf(out, "### %s: %s\n\n", t->proto, t->ctrl);
    fputs("| state | meaning |\n|---|---|\n", out);
    for (unsigned s = 0; s < t->n_states; s++)
        fprintf(out, "| `%s` | %s |\n", t->state_names[s], t->state_descs[s]);
    fputs("\n| event | meaning |\n|---|---|\n", out);
    for (unsigned e = 0; e < t->n_events; e++)
        fprintf(out, "| `%s` | %s |\n", t->event_names[e], t->event_descs[e]);
    fputs("\n| state \\ event |", out);
    for (unsigned e = 0; e < t->n_events; e++)
        fprintf(out, " %s |", t->event_names[e]);
    fputs("\n|---|", out);
    for (unsigned e = 0; e < t->n_events; e++)
        fputs("---|", out);
    fputc('\n', out);
    for (unsigned s = 0; s < t->n_states; s++) {
        fprintf(out, "| **%s** |", t->state_names[s]);
        for (unsigned e = 0; e < t->n_events; e++) {
            const struct coh_trans *c = coh_cell(t, s, e);
            if (c->kind == COH_STALL) {
                fputs(" *stall* |", out);
            } else if (c->kind == COH_DO) {
                fputc(' ', out);
                for (coh_act *const *a = c->acts; *a; a++)
                    fprintf(out, "%s%s", a == c->acts ? "" : ", ", action_name(t, *a));
                if (c->next != s)
                    fprintf(out, " → %s", t->state_names[c->next]);
                fputs(" |", out);
            } else {
                fputs(" |", out);
            }
        }
        fputc('\n', out);
    }
    fputs("\nEmpty cells are protocol holes: reaching one stops the simulation (exit 3).\n", out);
    if (t->actions) {
        fputs("\n| action | what it does |\n|---|---|\n", out);
        for (const struct coh_action_name *a = t->actions; a->fn; a++)
            fprintf(out, "| `%s` | %s |\n", a->name, a->desc);
    }
    fputc('\n', out);
}

void coh_table_print_dot(const struct coh_table *t, FILE *out)
{
    fprintf(out, "digraph \"%s_%s\" {\n  rankdir=LR;\n  label=\"%s %s\";\n", t->proto, t->ctrl,
            t->proto, t->ctrl);
    for (unsigned s = 0; s < t->n_states; s++)
        fprintf(out, "  \"%s\" [shape=%s];\n", t->state_names[s],
                strchr(t->state_names[s], '_') || strlen(t->state_names[s]) > 1 ? "ellipse"
                                                                                : "doublecircle");
    for (unsigned s = 0; s < t->n_states; s++)
        for (unsigned e = 0; e < t->n_events; e++) {
            const struct coh_trans *c = coh_cell(t, s, e);
            if (c->kind == COH_DO)
                fprintf(out, "  \"%s\" -> \"%s\" [label=\"%s\"];\n", t->state_names[s],
                        t->state_names[c->next], t->event_names[e]);
        }
    fputs("}\n", out);
}

unsigned coh_cov_print(const struct coh_cov *c, FILE *out)
{
    const struct coh_table *t = c->t;
    unsigned never = 0;
    for (int pass = 0; pass < 2; pass++)
        for (unsigned s = 0; s < t->n_states; s++)
            for (unsigned e = 0; e < t->n_events; e++) {
                const struct coh_trans *cell = coh_cell(t, s, e);
                size_t k = (size_t)s * t->n_events + e;
                if (cell->kind == COH_UNDEF)
                    continue;
                uint64_t n = cell->kind == COH_DO ? c->hits[k] : c->stalls[k];
                if ((pass == 0) != (n == 0))
                    continue;
                if (!n)
                    never++;
                fprintf(out, "coverage.%s.%s.%s.%s %llu%s%s\n", t->proto, t->ctrl,
                        t->state_names[s], t->event_names[e], (unsigned long long)n,
                        cell->kind == COH_STALL ? " (stall)" : "", n ? "" : " <--");
            }
    return never;
}
