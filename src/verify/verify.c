/*
 * verify.c - the explorer of `gpucoh verify` (see verify.h, docs/verify.md):
 * the breadth-first search with its visited set, deadlock freedom and
 * coverage. Its other parts share verify_int.h: the rig (verify_rig.c), the
 * checker's reference state, properties and events (verify_step.c), the
 * canonical digest (verify_digest.c), counterexample files (verify_cex.c).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "verify/verify.h"
#include "verify/verify_int.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the search ---- */

struct node {
    uint32_t parent;
    uint16_t depth;
    uint8_t quiescent;
    struct vev ev; /* the event from the parent */
};

struct visited {
    struct digest *keys;
    uint32_t *node; /* UINT32_MAX: empty */
    size_t mask, n;
};

static void visited_init(struct visited *v, size_t cap)
{
    v->mask = cap - 1;
    v->n = 0;
    v->keys = malloc(cap * sizeof *v->keys);
    v->node = malloc(cap * sizeof *v->node);
    if (!v->keys || !v->node)
        panic("out of memory");
    memset(v->node, 0xff, cap * sizeof *v->node);
}

/* The node of digest d, or (inserting `fresh`) UINT32_MAX when it is new. */
static uint32_t visited_put(struct visited *v, struct digest d, uint32_t fresh)
{
    if (2 * (v->n + 1) > v->mask + 1) {
        struct visited g;
        visited_init(&g, 2 * (v->mask + 1));
        for (size_t i = 0; i <= v->mask; i++)
            if (v->node[i] != UINT32_MAX)
                visited_put(&g, v->keys[i], v->node[i]);
        free(v->keys);
        free(v->node);
        *v = g;
    }
    for (size_t i = d.h[0] & v->mask;; i = (i + 1) & v->mask) {
        if (v->node[i] == UINT32_MAX) {
            v->keys[i] = d;
            v->node[i] = fresh;
            v->n++;
            return UINT32_MAX;
        }
        if (v->keys[i].h[0] == d.h[0] && v->keys[i].h[1] == d.h[1])
            return v->node[i];
    }
}

struct search {
    const struct config *cfg;
    const struct proto_desc *p;
    const struct verify_opts *o;
    struct node *nodes;
    size_t n_nodes, cap_nodes;
    uint32_t *edge_from, *edge_to;
    size_t n_edges, cap_edges;
    struct visited seen;
    struct coh_cov *cov;     /* coverage summed over the explored transitions */
    struct coh_cov *scratch; /* a rig's own */
    unsigned n_tables;
    struct ser ser;
    struct vev *path;
    struct memories mem;
};

static jmp_buf fault_jump;
static bool fault_armed;
static struct rig *faulted_rig; /* the rig a caught fault interrupted */

static void fault_exit(int code)
{
    if (fault_armed)
        longjmp(fault_jump, code);
    exit(code);
}

/* Apply one event; a panic in the controllers (a protocol hole, an observer's
 * invariant) comes back as its exit code instead of ending the process. */
static int try_apply(struct rig *r, const struct vev *ev)
{
    fault_armed = true;
    int code = setjmp(fault_jump);
    if (!code)
        vx_apply(r, ev);
    fault_armed = false;
    return code;
}

/* The events from the root to node n, into s->path; returns how many. */
static unsigned path_to(struct search *s, uint32_t n)
{
    unsigned d = s->nodes[n].depth;
    for (uint32_t k = n; k; k = s->nodes[k].parent)
        s->path[s->nodes[k].depth - 1] = s->nodes[k].ev;
    return d;
}

static void cov_reset(struct search *s)
{
    for (unsigned t = 0; t < s->n_tables; t++) {
        size_t cells = (size_t)s->p->tables[t]->n_states * s->p->tables[t]->n_events;
        memset(s->scratch[t].hits, 0, cells * sizeof(uint64_t));
        memset(s->scratch[t].stalls, 0, cells * sizeof(uint64_t));
    }
}

static void cov_add(struct search *s)
{
    for (unsigned t = 0; t < s->n_tables; t++) {
        size_t cells = (size_t)s->p->tables[t]->n_states * s->p->tables[t]->n_events;
        for (size_t k = 0; k < cells; k++) {
            s->cov[t].hits[k] += s->scratch[t].hits[k];
            s->cov[t].stalls[k] += s->scratch[t].stalls[k];
        }
    }
}

/* A rig in the state of node n's path (the path was checked when found). */
static struct rig *rig_at(struct search *s, unsigned depth)
{
    struct rig *r = vx_rig_new(s->cfg, s->p, s->o, s->scratch, &s->mem);
    for (unsigned i = 0; i < depth; i++)
        vx_apply(r, &s->path[i]);
    return r;
}

/* --ops-each's list, "3,1" (as given; o->l1s entries). */
void verify_ops_each_text(const struct verify_opts *o, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (unsigned c = 0; c < o->l1s && n < len; c++)
        n += (size_t)snprintf(out + n, len - n, "%s%u", c ? "," : "", o->ops_each[c]);
}

const char *verify_ops_each_parse(struct verify_opts *o, const char *list)
{
    static char why[64];
    unsigned n = 0, max = 0;
    uint8_t each[sizeof o->ops_each] = {0};
    for (const char *p = list;; p++) {
        char *end;
        unsigned long u = strtoul(p, &end, 10);
        if (end == p || *p == '-' || *p == '+' || u > 255 || (*end && *end != ','))
            return "a list of operation bounds, each 0 to 255, one per L1 (e.g. 3,1)";
        if (n < sizeof each)
            each[n] = (uint8_t)u;
        n++;
        max = u > max ? (unsigned)u : max;
        if (!*end)
            break;
        p = end;
    }
    if (n != o->l1s) {
        snprintf(why, sizeof why, "%u bounds for %u L1s: give one per L1", n, o->l1s);
        return why;
    }
    if (max == 0)
        return "every bound is 0: no core would issue anything";
    memcpy(o->ops_each, each, sizeof each);
    o->n_ops_each = n;
    o->ops = max;
    return NULL;
}

static const char kind_letters[] = "lsaf"; /* bit k of VERIFY_KIND_* */

void verify_kinds_text(const struct verify_opts *o, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (unsigned c = 0; c < o->l1s && n + 6 < len; c++) {
        if (c)
            out[n++] = ',';
        for (unsigned k = 0; k < 4; k++)
            if (o->kinds[c] >> k & 1)
                out[n++] = kind_letters[k];
        out[n] = '\0';
    }
}

const char *verify_kinds_parse(struct verify_opts *o, const char *list)
{
    static char why[64];
    unsigned n = 0;
    uint8_t each[sizeof o->kinds] = {0};
    for (const char *p = list;; p++) {
        unsigned bits = 0;
        for (; *p && *p != ','; p++) {
            const char *k = strchr(kind_letters, *p);
            if (!k || (bits >> (k - kind_letters) & 1))
                return "one group of the letters l, s, a, f (load, store, atomic, fence) per "
                       "L1, e.g. l,lsf";
            bits |= 1u << (k - kind_letters);
        }
        if (!bits)
            return "an L1 with no operation kind: give at least one of l, s, a, f";
        if (n < sizeof each)
            each[n] = (uint8_t)bits;
        n++;
        if (!*p)
            break;
    }
    if (n != o->l1s) {
        snprintf(why, sizeof why, "%u groups for %u L1s: give one per L1", n, o->l1s);
        return why;
    }
    memcpy(o->kinds, each, sizeof each);
    return NULL;
}

/* --ops-each and --kinds, each a line after the result's. */
static void print_restrictions(const struct verify_opts *o, const char *name, FILE *out)
{
    if (o->n_ops_each) {
        char t[24];
        verify_ops_each_text(o, t, sizeof t);
        fprintf(out, "verify %s: operations per L1 bounded one by one (--ops-each %s)\n", name, t);
    }
    if (o->kinds[0]) {
        char t[24];
        verify_kinds_text(o, t, sizeof t);
        fprintf(out, "verify %s: operation kinds per L1 restricted (--kinds %s)\n", name, t);
    }
}

static void write_cex(const struct search *s, const struct rig *r, unsigned steps, const char *why,
                      FILE *out)
{
    const struct verify_opts *o = s->o;
    fprintf(out, "# gpucoh verify counterexample (%u steps): %s\n", steps, why);
    fprintf(out,
            "protocol %s\nl1s %u\nlines %u\nvalues %u\nops %u\natomics %u\ninflight %u\nsync %u\n",
            s->p->name, o->l1s, o->lines, o->values, o->ops, o->atomics ? 1u : 0u, o->inflight,
            o->sync ? 1u : 0u);
    if (o->plain)
        fprintf(out, "plain %u\n", o->plain);
    if (r->prof.timed)
        fprintf(out, "lease %u\n", o->lease);
    if (r->prof.logical)
        fprintf(out, "ticks %u\n", o->ticks);
    if (o->devices[0])
        fprintf(out, "devices %s\n", o->devices);
    if (o->words > 1)
        fprintf(out, "words %u\n", o->words);
    if (r->mg)
        fprintf(out, "gpus %u\n", o->gpus);
    if (r->gpm_sms > 1)
        fprintf(out, "gpm_sms %u\n", r->gpm_sms);
    if (o->line_pages)
        fprintf(out, "line_pages 1\n");
    if (vx_warps(o) > 1)
        fprintf(out, "warps %u\n", o->warps);
    if (o->scopes)
        fprintf(out, "scopes %u\n", o->scopes);
    if (o->conflict)
        fprintf(out, "conflict %u\n", o->conflict);
    if (o->conflict_ways > 1)
        fprintf(out, "conflict_ways %u\n", o->conflict_ways);
    if (o->merge_max != VERIFY_MERGE_CONFIG)
        fprintf(out, "merge_max %u\n", o->merge_max);
    if (o->n_ops_each) {
        char t[24];
        verify_ops_each_text(o, t, sizeof t);
        fprintf(out, "ops_each %s\n", t);
    }
    if (o->kinds[0]) {
        char t[24];
        verify_kinds_text(o, t, sizeof t);
        fprintf(out, "kinds %s\n", t);
    }
    for (unsigned i = 0; i < o->n_sets; i++)
        fprintf(out, "set %s\n", o->sets[i]);
    for (unsigned i = 0; i < steps; i++) {
        char t[64];
        vx_ev_text(r, &s->path[i], t, sizeof t);
        fprintf(out, "%s\n", t);
    }
}

/* Results files are written whole or not at all: into a temporary file
 * beside `path`, renamed over it. Returns 0, or -1 (nothing written). */
static int write_whole(const char *path, const char *text, size_t len)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    bool ok = fwrite(text, 1, len, f) == len;
    ok = !fclose(f) && ok;
    if (!ok || rename(tmp, path)) {
        remove(tmp);
        return -1;
    }
    return 0;
}

static void report_cex(struct search *s, struct rig *r, unsigned steps, const char *why, FILE *out,
                       struct verify_result *res)
{
    res->violation = true;
    res->cex_steps = steps;
    fprintf(out, "verify %s: VIOLATION: %s\n  shortest event sequence (%u steps):\n", s->p->name,
            why, steps);
    for (unsigned i = 0; i < steps; i++) {
        char t[64];
        vx_ev_text(r, &s->path[i], t, sizeof t);
        fprintf(out, "  %3u  %s\n", i + 1, t);
    }
    if (s->o->cex_file) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f)
            panic("out of memory");
        write_cex(s, r, steps, why, f);
        if (fclose(f) || write_whole(s->o->cex_file, text, len))
            fatal("%s: cannot write the counterexample", s->o->cex_file);
        free(text);
        fprintf(out, "  written to %s (replay: gpucoh verify --replay %s)\n", s->o->cex_file,
                s->o->cex_file);
    }
}

static uint64_t search_bytes(const struct search *s)
{
    return s->cap_nodes * sizeof *s->nodes + s->cap_edges * 2 * sizeof(uint32_t) +
           (s->seen.mask + 1) * (sizeof(struct digest) + sizeof(uint32_t));
}

static void add_node(struct search *s, uint32_t parent, const struct vev *ev, unsigned depth,
                     bool quiet)
{
    if (s->n_nodes == s->cap_nodes) {
        s->cap_nodes = s->cap_nodes ? 2 * s->cap_nodes : 1024;
        s->nodes = realloc(s->nodes, s->cap_nodes * sizeof *s->nodes);
        if (!s->nodes)
            panic("out of memory");
    }
    s->nodes[s->n_nodes++] =
        (struct node){.parent = parent, .depth = (uint16_t)depth, .quiescent = quiet, .ev = *ev};
}

static void add_edge(struct search *s, uint32_t from, uint32_t to)
{
    if (s->n_edges == s->cap_edges) {
        s->cap_edges = s->cap_edges ? 2 * s->cap_edges : 4096;
        s->edge_from = realloc(s->edge_from, s->cap_edges * sizeof *s->edge_from);
        s->edge_to = realloc(s->edge_to, s->cap_edges * sizeof *s->edge_to);
        if (!s->edge_from || !s->edge_to)
            panic("out of memory");
    }
    s->edge_from[s->n_edges] = from;
    s->edge_to[s->n_edges++] = to;
}

/* Deadlock freedom: every state reaches a quiescent one. Returns the first
 * (shallowest) state that cannot, or UINT32_MAX. */
static uint32_t cannot_quiesce(struct search *s)
{
    size_t n = s->n_nodes;
    uint8_t *can = calloc(n, 1);
    uint32_t *first = malloc(n * sizeof *first), *next = malloc(s->n_edges * sizeof *next);
    uint32_t *queue = malloc(n * sizeof *queue);
    if (!can || !first || !next || !queue)
        panic("out of memory");
    memset(first, 0xff, n * sizeof *first);
    for (size_t e = 0; e < s->n_edges; e++) { /* reverse adjacency */
        next[e] = first[s->edge_to[e]];
        first[s->edge_to[e]] = (uint32_t)e;
    }
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n; i++)
        if (s->nodes[i].quiescent) {
            can[i] = 1;
            queue[tail++] = (uint32_t)i;
        }
    while (head < tail)
        for (uint32_t e = first[queue[head++]]; e != UINT32_MAX; e = next[e])
            if (!can[s->edge_from[e]]) {
                can[s->edge_from[e]] = 1;
                queue[tail++] = s->edge_from[e];
            }
    uint32_t bad = UINT32_MAX;
    for (size_t i = 0; i < n && bad == UINT32_MAX; i++)
        if (!can[i])
            bad = (uint32_t)i;
    free(can);
    free(first);
    free(next);
    free(queue);
    return bad;
}

static void search_free(struct search *s)
{
    for (unsigned t = 0; t < s->n_tables; t++) {
        coh_cov_destroy(&s->cov[t]);
        coh_cov_destroy(&s->scratch[t]);
    }
    free(s->cov);
    free(s->scratch);
    free(s->nodes);
    free(s->edge_from);
    free(s->edge_to);
    free(s->seen.keys);
    free(s->seen.node);
    free(s->ser.b);
    free(s->ser.past);
    free(s->path);
    vx_memories_destroy(&s->mem);
}

/* Coverage: cells reached over all tables, the list of cells never reached
 * (and the counts) into the coverage file. */
static void coverage(struct search *s, struct verify_result *res)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = s->o->coverage_file ? open_memstream(&text, &len) : NULL;
    if (s->o->coverage_file && !f)
        panic("out of memory");
    for (unsigned t = 0; t < s->n_tables; t++) {
        const struct coh_table *tb = s->p->tables[t];
        for (unsigned st = 0; st < tb->n_states; st++)
            for (unsigned ev = 0; ev < tb->n_events; ev++) {
                size_t k = (size_t)st * tb->n_events + ev;
                if (coh_cell(tb, st, ev)->kind == COH_UNDEF)
                    continue;
                res->cells_total++;
                if (s->cov[t].hits[k] || s->cov[t].stalls[k])
                    res->cells_reached++;
            }
        if (f)
            coh_cov_print(&s->cov[t], f);
    }
    if (f && (fclose(f) || write_whole(s->o->coverage_file, text, len)))
        fatal("%s: cannot write the coverage", s->o->coverage_file);
    free(text);
}

/* A state's key in the visited set: its digest, or under symmetry its
 * canonical digest; *orbit (added to) counts the unreduced states it stands
 * for. The node keeps the event path that reached it, never relabelled: a
 * counterexample is a real path of the rig, as --replay runs it. */
static struct digest state_key(struct search *s, const struct rig *r, uint64_t *orbit)
{
    if (!s->ser.sym) {
        *orbit += 1;
        return vx_state_digest(r, &s->ser);
    }
    unsigned n;
    struct digest d = vx_canonical_digest(r, &s->ser, &n);
    *orbit += n;
    return d;
}

/* The machine a run explored, beyond L1s x lines x values, for its result
 * line: leases or ticks, GPMs, devices, words, scopes, conflicts. */
static void describe_machine(char *text, size_t n, const struct proto_desc *p,
                             const struct verify_opts *o)
{
    text[0] = 0;
    if (vx_profile_of(p).logical)
        snprintf(text, n, ", logical leases 1..%u, %u guard ticks", o->lease, o->ticks);
    else if (vx_profile_of(p).unit)
        snprintf(text, n, ", the EMU waking once a tick");
    else if (vx_profile_of(p).timed)
        snprintf(text, n, ", leases %s%u ticks",
                 vx_profile_of(p).rule == RULE_WRITER_FENCE ? "1.." : "of ", o->lease);
    else if (p->multi_gpm)
        snprintf(text, n, ", %u GPU%s x %u GPMs%s", o->gpus, o->gpus > 1 ? "s" : "",
                 o->l1s / o->gpus / (o->gpm_sms ? o->gpm_sms : 1),
                 o->gpm_sms > 1 ? " of 2 SMs" : "");
    if (o->line_pages)
        snprintf(text + strlen(text), n - strlen(text), ", a page per line");
    if (vx_warps(o) > 1)
        snprintf(text + strlen(text), n - strlen(text), ", %u warps per L1", o->warps);
    if (o->devices[0]) /* Spandex's device mix */
        snprintf(text + strlen(text), n - strlen(text), ", devices %s", o->devices);
    if (o->words > 1) /* the lines counted are locations: words of one line */
        snprintf(text + strlen(text), n - strlen(text), ", the %u lines words 0..%u of one",
                 o->lines, o->words - 1);
    if (o->scopes) {
        size_t len = strlen(text);
        snprintf(text + len, n - len, ", scopes%s%s%s", o->scopes & 1 ? " cta" : "",
                 o->scopes & 2 ? " gpu" : "", o->scopes & 4 ? " sys" : "");
    }
    if (o->conflict) {
        static const char *const where[] = {"", "L1s", "L2", "L1s and L2"};
        size_t len = strlen(text);
        snprintf(text + len, n - len, ", %s %s (lines conflict)",
                 o->conflict_ways > 1 ? "one-set two-way" : "one-way", where[o->conflict & 3]);
    }
    if (o->merge_max != VERIFY_MERGE_CONFIG) {
        size_t len = strlen(text);
        snprintf(text + len, n - len, ", merge_max %u", o->merge_max);
    }
}

int verify_run(const struct config *cfg, const struct verify_opts *o, struct verify_result *res,
               FILE *out)
{
    memset(res, 0, sizeof *res);
    struct search s = {.cfg = cfg, .o = o, .p = proto_find(cfg->coherence.protocol)};
    for (const struct coh_table *const *t = s.p->tables; *t; t++)
        s.n_tables++;
    s.cov = calloc(s.n_tables, sizeof *s.cov);
    s.scratch = calloc(s.n_tables, sizeof *s.scratch);
    s.path = malloc((UINT16_MAX + 2) * sizeof *s.path);
    if (!s.cov || !s.scratch || !s.path)
        panic("out of memory");
    for (unsigned t = 0; t < s.n_tables; t++) {
        coh_cov_init(&s.cov[t], s.p->tables[t]);
        coh_cov_init(&s.scratch[t], s.p->tables[t]);
    }
    visited_init(&s.seen, 1u << 12);
    double t0 = wall_seconds_since(0);
    log_set_exit(fault_exit);

    vx_memories_init(&s.mem, cfg->l1.cache.line_bytes);
    struct rig *r = vx_rig_new(cfg, s.p, o, s.scratch, &s.mem);
    vx_settle(r);
    const char *not_reduced = NULL;
    s.ser.sym = o->symmetry ? vx_sym_of_rig(r, &not_reduced) : NULL;
    res->reduced = s.ser.sym != NULL;
    res->subgroup = res->reduced ? vx_sym_subgroup(r) : "";
    if (not_reduced)
        fprintf(out, "verify %s: symmetry not used (%u L1s): %s\n", s.p->name, o->l1s, not_reduced);
    /* over values too: a data-blind protocol (proto_symmetry's data_blind), the
     * stores' values 1..V permuted, at most V_MAX_SYM_VALUES of them */
    const char *not_values = !o->value_symmetry || !s.ser.sym ? NULL
                             : !s.ser.sym->data_blind
                                 ? "its controllers are not described as blind to data values"
                             : o->values > V_MAX_SYM_VALUES ? "more than 3 values (--values)"
                                                            : NULL;
    _Static_assert(V_MAX_SYM_VALUES == 3, "the message above says 3");
    s.ser.values = o->value_symmetry && s.ser.sym && !not_values;
    res->values_reduced = s.ser.values;
    if (not_values)
        fprintf(out, "verify %s: symmetry over values not used: %s\n", s.p->name, not_values);
    add_node(&s, 0, &(struct vev){0}, 0, vx_quiescent(r));
    visited_put(&s.seen, state_key(&s, r, &res->states_full), 0);
    vx_rig_free(r);

    struct vev evs[MAX_ENABLED];
    int rc = 0;
    for (size_t i = 0; i < s.n_nodes && !res->violation; i++) {
        if (s.n_nodes > o->max_states || search_bytes(&s) > o->max_mem_mb << 20) {
            res->incomplete = true;
            break;
        }
        unsigned depth = path_to(&s, (uint32_t)i);
        r = rig_at(&s, depth);
        unsigned n_ev = vx_enabled(r, evs);
        bool quiet = vx_quiescent(r);
        vx_rig_free(r);
        if (!n_ev && !quiet) {
            r = rig_at(&s, depth);
            report_cex(&s, r, depth,
                       "deadlock: no event is possible, yet requests are unanswered or messages "
                       "undelivered",
                       out, res);
            vx_rig_free(r);
            break;
        }
        for (unsigned k = 0; k < n_ev && !res->violation; k++) {
            r = rig_at(&s, depth);
            cov_reset(&s);
            s.path[depth] = evs[k];
            int code = try_apply(r, &evs[k]);
            if (code) {
                char why[160];
                snprintf(why, sizeof why,
                         "simulator fault (exit %d) in the controllers: its message is on stderr",
                         code);
                fflush(stderr);
                report_cex(&s, r, depth + 1, why, out, res);
                /* a fault stops the controllers mid-action: their structures
                 * may be inconsistent, so the rig is not torn down, only kept
                 * reachable until the process ends (no leak is reported) */
                faulted_rig = r;
                break;
            }
            cov_add(&s);
            bool q = vx_quiescent(r);
            if (q)
                vx_check_quiescent(r);
            if (r->fault[0]) {
                char why[sizeof r->fault];
                strcpy(why, r->fault);
                report_cex(&s, r, depth + 1, why, out, res);
                vx_rig_free(r);
                break;
            }
            uint64_t orbit = 0;
            struct digest d = state_key(&s, r, &orbit);
            uint32_t old = visited_put(&s.seen, d, (uint32_t)s.n_nodes);
            uint32_t to = old;
            if (old == UINT32_MAX) {
                res->states_full += orbit;
                to = (uint32_t)s.n_nodes;
                if (depth + 1 > UINT16_MAX)
                    panic("verify: a path longer than %u events", UINT16_MAX);
                add_node(&s, (uint32_t)i, &evs[k], depth + 1, q);
                if (depth + 1 > res->depth)
                    res->depth = depth + 1;
            }
            add_edge(&s, (uint32_t)i, to);
            vx_rig_free(r);
        }
    }
    log_set_exit(NULL);
    if (!res->violation && !res->incomplete) {
        uint32_t bad = cannot_quiesce(&s);
        if (bad != UINT32_MAX) {
            unsigned depth = path_to(&s, bad);
            r = rig_at(&s, depth);
            report_cex(&s, r, depth,
                       "livelock: from this state no sequence of events answers every request "
                       "and delivers every message",
                       out, res);
            vx_rig_free(r);
        }
    }
    res->states = s.n_nodes;
    res->transitions = s.n_edges;
    res->seconds = wall_seconds_since(t0);
    res->mem_bytes = search_bytes(&s);
    coverage(&s, res);
    char lease_text[192];
    describe_machine(lease_text, sizeof lease_text, s.p, o);
    if (res->incomplete)
        fprintf(out,
                "verify %s: STOPPED at the %s bound (%llu states, %.1f MiB): nothing is proven; "
                "raise --max-states / --max-mem or lower --ops\n",
                s.p->name, s.n_nodes > o->max_states ? "state" : "memory",
                (unsigned long long)s.n_nodes, (double)search_bytes(&s) / (1 << 20));
    fprintf(out,
            "verify %-9s %s: %u L1s x %u lines x %u values, %u ops per L1 (%u in flight)%s%s%s: "
            "%llu states, %llu transitions, depth %u, %.2f s, %.1f MiB, cells reached %u of %u\n",
            s.p->name,
            res->violation    ? "VIOLATION"
            : res->incomplete ? "incomplete"
                              : "verified",
            o->l1s, o->lines, o->values, o->ops, o->inflight,
            o->atomics ? (o->sync ? ", acquire/release" : "")
                       : (o->sync ? ", no atomics, acquire/release" : ", no atomics"),
            o->plain == VERIFY_PLAIN_ONLY ? ", plain accesses only"
            : o->plain                    ? ", plain accesses"
                                          : "",
            lease_text, (unsigned long long)res->states, (unsigned long long)res->transitions,
            res->depth, res->seconds, (double)res->mem_bytes / (1 << 20), res->cells_reached,
            res->cells_total);
    print_restrictions(o, s.p->name, out);
    if (res->reduced)
        fprintf(out,
                "verify %s: symmetry over %u L1s%s%s: %llu states up to relabelling stand for "
                "%llu states of the unreduced space (%.2fx fewer)\n",
                s.p->name, o->l1s, res->subgroup,
                res->values_reduced ? " and the stores' values" : "",
                (unsigned long long)res->states, (unsigned long long)res->states_full,
                res->states ? (double)res->states_full / (double)res->states : 0.0);
    search_free(&s);
    rc = res->violation || res->incomplete;
    return rc;
}
