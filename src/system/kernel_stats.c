/*
 * kernel_stats.c - per-launch statistics from counter snapshots (see
 * kernel_stats.h).
 *
 * Statistic names are interned once into a table (an open-addressing index
 * keyed by FNV-1a), so a snapshot is an array of values by name index: the
 * set of names can grow during a run (a histogram emits a bucket only once
 * it is non-empty), and a name first seen at a launch's end started at 0.
 * Each launch keeps its changed counters as (index, difference) pairs in one
 * array shared by all launches.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "system/kernel_stats.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/log.h"

struct stat_delta {
    uint32_t name; /* index into names */
    uint64_t value;
};

struct launch_rec {
    struct kernel_stats_launch pub;
    size_t first, n; /* its deltas: deltas[first, first + n) */
};

struct kernel_stats {
    char **names; /* every statistic name seen */
    uint32_t n_names, cap_names;
    uint32_t *slots;   /* index + 1 of the name hashed there, 0 = empty */
    uint32_t n_slots;  /* a power of two, at least twice n_names */
    uint64_t *start;   /* per name: its value when the running launch started */
    bool *not_counter; /* per name: it went down during a launch (a level, not a count) */
    struct machine_summary start_summary;
    struct stat_delta *deltas;
    size_t n_deltas, cap_deltas;
    struct launch_rec *launches;
    unsigned n_launches, cap_launches;
};

static void *grow(void *p, size_t n, size_t size)
{
    p = realloc(p, n * size);
    if (!p)
        panic("out of memory");
    return p;
}

static uint32_t slot_of(const struct kernel_stats *ks, const char *name)
{
    uint32_t mask = ks->n_slots - 1;
    uint32_t s = (uint32_t)hash_fnv1a(HASH_FNV_INIT, name, strlen(name)) & mask;
    while (ks->slots[s] && strcmp(ks->names[ks->slots[s] - 1], name))
        s = (s + 1) & mask;
    return s;
}

static void rehash(struct kernel_stats *ks)
{
    ks->n_slots = ks->n_slots ? 2 * ks->n_slots : 1024;
    free(ks->slots);
    ks->slots = calloc(ks->n_slots, sizeof *ks->slots);
    if (!ks->slots)
        panic("out of memory");
    for (uint32_t i = 0; i < ks->n_names; i++)
        ks->slots[slot_of(ks, ks->names[i])] = i + 1;
}

/* The index of `name`, interned the first time (its start value 0). */
static uint32_t name_index(struct kernel_stats *ks, const char *name)
{
    uint32_t s = slot_of(ks, name);
    if (ks->slots[s])
        return ks->slots[s] - 1;
    if (ks->n_names == ks->cap_names) {
        ks->cap_names = ks->cap_names ? 2 * ks->cap_names : 512;
        ks->names = grow(ks->names, ks->cap_names, sizeof *ks->names);
        ks->start = grow(ks->start, ks->cap_names, sizeof *ks->start);
        ks->not_counter = grow(ks->not_counter, ks->cap_names, sizeof *ks->not_counter);
    }
    uint32_t i = ks->n_names++;
    ks->names[i] = strdup(name);
    if (!ks->names[i])
        panic("out of memory");
    ks->start[i] = 0;
    ks->not_counter[i] = false;
    if (2 * ks->n_names > ks->n_slots)
        rehash(ks);
    else
        ks->slots[s] = i + 1;
    return i;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* Maxima, minima and averages (a histogram's .max, tx.ts_max, RCC's
 * lease_min and lease_avg) are not sums over time, so no launch has a share
 * of them. */
static bool is_maximum(const char *name)
{
    return ends_with(name, "max") || ends_with(name, "_min") || ends_with(name, "_avg");
}

struct kernel_stats *kernel_stats_new(void)
{
    struct kernel_stats *ks = calloc(1, sizeof *ks);
    if (!ks)
        panic("out of memory");
    rehash(ks);
    return ks;
}

void kernel_stats_free(struct kernel_stats *ks)
{
    if (!ks)
        return;
    for (uint32_t i = 0; i < ks->n_names; i++)
        free(ks->names[i]);
    free(ks->names);
    free(ks->slots);
    free(ks->start);
    free(ks->not_counter);
    free(ks->deltas);
    free(ks->launches);
    free(ks);
}

static void take_start(void *arg, const char *name, uint64_t v)
{
    struct kernel_stats *ks = arg;
    if (is_maximum(name))
        return;
    uint32_t i = name_index(ks, name); /* may move ks->start */
    ks->start[i] = v;
}

void kernel_stats_begin(struct kernel_stats *ks, struct machine *m)
{
    machine_stats(m, take_start, ks);
    machine_summary(m, &ks->start_summary);
}

static void take_end(void *arg, const char *name, uint64_t v)
{
    struct kernel_stats *ks = arg;
    if (is_maximum(name))
        return;
    uint32_t i = name_index(ks, name);
    if (v == ks->start[i])
        return;
    if (v < ks->start[i]) { /* not a counter after all: left out of every launch */
        ks->not_counter[i] = true;
        return;
    }
    if (ks->n_deltas == ks->cap_deltas) {
        ks->cap_deltas = ks->cap_deltas ? 2 * ks->cap_deltas : 4096;
        ks->deltas = grow(ks->deltas, ks->cap_deltas, sizeof *ks->deltas);
    }
    ks->deltas[ks->n_deltas++] = (struct stat_delta){i, v - ks->start[i]};
}

/* d = end - start for every counter of the summary. */
static void summary_sub(struct machine_summary *d, const struct machine_summary *end,
                        const struct machine_summary *start)
{
    memset(d, 0, sizeof *d);
#define SUB(f) d->f = end->f - start->f
    SUB(cycles);
    SUB(kernels);
    SUB(thread_insts);
    SUB(warp_insts);
    SUB(l1_hits);
    SUB(l1_accesses);
    SUB(l2_hits);
    SUB(l2_accesses);
    SUB(events);
    SUB(gwct_waits);
    SUB(gwct_wait_cycles);
    SUB(load_latency.n);
    SUB(load_latency.sum);
    SUB(tx_commits);
    SUB(tx_aborts);
    SUB(tx_abort_bloom);
    for (unsigned c = 0; c < TRAFFIC_N; c++) {
        SUB(bytes[c]);
        SUB(flits[c]);
        SUB(msgs[c]);
    }
    for (unsigned k = 0; k < SM_TX_ABORT_N; k++)
        SUB(tx_abort[k]);
    for (unsigned k = 0; k < HIST_BUCKETS; k++)
        SUB(load_latency.b[k]);
#undef SUB
}

void kernel_stats_end(struct kernel_stats *ks, struct machine *m, const char *const *kernels,
                      unsigned n_kernels, uint64_t cycles)
{
    if (ks->n_launches == ks->cap_launches) {
        ks->cap_launches = ks->cap_launches ? 2 * ks->cap_launches : 16;
        ks->launches = grow(ks->launches, ks->cap_launches, sizeof *ks->launches);
    }
    struct launch_rec *r = &ks->launches[ks->n_launches++];
    memset(r, 0, sizeof *r);
    r->first = ks->n_deltas;
    machine_stats(m, take_end, ks);
    r->n = ks->n_deltas - r->first;
    struct machine_summary end;
    machine_summary(m, &end);
    summary_sub(&r->pub.summary, &end, &ks->start_summary);
    for (unsigned k = 0; k < n_kernels && k < 2; k++)
        r->pub.kernels[k] = kernels[k];
    r->pub.n_kernels = n_kernels < 2 ? n_kernels : 2;
    r->pub.cycles = cycles;
}

unsigned kernel_stats_launches(const struct kernel_stats *ks)
{
    return ks ? ks->n_launches : 0;
}

const struct kernel_stats_launch *kernel_stats_launch(const struct kernel_stats *ks, unsigned i)
{
    return &ks->launches[i].pub;
}

unsigned kernel_stats_names(const struct kernel_stats *ks)
{
    return ks->n_names;
}

const char *kernel_stats_name(const struct kernel_stats *ks, unsigned name)
{
    return ks->names[name];
}

void kernel_stats_each(const struct kernel_stats *ks, unsigned i, kernel_stat_fn *fn, void *arg)
{
    const struct launch_rec *r = &ks->launches[i];
    for (size_t k = r->first; k < r->first + r->n; k++)
        if (!ks->not_counter[ks->deltas[k].name])
            fn(arg, ks->deltas[k].name, ks->deltas[k].value);
}
