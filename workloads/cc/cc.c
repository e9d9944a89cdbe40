/*
 * cc.c - host driver of CC, the push-relabel graph cut in one persistent
 * kernel (see cc.cu).
 *
 * Input (from the seed): a segmentation-like grid graph. Pixels inside a few
 * random discs lean to the source (source capacity 8..15, sink 0..3), the
 * rest to the sink, with 10% of pixels flipped as noise; grid edges get
 * capacities 1..4 per direction. Every pixel's source and sink edges are
 * preflowed against each other on the host (m = min(cs, ct)), as CudaCuts
 * does. The kernel computes a maximum preflow.
 * Check (exact, integers): residuals non-negative and paired capacities
 * conserved; every pixel's excess equals its inflow minus outflow; the flow
 * value equals a CPU max flow (Dinic); the set of pixels that can still reach
 * the sink is the CPU's (it is the same for every maximum flow); no pixel that
 * can reach the sink keeps excess.
 * Sizes (W x H, CTAs x threads): tiny 16x16, 4x64; quick 64x64, 16x64;
 * paper 256x256, 16x64 (the paper's image size is not given; invented).
 * Variant "nofence": the global barrier without its fences.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_cc[];

struct cc_size {
    unsigned w, h, ctas, threads;
};
static const struct cc_size cc_sizes[WL_NSIZES] = {
    [WL_TINY] = {16, 16, 4, 64},
    [WL_QUICK] = {64, 64, 16, 64},
    [WL_SMALL] = {256, 256, 16, 64}, /* small is paper: larger than the L2 */
    [WL_PAPER] = {256, 256, 16, 64},
};
#define CC_MAX_ROUNDS 100000u

static int cc_nb(unsigned u, unsigned d, unsigned W, unsigned H)
{
    unsigned x = u % W, y = u / W;
    switch (d) {
    case 0:
        return x + 1 < W ? (int)(u + 1) : -1;
    case 1:
        return x > 0 ? (int)(u - 1) : -1;
    case 2:
        return y + 1 < H ? (int)(u + W) : -1;
    default:
        return y > 0 ? (int)(u - W) : -1;
    }
}

/* --- CPU reference: Dinic's max flow over an edge list with paired edges */
struct cc_dinic {
    unsigned nn, ne, s, t;
    int *head, *next, *to, *cap, *level, *it, *queue;
};

static void cc_edge(struct cc_dinic *g, unsigned a, unsigned b, int cab, int cba)
{
    g->to[g->ne] = (int)b, g->cap[g->ne] = cab, g->next[g->ne] = g->head[a],
    g->head[a] = (int)g->ne++;
    g->to[g->ne] = (int)a, g->cap[g->ne] = cba, g->next[g->ne] = g->head[b],
    g->head[b] = (int)g->ne++;
}

static bool cc_bfs(struct cc_dinic *g)
{
    for (unsigned i = 0; i < g->nn; i++)
        g->level[i] = -1;
    unsigned qh = 0, qt = 0;
    g->level[g->s] = 0;
    g->queue[qt++] = (int)g->s;
    while (qh < qt) {
        int x = g->queue[qh++];
        for (int e = g->head[x]; e >= 0; e = g->next[e])
            if (g->cap[e] > 0 && g->level[g->to[e]] < 0) {
                g->level[g->to[e]] = g->level[x] + 1;
                g->queue[qt++] = g->to[e];
            }
    }
    return g->level[g->t] >= 0;
}

static int cc_dfs(struct cc_dinic *g, int x, int f)
{
    if (x == (int)g->t)
        return f;
    for (; g->it[x] >= 0; g->it[x] = g->next[g->it[x]]) {
        int e = g->it[x], y = g->to[e];
        if (g->cap[e] > 0 && g->level[y] == g->level[x] + 1) {
            int got = cc_dfs(g, y, f < g->cap[e] ? f : g->cap[e]);
            if (got > 0) {
                g->cap[e] -= got;
                g->cap[e ^ 1] += got;
                return got;
            }
        }
    }
    return 0;
}

static long cc_maxflow(struct cc_dinic *g)
{
    long flow = 0;
    while (cc_bfs(g)) {
        for (unsigned i = 0; i < g->nn; i++)
            g->it[i] = g->head[i];
        for (int f; (f = cc_dfs(g, (int)g->s, 1 << 30)) > 0;)
            flow += f;
    }
    return flow;
}

/* Pixels that reach the sink over positive residuals: BFS backwards from t. */
static void cc_sink_side(struct cc_dinic *g, uint8_t *in_t)
{
    memset(in_t, 0, g->nn);
    unsigned qh = 0, qt = 0;
    in_t[g->t] = 1;
    g->queue[qt++] = (int)g->t;
    while (qh < qt) {
        int x = g->queue[qh++];
        for (int e = g->head[x]; e >= 0; e = g->next[e])
            if (g->cap[e ^ 1] > 0 && !in_t[g->to[e]]) {
                in_t[g->to[e]] = 1;
                g->queue[qt++] = g->to[e];
            }
    }
}

struct cc_bufs {
    int *cs, *ct, *c, *e, *h, *cf, *cft;
    uint8_t *in_t_cpu, *in_t_gpu;
    unsigned *queue;
    struct cc_dinic g;
};

static void cc_free(struct cc_bufs *b)
{
    free(b->cs), free(b->ct), free(b->c), free(b->e), free(b->h), free(b->cf), free(b->cft);
    free(b->in_t_cpu), free(b->in_t_gpu), free(b->queue);
    free(b->g.head), free(b->g.next), free(b->g.to), free(b->g.cap), free(b->g.level);
    free(b->g.it), free(b->g.queue);
}

/* Check the kernel's residual graph; returns 0 or 1 with why. */
static int cc_check(const struct cc_size *s, struct cc_bufs *b, unsigned rounds, char *why,
                    size_t why_len)
{
    const unsigned W = s->w, H = s->h, n = W * H;
    if (rounds >= CC_MAX_ROUNDS) {
        snprintf(why, why_len, "cc: no maximum preflow after %u rounds", rounds);
        return 1;
    }
    long flow = 0;
    for (unsigned u = 0; u < n; u++) {
        int m = b->cs[u] < b->ct[u] ? b->cs[u] : b->ct[u];
        long net = 0;
        if (b->cft[u] < 0 || b->cft[u] > b->ct[u] - m || b->e[u] < 0) {
            snprintf(why, why_len, "cc: pixel %u has sink residual %d, excess %d", u, b->cft[u],
                     b->e[u]);
            return 1;
        }
        for (unsigned d = 0; d < 4; d++) {
            int v = cc_nb(u, d, W, H);
            if (v < 0)
                continue;
            int r = b->cf[d * n + u], rv = b->cf[(d ^ 1) * n + (unsigned)v];
            if (r < 0 || r + rv != b->c[d * n + u] + b->c[(d ^ 1) * n + (unsigned)v]) {
                snprintf(why, why_len, "cc: edge %u->%d has residuals %d/%d, capacities %d/%d", u,
                         v, r, rv, b->c[d * n + u], b->c[(d ^ 1) * n + (unsigned)v]);
                return 1;
            }
            net += b->c[d * n + u] - r;
        }
        long want_e = (b->cs[u] - m) - (b->ct[u] - m - b->cft[u]) - net;
        if (b->e[u] != want_e) {
            snprintf(why, why_len, "cc: pixel %u has excess %d, its flows give %ld", u, b->e[u],
                     want_e);
            return 1;
        }
        flow += b->ct[u] - b->cft[u];
    }
    long want_flow = cc_maxflow(&b->g);
    if (flow != want_flow) {
        snprintf(why, why_len, "cc: flow value %ld, max flow is %ld", flow, want_flow);
        return 1;
    }
    cc_sink_side(&b->g, b->in_t_cpu);
    /* the kernel's sink side, from its residuals */
    memset(b->in_t_gpu, 0, n);
    unsigned qh = 0, qt = 0;
    for (unsigned u = 0; u < n; u++)
        if (b->cft[u] > 0)
            b->in_t_gpu[u] = 1, b->queue[qt++] = u;
    while (qh < qt) {
        unsigned x = b->queue[qh++];
        for (unsigned d = 0; d < 4; d++) {
            int v = cc_nb(x, d, W, H); /* v -> x residual is cf[(d^1)][v] */
            if (v >= 0 && !b->in_t_gpu[v] && b->cf[(d ^ 1) * n + (unsigned)v] > 0)
                b->in_t_gpu[v] = 1, b->queue[qt++] = (unsigned)v;
        }
    }
    for (unsigned u = 0; u < n; u++) {
        if (b->in_t_gpu[u] != b->in_t_cpu[u]) {
            snprintf(why, why_len, "cc: pixel %u is on the %s side, expected the %s side", u,
                     b->in_t_gpu[u] ? "sink" : "source", b->in_t_cpu[u] ? "sink" : "source");
            return 1;
        }
        if (b->in_t_gpu[u] && b->e[u] > 0) {
            snprintf(why, why_len, "cc: pixel %u keeps excess %d but can reach the sink", u,
                     b->e[u]);
            return 1;
        }
    }
    return 0;
}

static int cc_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    bool nofence = false;
    if (p->variant && strcmp(p->variant, "nofence") == 0)
        nofence = true;
    else if (p->variant) {
        snprintf(why, why_len, "cc: unknown variant '%s' (known: nofence)", p->variant);
        return 1;
    }
    const struct cc_size *s = &cc_sizes[p->size];
    const unsigned W = s->w, H = s->h, n = W * H;
    struct cc_bufs b = {0};
    b.cs = malloc(n * sizeof(int)), b.ct = malloc(n * sizeof(int));
    b.c = malloc(4 * n * sizeof(int)), b.cf = malloc(4 * n * sizeof(int));
    b.e = malloc(n * sizeof(int)), b.h = malloc(n * sizeof(int)), b.cft = malloc(n * sizeof(int));
    b.in_t_cpu = malloc(n + 2), b.in_t_gpu = malloc(n), b.queue = malloc(n * sizeof(unsigned));
    struct cc_dinic *g = &b.g;
    g->nn = n + 2, g->s = n, g->t = n + 1;
    unsigned max_e = 2 * (4 * n + 2 * n);
    g->head = malloc(g->nn * sizeof(int)), g->level = malloc(g->nn * sizeof(int));
    g->it = malloc(g->nn * sizeof(int)), g->queue = malloc(g->nn * sizeof(int));
    g->next = malloc(max_e * sizeof(int)), g->to = malloc(max_e * sizeof(int));
    g->cap = malloc(max_e * sizeof(int));
    if (!b.cs || !b.ct || !b.c || !b.cf || !b.e || !b.h || !b.cft || !b.in_t_cpu || !b.in_t_gpu ||
        !b.queue || !g->head || !g->level || !g->it || !g->queue || !g->next || !g->to || !g->cap) {
        cc_free(&b);
        snprintf(why, why_len, "cc: out of host memory");
        return 1;
    }

    struct rng r;
    rng_seed(&r, p->seed, 0xcc);
    unsigned disc[4][3];
    for (unsigned k = 0; k < 4; k++) {
        disc[k][0] = (unsigned)rng_below(&r, W), disc[k][1] = (unsigned)rng_below(&r, H);
        disc[k][2] = W / 8 + (unsigned)rng_below(&r, W / 4 + 1);
    }
    for (unsigned u = 0; u < n; u++) {
        long x = u % W, y = u / W;
        bool fg = false;
        for (unsigned k = 0; k < 4; k++) {
            long dx = x - (long)disc[k][0], dy = y - (long)disc[k][1], rr = disc[k][2];
            fg |= dx * dx + dy * dy <= rr * rr;
        }
        if (rng_chance(&r, 1, 10))
            fg = !fg;
        int hi = 8 + (int)rng_below(&r, 8), lo = (int)rng_below(&r, 4);
        b.cs[u] = fg ? hi : lo;
        b.ct[u] = fg ? lo : hi;
        for (unsigned d = 0; d < 4; d++)
            b.c[d * n + u] = cc_nb(u, d, W, H) >= 0 ? 1 + (int)rng_below(&r, 4) : 0;
    }
    /* device state and the Dinic graph */
    for (unsigned i = 0; i < g->nn; i++)
        g->head[i] = -1;
    g->ne = 0;
    for (unsigned u = 0; u < n; u++) {
        int m = b.cs[u] < b.ct[u] ? b.cs[u] : b.ct[u];
        b.e[u] = b.cs[u] - m;
        b.cft[u] = b.ct[u] - m;
        b.h[u] = 0;
        cc_edge(g, g->s, u, b.cs[u], 0);
        cc_edge(g, u, g->t, b.ct[u], 0);
        if (u % W + 1 < W)
            cc_edge(g, u, u + 1, b.c[0 * n + u], b.c[1 * n + u + 1]);
        if (u / W + 1 < H)
            cc_edge(g, u, u + W, b.c[2 * n + u], b.c[3 * n + u + W]);
    }
    memcpy(b.cf, b.c, 4 * n * sizeof(int));

    host_load_ptx(h, wl_ptx_cc, "workloads/cc/cc.ptx");
    addr_t de = host_malloc(h, n * sizeof(int)), dh = host_malloc(h, n * sizeof(int));
    addr_t dcf = host_malloc(h, 4 * n * sizeof(int)), dcft = host_malloc(h, n * sizeof(int));
    addr_t dsums = host_malloc(h, 3 * sizeof(uint32_t)), dcount = host_malloc(h, 4);
    addr_t dres = host_malloc(h, 4);
    host_memcpy_to_dev(h, de, b.e, n * sizeof(int));
    host_memcpy_to_dev(h, dh, b.h, n * sizeof(int));
    host_memcpy_to_dev(h, dcf, b.cf, 4 * n * sizeof(int));
    host_memcpy_to_dev(h, dcft, b.cft, n * sizeof(int));
    host_memset(h, dsums, 0, 3 * sizeof(uint32_t));
    host_memset(h, dcount, 0, 4);
    host_memset(h, dres, 0, 4);
    struct karg args[] = {
        KARG_PTR(de), KARG_PTR(dh),    KARG_PTR(dcf),    KARG_PTR(dcft), KARG_U32(W),
        KARG_U32(H),  KARG_PTR(dsums), KARG_PTR(dcount), KARG_PTR(dres), KARG_U32(CC_MAX_ROUNDS)};
    host_launch(h, nofence ? "cc_run_nofence" : "cc_run", DIM1(s->ctas), DIM1(s->threads), 0, args,
                ARRAY_LEN(args));
    uint32_t rounds = 0;
    host_memcpy_from_dev(h, b.e, de, n * sizeof(int));
    host_memcpy_from_dev(h, b.cf, dcf, 4 * n * sizeof(int));
    host_memcpy_from_dev(h, b.cft, dcft, n * sizeof(int));
    host_memcpy_from_dev(h, &rounds, dres, 4);

    int rc = cc_check(s, &b, rounds, why, why_len);
    cc_free(&b);
    return rc;
}

const struct workload wl_cc = {
    .name = "cc",
    .set = "inter",
    .desc = "push-relabel grid cut in one persistent kernel, atomics across tile borders",
    .ptx = wl_ptx_cc,
    .ptx_file = "workloads/cc/cc.ptx",
    .run = cc_run,
    .variants = (const char *const[]){"nofence", NULL},
};
