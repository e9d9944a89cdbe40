/*
 * streamcluster.c - host driver of the streamcluster workload (order set,
 * spec 001 §4): the gain computation (pgain) of Rodinia's streamcluster,
 * launched once per candidate centre. num points of dim float coordinates
 * (structure of arrays), each with a weight, a cost and an assigned centre in
 * Rodinia's array of 24-byte Point structures (float weight at 0, 64-bit
 * assign at 8, float cost at 16), so a warp's loads of weight, cost and
 * assign go to the same six lines (spec 001 §4: independent loads to the same
 * blocks, the MSHR-merging pattern of Fig. 7). Every warp of every SM also
 * loads the candidate's coordinates, the same few lines. Until 2026-12 the
 * weights, costs and assignments were three separate arrays (repro/sc/README.md
 * keeps that version's numbers). Inputs: coordinates uniform in [0, 1), weights in
 * [1, 2), costs in [0, dim / 4), assignments to 8 centres. The CPU reference
 * does the kernel's float operations in its order (dist = fmaf(diff, diff,
 * dist) per coordinate), so switch_membership, gain and gain_center are
 * checked exactly, as is the total gain the host sums.
 * Sizes (points x dim x candidates): tiny 256 x 4 x 2, quick 4096 x 8 x 4,
 * small 8192 x 16 x 4, paper 16384 x 32 x 8 (Rodinia's default run is
 * 65536 points of 256 dimensions over many candidates; scaled).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_streamcluster[];

#define SC_BLOCK       256u
#define SC_CENTRES     8u
#define SC_POINT_BYTES 24u /* struct point of streamcluster.cu */

static float sc_unit(struct rng *r)
{
    return (float)rng_below(r, 1u << 24) / (float)(1u << 24);
}

static int streamcluster_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t nums[WL_NSIZES] = {256, 4096, 8192, 16384};
    static const uint32_t dims[WL_NSIZES] = {4, 8, 16, 32};
    static const uint32_t cands[WL_NSIZES] = {2, 4, 4, 8};
    uint32_t num = nums[p->size], dim = dims[p->size], nc = cands[p->size];
    float *coord = malloc((size_t)num * dim * sizeof(float)), *weight = malloc(num * sizeof(float)),
          *cost = malloc(num * sizeof(float)), *gain = malloc(num * sizeof(float));
    int32_t *assign = malloc(num * sizeof(int32_t)), *gc = malloc(num * sizeof(int32_t));
    int32_t table[SC_CENTRES];
    uint8_t *sw = malloc(num), *want_sw = calloc(num, 1);
    panic_if(!coord || !weight || !cost || !gain || !assign || !gc || !sw || !want_sw,
             "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0x5343); /* "SC" */
    for (size_t k = 0; k < (size_t)num * dim; k++)
        coord[k] = sc_unit(&r);
    for (uint32_t i = 0; i < num; i++) {
        weight[i] = 1.0f + sc_unit(&r);
        cost[i] = sc_unit(&r) * (float)dim / 4.0f;
        assign[i] = (int32_t)rng_below(&r, SC_CENTRES);
    }
    for (uint32_t c = 0; c < SC_CENTRES; c++)
        table[c] = (int32_t)rng_below(&r, num);

    uint8_t *points = calloc(num, SC_POINT_BYTES);
    panic_if(!points, "out of memory");
    for (uint32_t i = 0; i < num; i++) {
        int64_t a = assign[i];
        memcpy(points + (size_t)i * SC_POINT_BYTES, &weight[i], sizeof(float));
        memcpy(points + (size_t)i * SC_POINT_BYTES + 8, &a, sizeof a);
        memcpy(points + (size_t)i * SC_POINT_BYTES + 16, &cost[i], sizeof(float));
    }

    host_load_ptx(h, wl_ptx_streamcluster, "workloads/streamcluster/streamcluster.ptx");
    addr_t dcoord = host_malloc(h, (size_t)num * dim * sizeof(float)),
           dpoints = host_malloc(h, (size_t)num * SC_POINT_BYTES),
           dtable = host_malloc(h, sizeof table), dsw = host_malloc(h, num),
           dgain = host_malloc(h, num * sizeof(float)), dgc = host_malloc(h, num * sizeof(int32_t));
    host_memcpy_to_dev(h, dcoord, coord, (size_t)num * dim * sizeof(float));
    host_memcpy_to_dev(h, dpoints, points, (size_t)num * SC_POINT_BYTES);
    host_memcpy_to_dev(h, dtable, table, sizeof table);
    host_memset(h, dsw, 0, num);

    int rc = 0;
    struct dim3 grid = {(num + SC_BLOCK - 1) / SC_BLOCK, 1, 1}, block = {SC_BLOCK, 1, 1};
    for (uint32_t c = 0; c < nc && !rc; c++) {
        uint32_t x = (uint32_t)rng_below(&r, num);
        struct karg args[] = {KARG_I32(num),    KARG_I32(dim),     KARG_I32(x),
                              KARG_PTR(dcoord), KARG_PTR(dpoints), KARG_PTR(dtable),
                              KARG_PTR(dsw),    KARG_PTR(dgain),   KARG_PTR(dgc)};
        host_launch(h, "pgain", grid, block, 0, args, ARRAY_LEN(args));
        host_memcpy_from_dev(h, gain, dgain, num * sizeof(float));
        host_memcpy_from_dev(h, gc, dgc, num * sizeof(int32_t));
        double total = 0, want_total = 0;
        for (uint32_t i = 0; i < num; i++) {
            float dist = 0;
            for (uint32_t d = 0; d < dim; d++) {
                float diff = coord[(size_t)d * num + i] - coord[(size_t)d * num + x];
                dist = fmaf(diff, diff, dist);
            }
            float x_cost = dist * weight[i];
            float g = x_cost < cost[i] ? x_cost - cost[i] : cost[i] - x_cost;
            int32_t centre = x_cost < cost[i] ? -1 : table[assign[i]];
            if (x_cost < cost[i])
                want_sw[i] = 1;
            want_total += g;
            total += gain[i];
            if (gain[i] != g || gc[i] != centre) {
                snprintf(why, why_len,
                         "candidate %u, point %u: expected gain %.9g centre %d, "
                         "got %.9g centre %d",
                         x, i, (double)g, centre, (double)gain[i], gc[i]);
                rc = 1;
                break;
            }
        }
        if (!rc && total != want_total) {
            snprintf(why, why_len, "candidate %u: total gain %.9g, expected %.9g", x, total,
                     want_total);
            rc = 1;
        }
    }
    if (!rc) {
        host_memcpy_from_dev(h, sw, dsw, num);
        if (memcmp(sw, want_sw, num)) {
            snprintf(why, why_len, "switch_membership differs from the CPU's");
            rc = 1;
        }
    }
    host_free(h, dcoord);
    host_free(h, dpoints);
    host_free(h, dtable);
    host_free(h, dsw);
    host_free(h, dgain);
    host_free(h, dgc);
    free(coord);
    free(weight);
    free(cost);
    free(gain);
    free(assign);
    free(gc);
    free(sw);
    free(want_sw);
    free(points);
    return rc;
}

const struct workload wl_streamcluster = {
    .name = "streamcluster",
    .set = "order",
    .desc = "gain of opening a candidate centre: every point's weighted distance to it "
            "(Rodinia streamcluster pgain; spec 001)",
    .ptx = wl_ptx_streamcluster,
    .ptx_file = "workloads/streamcluster/streamcluster.ptx",
    .run = streamcluster_run,
};
