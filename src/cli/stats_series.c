/*
 * stats_series.c - statistics sampled over time into a CSV (see
 * stats_series.h).
 *
 * Each row holds the machine's clock, the cumulative counters (core cycles
 * with a kernel running, instructions, L1 hits, L2 misses, accesses, bytes
 * on the interconnect by message class) and what is measured over the
 * interval since the previous row (IPC, hit rates), plus the memory
 * operations outstanding at that moment, then the protocol's own columns
 * (proto_desc.series: levels at that moment, summed over the L2 banks; GETM's
 * stall buffers). An interval's rate is left empty
 * where it has no denominator (pandas reads NaN).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cli/stats_series.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "cli/common.h"

struct stats_series {
    char *text; /* the CSV so far (open_memstream) */
    size_t len;
    FILE *out;
    struct machine_summary prev; /* the counters at the previous row */
    uint64_t prev_kernel_cycles;
};

/* "x/y" as a number, or nothing when y is 0. */
static void put_rate(FILE *out, uint64_t x, uint64_t y)
{
    if (y)
        fprintf(out, ",%.6g", (double)x / (double)y);
    else
        fputc(',', out);
}

static void put_row(struct stats_series *ss, struct machine *m, uint64_t cycle,
                    uint64_t kernel_cycles)
{
    struct machine_summary s;
    machine_summary(m, &s);
    const struct machine_summary *p = &ss->prev;
    FILE *out = ss->out;
    fprintf(out, "%llu,%llu,%llu,%llu,%llu", (unsigned long long)cycle,
            (unsigned long long)kernel_cycles, (unsigned long long)s.kernels,
            (unsigned long long)s.thread_insts, (unsigned long long)s.warp_insts);
    put_rate(out, s.warp_insts - p->warp_insts, kernel_cycles - ss->prev_kernel_cycles);
    fprintf(out, ",%llu,%llu", (unsigned long long)s.l1_hits, (unsigned long long)s.l1_accesses);
    put_rate(out, s.l1_hits - p->l1_hits, s.l1_accesses - p->l1_accesses);
    /* misses, not hits: while requests are in flight a protocol may have
     * counted a miss before its access (MESI's L2), so accesses - misses is
     * not a count until the run ends (the summary's l2_hits wraps below 0) */
    uint64_t misses = s.l2_accesses - s.l2_hits, prev_misses = p->l2_accesses - p->l2_hits;
    uint64_t d_acc = s.l2_accesses - p->l2_accesses, d_miss = misses - prev_misses;
    fprintf(out, ",%llu,%llu", (unsigned long long)misses, (unsigned long long)s.l2_accesses);
    if (d_acc)
        fprintf(out, ",%.6g", d_miss < d_acc ? 1.0 - (double)d_miss / (double)d_acc : 0.0);
    else
        fputc(',', out);
    for (unsigned c = 0; c < TRAFFIC_N; c++)
        fprintf(out, ",%llu", (unsigned long long)s.bytes[c]);
    fprintf(out, ",%llu", (unsigned long long)machine_outstanding(m));
    const char *const *names;
    unsigned n = machine_series_names(m, &names);
    uint64_t v[MACHINE_SERIES_MAX];
    machine_series_values(m, v);
    for (unsigned k = 0; k < n; k++)
        fprintf(out, ",%llu", (unsigned long long)v[k]);
    fputc('\n', out);
    ss->prev = s;
    ss->prev_kernel_cycles = kernel_cycles;
}

static void on_sample(void *arg, struct machine *m, uint64_t cycle, uint64_t kernel_cycles)
{
    put_row(arg, m, cycle, kernel_cycles);
}

struct stats_series *stats_series_start(struct machine *m, uint64_t every_cycles)
{
    struct stats_series *ss = calloc(1, sizeof *ss);
    if (!ss || !(ss->out = open_memstream(&ss->text, &ss->len)))
        panic("out of memory");
    fputs("cycle,kernel_cycles,kernels,thread_insts,warp_insts,ipc,l1_hits,l1_accesses,"
          "l1_hit_rate,l2_misses,l2_accesses,l2_hit_rate",
          ss->out);
    for (unsigned c = 0; c < TRAFFIC_N; c++)
        fprintf(ss->out, ",bytes_%s", traffic_class_names[c]);
    fputs(",outstanding", ss->out);
    const char *const *names;
    unsigned n = machine_series_names(m, &names);
    for (unsigned k = 0; k < n; k++)
        fprintf(ss->out, ",%s", names[k]);
    fputc('\n', ss->out);
    machine_set_sampler(m, every_cycles, on_sample, ss);
    return ss;
}

int stats_series_finish(struct stats_series *ss, struct machine *m, const char *path)
{
    machine_set_sampler(m, 0, NULL, NULL);
    struct machine_summary s;
    machine_summary(m, &s);
    put_row(ss, m, machine_cycle(m), s.cycles); /* the run's totals */
    int rc = fclose(ss->out) ? -1 : 0;
    if (!rc && path)
        rc = write_file_atomic(path, ss->text);
    free(ss->text);
    free(ss);
    return rc;
}
