/*
 * ep.c - host driver of ep, spec 003 §4.5's EP (set spandex): evolutionary
 * programming on the CPU cores and the GPU at once (ep.cu says who does
 * what). Parameters of Capraro et al. as the paper uses them: population
 * 330, mutation and crossover rates 1/2, centre inverse mutation; 32 fp32
 * genes a chromosome (the paper gives none; spec 003 §4.5 proposes 32-64).
 * The cost of an individual is its squared distance to a target
 * chromosome. The population is split into T islands, one per CPU thread
 * and one per GPU CTA (selection and crossover stay on an island, so each
 * CPU core reuses its island from one generation to the next, as the
 * paper's latency-sensitive CPU does; the GPU touches every island).
 *
 * On a machine with CPU cores (configs/spandex.ini: 16) ep_cpu runs there,
 * T = min(16, cpu.cores) threads, launched together with ep_gpu (T CTAs of
 * 64 threads), the two handing generations over through counters in
 * memory. Without CPU cores (or in the functional mode) each generation is
 * two launches, ep_gpu and then ep_cpu as T one-thread CTAs on the GPU.
 * Sizes (P, generations, T at most): tiny 66, 2, 4; quick 330, 4, 16; small
 * 330, 8, 16; paper 330, 20, 16. Inputs (genes and target in [-1, 1]) come
 * from the seed.
 * Check: the host replays every generation with the same float operations
 * in the same order (fmaf as the kernel's fma.rn) and compares every bit of
 * the final population and fitness, the last children and each island's
 * best fitness per generation.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_ep[];

#define EP_GENES   32 /* as ep.cu */
#define EP_THREADS 64 /* per GPU CTA */

static const uint32_t ep_pop[WL_NSIZES] = {66, 330, 330, 330};
static const uint32_t ep_gens[WL_NSIZES] = {2, 4, 8, 20};
static const uint32_t ep_islands[WL_NSIZES] = {4, 16, 16, 16};

static uint32_t ep_hash(uint32_t g, uint32_t i, uint32_t what) /* as ep.cu */
{
    uint32_t h = g * 0x9e3779b1u ^ (i + 0x7f4a7c15u) * 0x85ebca6bu ^ what * 0xc2b2ae35u;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

struct ep {
    uint32_t P, G, T;
    float *pop, *kids, *fit, *best, *target;
};

/* GPU phase g: mutate the children of g - 1 (g > 0), evaluate. */
static void ref_gpu(struct ep *e, uint32_t g)
{
    if (g > 0)
        for (uint32_t i = 0; i < e->P; i++)
            for (uint32_t k = 0; k < EP_GENES; k++) {
                uint32_t from = k;
                if (ep_hash(g, i, 3) & 1) {
                    uint32_t cut = 1 + ep_hash(g, i, 4) % (EP_GENES - 1);
                    from = k < cut ? cut - 1 - k : cut + EP_GENES - 1 - k;
                }
                e->pop[i * EP_GENES + k] = e->kids[i * EP_GENES + from];
            }
    for (uint32_t i = 0; i < e->P; i++) {
        float s = 0.0f;
        for (uint32_t k = 0; k < EP_GENES; k++) {
            float d = e->pop[i * EP_GENES + k] - e->target[k];
            s = fmaf(d, d, s);
        }
        e->fit[i] = s;
    }
}

static uint32_t tournament(const struct ep *e, uint32_t lo, uint32_t hi, uint32_t g, uint32_t j,
                           uint32_t what)
{
    uint32_t x = lo + ep_hash(g, j, what) % (hi - lo), y = lo + ep_hash(g, j, what + 1) % (hi - lo);
    return e->fit[y] < e->fit[x] ? y : x;
}

/* CPU generation g: each island's best, then its children. */
static void ref_cpu(struct ep *e, uint32_t g)
{
    for (uint32_t t = 0; t < e->T; t++) {
        uint32_t lo = t * e->P / e->T, hi = (t + 1) * e->P / e->T;
        float b = e->fit[lo];
        for (uint32_t i = lo + 1; i < hi; i++)
            b = e->fit[i] < b ? e->fit[i] : b;
        e->best[g * e->T + t] = b;
        for (uint32_t j = lo; j < hi; j++) {
            uint32_t a = tournament(e, lo, hi, g, j, 5), m = tournament(e, lo, hi, g, j, 7);
            uint32_t cut = ep_hash(g, j, 9) & 1 ? 1 + ep_hash(g, j, 10) % (EP_GENES - 1) : EP_GENES;
            for (uint32_t k = 0; k < EP_GENES; k++)
                e->kids[j * EP_GENES + k] = e->pop[(k < cut ? a : m) * EP_GENES + k];
        }
    }
}

/* Device array `a` against the replay, bit for bit. */
static int compare(struct host *h, const char *what, addr_t a, const float *want, size_t n,
                   char *why, size_t why_len)
{
    float *got = malloc(n * sizeof *got);
    if (!got)
        panic("out of memory");
    host_memcpy_from_dev(h, got, a, n * sizeof *got);
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++)
        if (memcmp(&got[k], &want[k], sizeof *got)) {
            snprintf(why, why_len, "%s[%zu]: expected %.9g, got %.9g", what, k, (double)want[k],
                     (double)got[k]);
            rc = 1;
        }
    free(got);
    return rc;
}

static int ep_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    uint32_t cores = host_cpu_cores(h);
    struct ep e = {.P = ep_pop[p->size], .G = ep_gens[p->size], .T = ep_islands[p->size]};
    if (cores && cores < e.T)
        e.T = cores; /* the CPU threads wait for the GPU: all must run at once */
    size_t genes = (size_t)e.P * EP_GENES;
    e.pop = malloc(genes * sizeof *e.pop);
    e.kids = calloc(genes, sizeof *e.kids);
    e.fit = calloc(e.P, sizeof *e.fit);
    e.best = calloc((size_t)e.G * e.T, sizeof *e.best);
    e.target = malloc(EP_GENES * sizeof *e.target);
    if (!e.pop || !e.kids || !e.fit || !e.best || !e.target)
        panic("out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0xe9);
    for (size_t k = 0; k < genes; k++)
        e.pop[k] = (float)((int)rng_below(&r, 2001) - 1000) / 1000.0f;
    for (uint32_t k = 0; k < EP_GENES; k++)
        e.target[k] = (float)((int)rng_below(&r, 2001) - 1000) / 1000.0f;

    host_load_ptx(h, wl_ptx_ep, "workloads/ep/ep.ptx");
    addr_t dpop = host_malloc(h, genes * 4), dkids = host_malloc(h, genes * 4);
    addr_t dfit = host_malloc(h, e.P * 4), dbest = host_malloc(h, (size_t)e.G * e.T * 4);
    addr_t dtarget = host_malloc(h, EP_GENES * 4), dcount = host_malloc(h, 512);
    host_memcpy_to_dev(h, dpop, e.pop, genes * 4);
    host_memset(h, dkids, 0, genes * 4);
    host_memset(h, dfit, 0, e.P * 4);
    host_memset(h, dbest, 0, (size_t)e.G * e.T * 4);
    host_memcpy_to_dev(h, dtarget, e.target, EP_GENES * 4);
    host_memset(h, dcount, 0, 512);
    struct karg ga[9] = {KARG_PTR(dpop),    KARG_PTR(dkids),  KARG_PTR(dfit),
                         KARG_PTR(dtarget), KARG_PTR(dcount), KARG_U32(e.P),
                         KARG_U32(0),       KARG_U32(e.G),    KARG_U32(cores ? 1 : 0)};
    struct karg ca[9] = {KARG_PTR(dpop),  KARG_PTR(dkids),   KARG_PTR(dfit),
                         KARG_PTR(dbest), KARG_PTR(dcount),  KARG_U32(e.P),
                         KARG_U32(0),     KARG_U32(e.G - 1), KARG_U32(cores ? 1 : 0)};
    if (cores) { /* every generation in one pair of launches, running together */
        host_launch_on(h, HOST_CPU, true, "ep_cpu", DIM1(e.T), DIM1(1), 0, ca, 9);
        host_launch_on(h, HOST_GPU, false, "ep_gpu", DIM1(e.T), DIM1(EP_THREADS), 0, ga, 9);
    } else {
        for (uint32_t g = 0; g <= e.G; g++) {
            ga[6] = ga[7] = KARG_U32(g);
            host_launch(h, "ep_gpu", DIM1(e.T), DIM1(EP_THREADS), 0, ga, 9);
            if (g == e.G)
                break;
            ca[6] = ca[7] = KARG_U32(g);
            host_launch(h, "ep_cpu", DIM1(e.T), DIM1(1), 0, ca, 9);
        }
    }
    for (uint32_t g = 0; g <= e.G; g++) {
        ref_gpu(&e, g);
        if (g < e.G)
            ref_cpu(&e, g);
    }
    int rc = compare(h, "pop", dpop, e.pop, genes, why, why_len);
    if (!rc)
        rc = compare(h, "fit", dfit, e.fit, e.P, why, why_len);
    if (!rc)
        rc = compare(h, "kids", dkids, e.kids, genes, why, why_len);
    if (!rc)
        rc = compare(h, "best", dbest, e.best, (size_t)e.G * e.T, why, why_len);
    host_free(h, dpop);
    host_free(h, dkids);
    host_free(h, dfit);
    host_free(h, dbest);
    host_free(h, dtarget);
    host_free(h, dcount);
    free(e.pop);
    free(e.kids);
    free(e.fit);
    free(e.best);
    free(e.target);
    return rc;
}

const struct workload wl_ep = {
    .name = "ep",
    .set = "spandex-cpugpu",
    .desc = "evolutionary programming: GPU evaluates and mutates, CPU cores select and cross "
            "over, at once (spec 003 §4.5)",
    .ptx = wl_ptx_ep,
    .ptx_file = "workloads/ep/ep.ptx",
    .run = ep_run,
};
