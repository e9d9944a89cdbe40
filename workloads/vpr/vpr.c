/*
 * vpr.c - host driver of VPR, one temperature step of parallel simulated-
 * annealing placement (see vpr.cu).
 *
 * Input (from the seed): a synthetic netlist, B blocks placed at random on a
 * G x G grid, and nets of 2..5 distinct random blocks. The temperature lets
 * a fair share of uphill moves through.
 * Check (the annealing is nondeterministic; these hold for every correct
 * run): every proposed move was counted once as accepted, rejected or
 * aborted (lock busy); every lock is free; the placement is injective and
 * cell_block is its exact inverse; every net's stored cost equals its
 * bounding box recomputed from the final placement; the running total equals
 * the sum of the net costs.
 * Sizes (G, blocks, nets, CTAs x threads, moves per thread, move range):
 * tiny 16, 192, 224, 4x64, 4, 3; quick 64, 3000, 3300, 64x64, 8, 8;
 * paper 128, 12000, 13000, 64x64, 32, 16. The TC paper ran VTR's bgm
 * circuit; it is not available here, so every size is a synthetic netlist of
 * invented size. Variant "nofence": locks without their fences.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_vpr[];

enum { VPR_TOTAL, VPR_ACCEPTED, VPR_REJECTED, VPR_ABORTED, VPR_NGLOB };

struct vpr_size {
    int G, B, nets, ctas, threads, moves, range;
};
static const struct vpr_size vpr_sizes[WL_NSIZES] = {
    [WL_TINY] = {16, 192, 224, 4, 64, 4, 3},
    [WL_QUICK] = {64, 3000, 3300, 64, 64, 8, 8},
    [WL_SMALL] = {128, 12000, 13000, 64, 64, 32, 16}, /* small is paper: larger than the L2 */
    [WL_PAPER] = {128, 12000, 13000, 64, 64, 32, 16},
};
#define VPR_TEMP 2.0f

struct vpr_net {
    int G, B, nets;
    int *cell_block, *block_cell, *net_off, *net_pins, *blk_off, *blk_nets, *cost, *locks;
};

static int vpr_hpwl(const struct vpr_net *v, int net)
{
    int x0 = v->G, x1 = -1, y0 = v->G, y1 = -1;
    for (int k = v->net_off[net]; k < v->net_off[net + 1]; k++) {
        int c = v->block_cell[v->net_pins[k]], x = c % v->G, y = c / v->G;
        x0 = MIN(x0, x), x1 = MAX(x1, x), y0 = MIN(y0, y), y1 = MAX(y1, y);
    }
    return (x1 - x0) + (y1 - y0);
}

static int vpr_check(const struct vpr_size *s, struct vpr_net *v, const int32_t *glob, char *why,
                     size_t why_len)
{
    const int cells = s->G * s->G;
    long moves = (long)glob[VPR_ACCEPTED] + glob[VPR_REJECTED] + glob[VPR_ABORTED];
    if (moves != (long)s->ctas * s->threads * s->moves) {
        snprintf(why, why_len, "vpr: %ld moves counted, %ld proposed", moves,
                 (long)s->ctas * s->threads * s->moves);
        return 1;
    }
    for (int i = 0; i < cells + s->nets; i++)
        if (v->locks[i] != 0) {
            snprintf(why, why_len, "vpr: %s lock %d still held", i < cells ? "cell" : "net",
                     i < cells ? i : i - cells);
            return 1;
        }
    for (int b = 0; b < s->B; b++) {
        int c = v->block_cell[b];
        if (c < 0 || c >= cells || v->cell_block[c] != b) {
            snprintf(why, why_len, "vpr: block %d at cell %d, which holds %d", b, c,
                     c >= 0 && c < cells ? v->cell_block[c] : -2);
            return 1;
        }
    }
    int used = 0;
    for (int c = 0; c < cells; c++)
        if (v->cell_block[c] >= 0) {
            if (v->cell_block[c] >= s->B || v->block_cell[v->cell_block[c]] != c) {
                snprintf(why, why_len, "vpr: cell %d names block %d, which is elsewhere", c,
                         v->cell_block[c]);
                return 1;
            }
            used++;
        }
    if (used != s->B) {
        snprintf(why, why_len, "vpr: %d cells occupied by %d blocks", used, s->B);
        return 1;
    }
    long total = 0;
    for (int n = 0; n < s->nets; n++) {
        int want = vpr_hpwl(v, n);
        if (v->cost[n] != want) {
            snprintf(why, why_len, "vpr: net %d has stored cost %d, its placement gives %d", n,
                     v->cost[n], want);
            return 1;
        }
        total += want;
    }
    if (total != glob[VPR_TOTAL]) {
        snprintf(why, why_len, "vpr: total cost %d, the nets sum to %ld", glob[VPR_TOTAL], total);
        return 1;
    }
    return 0;
}

static int vpr_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    bool nofence = false;
    if (p->variant && strcmp(p->variant, "nofence") == 0)
        nofence = true;
    else if (p->variant) {
        snprintf(why, why_len, "vpr: unknown variant '%s' (known: nofence)", p->variant);
        return 1;
    }
    const struct vpr_size *s = &vpr_sizes[p->size];
    const int cells = s->G * s->G, maxpins = 5 * s->nets;
    struct vpr_net v = {.G = s->G, .B = s->B, .nets = s->nets};
    v.cell_block = malloc(cells * sizeof(int)), v.block_cell = malloc(s->B * sizeof(int));
    v.net_off = malloc((s->nets + 1) * sizeof(int)), v.net_pins = malloc(maxpins * sizeof(int));
    v.blk_off = calloc(s->B + 1, sizeof(int)), v.blk_nets = malloc(maxpins * sizeof(int));
    v.cost = malloc(s->nets * sizeof(int)), v.locks = malloc((cells + s->nets) * sizeof(int));
    int rc = 1;
    if (!v.cell_block || !v.block_cell || !v.net_off || !v.net_pins || !v.blk_off || !v.blk_nets ||
        !v.cost || !v.locks) {
        snprintf(why, why_len, "vpr: out of host memory");
        goto done;
    }
    struct rng r;
    rng_seed(&r, p->seed, 0x3b7);
    for (int c = 0; c < cells; c++)
        v.cell_block[c] = c;
    for (int c = cells - 1; c > 0; c--) { /* shuffle, then blocks take the first B */
        int k = (int)rng_below(&r, (uint64_t)c + 1), t = v.cell_block[c];
        v.cell_block[c] = v.cell_block[k], v.cell_block[k] = t;
    }
    for (int c = 0; c < cells; c++) {
        int b = v.cell_block[c];
        if (b < s->B)
            v.block_cell[b] = c;
        else
            v.cell_block[c] = -1;
    }
    int np = 0;
    for (int n = 0; n < s->nets; n++) {
        v.net_off[n] = np;
        int k = 2 + (int)rng_below(&r, 4);
        while (np - v.net_off[n] < k) {
            int b = (int)rng_below(&r, (uint64_t)s->B);
            bool dup = false;
            for (int j = v.net_off[n]; j < np; j++)
                dup |= v.net_pins[j] == b;
            if (!dup)
                v.net_pins[np++] = b;
        }
    }
    v.net_off[s->nets] = np;
    for (int j = 0; j < np; j++)
        v.blk_off[v.net_pins[j] + 1]++;
    for (int b = 0; b < s->B; b++)
        v.blk_off[b + 1] += v.blk_off[b];
    long total = 0;
    { /* blk_nets: a cursor per block (locks[] is scratch here, cells >= B) */
        int *cur = v.locks;
        for (int b = 0; b < s->B; b++)
            cur[b] = v.blk_off[b];
        for (int n = 0; n < s->nets; n++)
            for (int j = v.net_off[n]; j < v.net_off[n + 1]; j++)
                v.blk_nets[cur[v.net_pins[j]]++] = n;
    }
    for (int n = 0; n < s->nets; n++)
        total += v.cost[n] = vpr_hpwl(&v, n);

    host_load_ptx(h, wl_ptx_vpr, "workloads/vpr/vpr.ptx");
    addr_t dcb = host_malloc(h, cells * sizeof(int)), dbc = host_malloc(h, s->B * sizeof(int));
    addr_t dlocks = host_malloc(h, (cells + s->nets) * sizeof(int));
    addr_t dcost = host_malloc(h, s->nets * sizeof(int));
    addr_t dglob = host_malloc(h, VPR_NGLOB * sizeof(int32_t));
    addr_t dnoff = host_malloc(h, (s->nets + 1) * sizeof(int)),
           dpins = host_malloc(h, np * sizeof(int));
    addr_t dboff = host_malloc(h, (s->B + 1) * sizeof(int)),
           dbnets = host_malloc(h, np * sizeof(int));
    host_memcpy_to_dev(h, dcb, v.cell_block, cells * sizeof(int));
    host_memcpy_to_dev(h, dbc, v.block_cell, s->B * sizeof(int));
    host_memset(h, dlocks, 0, (cells + s->nets) * sizeof(int));
    host_memcpy_to_dev(h, dcost, v.cost, s->nets * sizeof(int));
    int32_t glob[VPR_NGLOB] = {[VPR_TOTAL] = (int32_t)total};
    host_memcpy_to_dev(h, dglob, glob, sizeof(glob));
    host_memcpy_to_dev(h, dnoff, v.net_off, (s->nets + 1) * sizeof(int));
    host_memcpy_to_dev(h, dpins, v.net_pins, np * sizeof(int));
    host_memcpy_to_dev(h, dboff, v.blk_off, (s->B + 1) * sizeof(int));
    host_memcpy_to_dev(h, dbnets, v.blk_nets, np * sizeof(int));
    const addr_t dnlock = dlocks + (addr_t)cells * sizeof(int);
    struct karg args[] = {
        KARG_PTR(dcb),      KARG_PTR(dbc),
        KARG_PTR(dlocks),   KARG_PTR(dnlock),
        KARG_PTR(dcost),    KARG_PTR(dglob),
        KARG_PTR(dnoff),    KARG_PTR(dpins),
        KARG_PTR(dboff),    KARG_PTR(dbnets),
        KARG_I32(s->G),     KARG_I32(s->B),
        KARG_I32(s->moves), KARG_I32(s->range),
        KARG_F32(VPR_TEMP), KARG_U32((uint32_t)(p->seed ^ (p->seed >> 32))),
    };
    host_launch(h, nofence ? "vpr_anneal_nofence" : "vpr_anneal", DIM1((uint32_t)s->ctas),
                DIM1((uint32_t)s->threads), 0, args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, v.cell_block, dcb, cells * sizeof(int));
    host_memcpy_from_dev(h, v.block_cell, dbc, s->B * sizeof(int));
    host_memcpy_from_dev(h, v.locks, dlocks, (cells + s->nets) * sizeof(int));
    host_memcpy_from_dev(h, v.cost, dcost, s->nets * sizeof(int));
    host_memcpy_from_dev(h, glob, dglob, sizeof(glob));
    rc = vpr_check(s, &v, glob, why, why_len);
done:
    free(v.cell_block), free(v.block_cell), free(v.net_off), free(v.net_pins), free(v.blk_off);
    free(v.blk_nets), free(v.cost), free(v.locks);
    return rc;
}

const struct workload wl_vpr = {
    .name = "vpr",
    .set = "inter",
    .desc = "simulated-annealing placement: CAS-locked cell swaps, locked net cost updates",
    .ptx = wl_ptx_vpr,
    .ptx_file = "workloads/vpr/vpr.ptx",
    .run = vpr_run,
    .variants = (const char *const[]){"nofence", NULL},
};
