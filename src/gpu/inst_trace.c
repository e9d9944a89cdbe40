/*
 * inst_trace.c - the per-warp-instruction trace and per-instruction
 * statistics (inst_trace.h, docs/trace.md).
 *
 * Kernels are told apart by name, PTX file, instruction count and a hash of
 * the PTX text, so that a module freed and loaded again adds to the same
 * rows and a kernel pointer reused by another module does not. The trace is
 * one CSV row per warp instruction, written through one buffered FILE (no
 * allocation per event); an instruction's text and CUDA line are copied
 * from its module the first time it runs, as the module may be freed before
 * the statistics are written.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/inst_trace.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/file.h"
#include "base/log.h"
#include "sim/req.h"

static const char *const op_names[MEM_NOPS] = {[MEM_LOAD] = "load",
                                               [MEM_STORE] = "store",
                                               [MEM_ATOMIC] = "atomic",
                                               [MEM_FENCE] = "fence",
                                               [MEM_KERNEL_BEGIN] = "kernel_begin",
                                               [MEM_KERNEL_END] = "kernel_end"};

/* Counters of one static instruction of one kernel. */
struct ti_count {
    uint64_t warp_execs, thread_execs, cycles;
    uint64_t mem_execs, lines, l1_hits, line_cycles;
    uint8_t op; /* enum mem_op seen, MEM_NOPS: none */
};

/* What is copied of an instruction the first time it runs. */
struct ti_text {
    char *inst; /* its PTX, one line, NULL: not run yet */
    char *cu;   /* "file.cu:line", NULL without .loc */
    uint32_t ptx_line;
};

struct ti_kernel {
    const struct ptx_kernel *live; /* the kernel while its module is loaded (may go stale) */
    const char *text;              /* that module's PTX text (a changed pointer: look again) */
    char *name, *ptx_file;
    char *ptx_quoted; /* ptx_file with its quotes doubled when it needs quoting, else NULL */
    uint32_t n_ins;
    uint64_t hash;     /* of the PTX text */
    bool traced;       /* passes --trace-kernel */
    uint32_t *line_at; /* offset of each line of text (index line - 1) */
    uint32_t n_lines;
    struct ti_count *count; /* [n_ins] */
    struct ti_text *txt;    /* [n_ins] */
};

struct inst_trace {
    struct inst_trace_opts o;
    FILE *trace;
    char *trace_tmp;
    struct ti_kernel *k;
    unsigned n_k, cap_k;
    struct ti_kernel *last; /* the last kernel an event named */
    bool finished;
};

/* A run that stops at a fault (exit 2 or 3) leaves no trace file; what was
 * traced so far is kept beside it as FILE.partial, for finding the cause. */
void inst_trace_keep_partial(struct inst_trace *t)
{
    if (t->finished || !t->trace)
        return;
    fflush(t->trace);
    char partial[4096];
    snprintf(partial, sizeof partial, "%s.partial", t->o.trace_file);
    if (!rename(t->trace_tmp, partial))
        fprintf(stderr, "gpucoh: the run did not finish: its trace so far is in %s\n", partial);
}

static int parse_u64(const char *s, const char **end, uint64_t *v)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *e;
    unsigned long long x = strtoull(s, &e, 10);
    if (errno)
        return -1;
    *v = x;
    *end = e;
    return 0;
}

int inst_trace_filter(struct inst_trace_opts *o, const char *what, const char *text, char *err,
                      size_t errlen)
{
    const char *p = text;
    uint64_t a, b;
    if (!strcmp(what, "cycles")) {
        a = 0, b = UINT64_MAX;
        const char *colon = strchr(text, ':');
        if (!colon || (colon == text && !colon[1]))
            goto bad_cycles;
        if (colon != text && (parse_u64(text, &p, &a) || p != colon))
            goto bad_cycles;
        if (colon[1] && (parse_u64(colon + 1, &p, &b) || *p))
            goto bad_cycles;
        if (a > b) {
            snprintf(err, errlen, "'%s': the window's first cycle %llu comes after its last %llu",
                     text, (unsigned long long)a, (unsigned long long)b);
            return -1;
        }
        o->cycle_lo = a, o->cycle_hi = b, o->has_cycles = true;
        return 0;
    bad_cycles:
        snprintf(err, errlen,
                 "'%s' is not a cycle window A:B (A:, :B and A:B, whole numbers, "
                 "inclusive)",
                 text);
        return -1;
    }
    bool warps = !strcmp(what, "warps");
    if (!warps && strcmp(what, "ctas"))
        panic("inst_trace_filter: no filter '%s'", what);
    unsigned n = 0;
    for (;;) {
        if (n == INST_TRACE_MAX_SEL) {
            snprintf(err, errlen, "'%s' names more than %d %s", text, INST_TRACE_MAX_SEL,
                     warps ? "warps" : "CTAs");
            return -1;
        }
        if (parse_u64(p, &p, &a) || a > UINT32_MAX)
            goto bad_list;
        if (warps) {
            if (*p++ != ':' || parse_u64(p, &p, &b) || b > UINT32_MAX)
                goto bad_list;
            o->warp_sm[n] = (uint32_t)a, o->warp_slot[n] = (uint32_t)b;
        } else {
            o->cta[n] = (uint32_t)a;
        }
        n++;
        if (!*p)
            break;
        if (*p++ != ',')
            goto bad_list;
    }
    if (warps)
        o->n_warps = n;
    else
        o->n_ctas = n;
    return 0;
bad_list:
    snprintf(err, errlen,
             warps ? "'%s' is not a list of SM:WARP pairs (SM index, warp slot in "
                     "it: 0:0,0:1,3:12)"
                   : "'%s' is not a list of CTA numbers (linear index in the grid: "
                     "0,5,17)",
             text);
    return -1;
}

struct inst_trace *inst_trace_new(const struct inst_trace_opts *o, char *err, size_t errlen)
{
    struct inst_trace *t = xcalloc(1, sizeof *t);
    t->o = *o;
    if (o->trace_file) {
        if (o->functional) {
            snprintf(err, errlen,
                     "--trace: the functional mode has no timing to trace (drop "
                     "--functional; --inst-stats counts its instructions)");
            free(t);
            return NULL;
        }
        size_t n = strlen(o->trace_file) + 32;
        t->trace_tmp = xmalloc(n);
        snprintf(t->trace_tmp, n, "%s.tmp.%d", o->trace_file, (int)getpid());
        t->trace = fopen(t->trace_tmp, "w");
        if (!t->trace) {
            snprintf(err, errlen, "cannot write %s: %s", o->trace_file, strerror(errno));
            free(t->trace_tmp);
            free(t);
            return NULL;
        }
        setvbuf(t->trace, NULL, _IOFBF, 1 << 20);
        fputs("# gpucoh trace 1: one row per warp instruction, written when it is done "
              "(docs/trace.md)\n"
              "kernel,issue,done,gpu,sm,slot,cta,warp,pc,ptx,inst,mask,op,lines,l1_hits,"
              "line_cycles,cu\n",
              t->trace);
    }
    return t;
}

static uint64_t text_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
    return h;
}

static void index_lines(struct ti_kernel *k, const char *text)
{
    free(k->line_at);
    uint32_t n = 1;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    k->line_at = xmalloc(n * sizeof *k->line_at);
    k->n_lines = 0;
    k->line_at[k->n_lines++] = 0;
    for (const char *p = text; *p; p++)
        if (*p == '\n')
            k->line_at[k->n_lines++] = (uint32_t)(p + 1 - text);
    k->text = text;
}

void inst_trace_kernel(struct inst_trace *t, const struct ptx_kernel *kern)
{
    const struct ptx_module *m = ptx_kernel_module(kern);
    const char *text = ptx_module_text(m);
    for (unsigned i = 0; i < t->n_k; i++)
        if (t->k[i].live == kern && t->k[i].text == text)
            return; /* every SM says so; known already */
    const char *name = ptx_kernel_info(kern)->name, *file = ptx_module_filename(m);
    uint32_t n_ins = ptx_module_n_insts(m);
    uint64_t h = text_hash(text);
    struct ti_kernel *k = NULL;
    for (unsigned i = 0; i < t->n_k; i++) {
        struct ti_kernel *c = &t->k[i];
        if (c->live == kern)
            c->live = NULL; /* a stale pointer: another module now */
        if (!k && c->hash == h && c->n_ins == n_ins && !strcmp(c->name, name) &&
            !strcmp(c->ptx_file, file))
            k = c;
    }
    if (!k) {
        if (t->n_k == t->cap_k) {
            t->cap_k = t->cap_k ? 2 * t->cap_k : 8;
            t->k = xrealloc(t->k, t->cap_k * sizeof *t->k);
        }
        k = &t->k[t->n_k++];
        memset(k, 0, sizeof *k);
        k->name = xstrdup(name);
        k->ptx_file = xstrdup(file);
        if (strpbrk(file, ",\"\n")) {
            k->ptx_quoted = xmalloc(2 * strlen(file) + 1);
            char *q = k->ptx_quoted;
            for (const char *p = file; *p; p++) {
                if (*p == '"')
                    *q++ = '"';
                *q++ = *p == '\n' ? ' ' : *p;
            }
            *q = 0;
        }
        k->n_ins = n_ins;
        k->hash = h;
        k->traced = !t->o.kernel || !strcmp(t->o.kernel, name);
        k->count = xcalloc(n_ins, sizeof *k->count);
        k->txt = xcalloc(n_ins, sizeof *k->txt);
        for (uint32_t pc = 0; pc < n_ins; pc++)
            k->count[pc].op = MEM_NOPS;
    }
    k->live = kern;
    index_lines(k, text);
    t->last = NULL;
}

/* Copy instruction pc's PTX line (trimmed, comments and tabs out) and CUDA
 * line, the first time it runs. */
static void take_text(struct ti_kernel *k, const struct ptx_module *m, uint32_t pc)
{
    struct ti_text *x = &k->txt[pc];
    uint32_t line = ptx_module_inst_line(m, pc);
    x->ptx_line = line;
    char buf[256];
    size_t n = 0;
    if (line >= 1 && line <= k->n_lines) {
        const char *s = k->text + k->line_at[line - 1];
        while (*s == ' ' || *s == '\t')
            s++;
        for (; *s && *s != '\n' && !(s[0] == '/' && s[1] == '/') && n + 1 < sizeof buf; s++) {
            char ch = *s == '\t' || *s == '\r' ? ' ' : *s;
            if (ch != ' ' || (n && buf[n - 1] != ' ')) /* runs of blanks: one space */
                buf[n++] = ch;
        }
        while (n && buf[n - 1] == ' ')
            n--;
    }
    buf[n] = 0;
    x->inst = xstrdup(buf);
    uint32_t cu_line;
    const char *cu = ptx_module_inst_source(m, pc, &cu_line);
    if (cu) {
        size_t len = strlen(cu) + 16;
        x->cu = xmalloc(len);
        snprintf(x->cu, len, "%s:%u", cu, cu_line);
    }
}

static struct ti_kernel *kernel_of(struct inst_trace *t, const struct ptx_kernel *kern)
{
    if (t->last && t->last->live == kern)
        return t->last;
    for (unsigned i = 0; i < t->n_k; i++)
        if (t->k[i].live == kern)
            return t->last = &t->k[i];
    inst_trace_kernel(t, kern); /* a runner that did not say the kernel started */
    return kernel_of(t, kern);
}

static bool traced(const struct inst_trace *t, const struct inst_event *e)
{
    const struct inst_trace_opts *o = &t->o;
    if (o->has_cycles && (e->issued < o->cycle_lo || e->issued > o->cycle_hi))
        return false;
    if (o->n_warps) {
        unsigned i = 0;
        while (i < o->n_warps && (o->warp_sm[i] != e->sm || o->warp_slot[i] != e->slot))
            i++;
        if (i == o->n_warps)
            return false;
    }
    if (o->n_ctas) {
        unsigned i = 0;
        while (i < o->n_ctas && o->cta[i] != e->cta)
            i++;
        if (i == o->n_ctas)
            return false;
    }
    return true;
}

static void write_row(struct inst_trace *t, const struct ti_kernel *k, const struct inst_event *e)
{
    FILE *f = t->trace;
    const struct ti_text *x = &k->txt[e->pc];
    csv_field(f, k->name);
    fprintf(f, ",%llu,%llu,%u,%u,%u,%u,%u,%u,", (unsigned long long)e->issued,
            (unsigned long long)e->done, e->gpu, e->sm, e->slot, e->cta, e->warp, e->pc);
    if (k->ptx_quoted) /* a file name with a comma: "name:line" quoted whole */
        fprintf(f, "\"%s:%u\",", k->ptx_quoted, x->ptx_line);
    else
        fprintf(f, "%s:%u,", k->ptx_file, x->ptx_line);
    csv_field(f, x->inst);
    fprintf(f, ",0x%08x,%s,", e->active, e->op < MEM_NOPS ? op_names[e->op] : "");
    for (unsigned i = 0; i < e->n_lines; i++)
        fprintf(f, "%s0x%llx", i ? " " : "", (unsigned long long)e->lines[i].line);
    fprintf(f, ",%u,%llu,", e->l1_hits, (unsigned long long)e->line_cycles);
    if (x->cu)
        csv_field(f, x->cu);
    fputc('\n', f);
}

void inst_trace_event(struct inst_trace *t, const struct inst_event *e)
{
    struct ti_kernel *k = kernel_of(t, e->kernel);
    if (e->pc >= k->n_ins)
        panic("inst_trace: pc %u of kernel %s beyond its %u instructions", e->pc, k->name,
              k->n_ins);
    if (!k->txt[e->pc].inst)
        take_text(k, ptx_kernel_module(e->kernel), e->pc);
    struct ti_count *c = &k->count[e->pc];
    c->warp_execs++;
    c->thread_execs += e->threads;
    c->cycles += e->done - e->issued;
    if (e->op < MEM_NOPS) {
        c->op = e->op;
        c->mem_execs++;
        c->lines += e->n_lines;
        c->l1_hits += e->l1_hits;
        c->line_cycles += e->line_cycles;
    }
    if (t->trace && k->traced && traced(t, e))
        write_row(t, k, e);
}

static void observe_done(void *t, const struct inst_event *e)
{
    inst_trace_event(t, e);
}

static void observe_kernel_start(void *t, const struct ptx_kernel *k)
{
    inst_trace_kernel(t, k);
}

struct inst_observer inst_trace_observer(struct inst_trace *t)
{
    return (struct inst_observer){
        .done = observe_done, .kernel_start = observe_kernel_start, .ctx = t};
}

/* ---- the statistics ---- */

static void add_counts(cJSON *o, const struct ti_count *c, bool timing)
{
    cJSON_AddNumberToObject(o, "warp_execs", (double)c->warp_execs);
    cJSON_AddNumberToObject(o, "thread_execs", (double)c->thread_execs);
    if (timing)
        cJSON_AddNumberToObject(o, "cycles", (double)c->cycles);
    if (c->mem_execs) {
        cJSON_AddNumberToObject(o, "mem_execs", (double)c->mem_execs);
        if (timing) {
            cJSON_AddNumberToObject(o, "lines", (double)c->lines);
            cJSON_AddNumberToObject(o, "l1_hit_lines", (double)c->l1_hits);
            cJSON_AddNumberToObject(o, "line_cycles", (double)c->line_cycles);
        }
    }
}

struct cu_row {
    const char *cu;
    uint32_t first_pc;
    struct ti_count c;
    unsigned n_insts;
};

static int cu_cmp(const void *a, const void *b)
{
    const struct cu_row *x = a, *y = b;
    const char *cx = strrchr(x->cu, ':'), *cy = strrchr(y->cu, ':');
    int d = strncmp(x->cu, y->cu, (size_t)(MIN(cx - x->cu, cy - y->cu)));
    if (d || cx - x->cu != cy - y->cu)
        return d ? d : (cx - x->cu < cy - y->cu ? -1 : 1);
    unsigned long lx = strtoul(cx + 1, NULL, 10), ly = strtoul(cy + 1, NULL, 10);
    return lx < ly ? -1 : lx > ly;
}

static cJSON *kernel_json(const struct ti_kernel *k, bool timing)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", k->name);
    cJSON_AddStringToObject(o, "ptx", k->ptx_file);
    cJSON *ins = cJSON_AddArrayToObject(o, "instructions");
    struct cu_row *rows = xcalloc(k->n_ins, sizeof *rows);
    unsigned n_rows = 0;
    for (uint32_t pc = 0; pc < k->n_ins; pc++) {
        const struct ti_count *c = &k->count[pc];
        const struct ti_text *x = &k->txt[pc];
        if (!c->warp_execs)
            continue;
        cJSON *r = cJSON_CreateObject();
        cJSON_AddNumberToObject(r, "pc", pc);
        cJSON_AddNumberToObject(r, "ptx_line", x->ptx_line);
        cJSON_AddStringToObject(r, "inst", x->inst);
        if (x->cu)
            cJSON_AddStringToObject(r, "cu", x->cu);
        else
            cJSON_AddNullToObject(r, "cu");
        if (c->op < MEM_NOPS)
            cJSON_AddStringToObject(r, "op", op_names[c->op]);
        add_counts(r, c, timing);
        cJSON_AddItemToArray(ins, r);
        if (!x->cu)
            continue;
        unsigned i = 0;
        while (i < n_rows && strcmp(rows[i].cu, x->cu))
            i++;
        if (i == n_rows)
            rows[n_rows++] = (struct cu_row){x->cu, pc, {.op = MEM_NOPS}, 0};
        struct ti_count *s = &rows[i].c;
        s->warp_execs += c->warp_execs;
        s->thread_execs += c->thread_execs;
        s->cycles += c->cycles;
        s->mem_execs += c->mem_execs;
        s->lines += c->lines;
        s->l1_hits += c->l1_hits;
        s->line_cycles += c->line_cycles;
        rows[i].n_insts++;
    }
    qsort(rows, n_rows, sizeof *rows, cu_cmp);
    cJSON *cu = cJSON_AddArrayToObject(o, "cu_lines");
    for (unsigned i = 0; i < n_rows; i++) {
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "cu", rows[i].cu);
        cJSON_AddNumberToObject(r, "insts", rows[i].n_insts);
        add_counts(r, &rows[i].c, timing);
        cJSON_AddItemToArray(cu, r);
    }
    free(rows);
    return o;
}

static int write_stats(struct inst_trace *t, char *err, size_t errlen)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", "gpucoh inst-stats 1 (docs/trace.md)");
    cJSON_AddStringToObject(root, "mode", t->o.functional ? "functional" : "timing");
    cJSON *ks = cJSON_AddArrayToObject(root, "kernels");
    for (unsigned i = 0; i < t->n_k; i++)
        cJSON_AddItemToArray(ks, kernel_json(&t->k[i], !t->o.functional));
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", t->o.stats_file, (int)getpid());
    FILE *f = text ? fopen(tmp, "w") : NULL;
    bool ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    ok = f && fclose(f) == 0 && ok;
    free(text);
    if (!ok || rename(tmp, t->o.stats_file)) {
        snprintf(err, errlen, "cannot write %s: %s", t->o.stats_file, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

int inst_trace_finish(struct inst_trace *t, char *err, size_t errlen)
{
    if (t->finished)
        return 0;
    t->finished = true;
    int rc = 0;
    if (t->trace) {
        bool ok = !ferror(t->trace);
        ok = fclose(t->trace) == 0 && ok;
        t->trace = NULL;
        if (!ok || rename(t->trace_tmp, t->o.trace_file)) {
            snprintf(err, errlen, "cannot write %s: %s", t->o.trace_file, strerror(errno));
            remove(t->trace_tmp);
            rc = -1;
        }
    }
    if (t->o.stats_file && write_stats(t, err, errlen))
        rc = -1;
    if (t->o.trace_file && t->o.kernel) { /* a misspelt name traces nothing: say so */
        unsigned i = 0;
        while (i < t->n_k && strcmp(t->k[i].name, t->o.kernel))
            i++;
        if (i == t->n_k) {
            fprintf(stderr, "gpucoh: warning: --trace-kernel: no kernel named '%s' ran (",
                    t->o.kernel);
            for (i = 0; i < t->n_k; i++)
                fprintf(stderr, "%s%s", i ? ", " : "ran: ", t->k[i].name);
            fprintf(stderr, "%s)\n", t->n_k ? "" : "none ran");
        }
    }
    return rc;
}

void inst_trace_free(struct inst_trace *t)
{
    if (!t)
        return;
    if (t->trace) { /* not finished: no file */
        fclose(t->trace);
        remove(t->trace_tmp);
    }
    for (unsigned i = 0; i < t->n_k; i++) {
        struct ti_kernel *k = &t->k[i];
        for (uint32_t pc = 0; pc < k->n_ins; pc++) {
            free(k->txt[pc].inst);
            free(k->txt[pc].cu);
        }
        free(k->txt);
        free(k->count);
        free(k->line_at);
        free(k->name);
        free(k->ptx_file);
        free(k->ptx_quoted);
    }
    free(t->k);
    free(t->trace_tmp);
    free(t);
}
