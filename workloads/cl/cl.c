/*
 * cl.c - host driver of CL, the cloth distance-constraint solver (see cl.cu).
 *
 * Input: a W x H cloth of particles on a unit grid, each displaced by up to
 * +-0.25 in x, y and z from the seed; two top corners pinned. Constraints:
 * structural (horizontal, vertical) and shear (both diagonals), coloured into
 * 8 batches by direction and parity. Reference: the same Gauss-Seidel sweep
 * on the CPU; positions compared with a tolerance (nvcc forms FMAs).
 * Sizes (W x H, CTAs x threads, iterations): tiny 16x16, 4x64, 4; quick
 * 64x64, 16x128, 8; paper 128x128, 16x256, 20 (RopaDemo's cloth size is not
 * given by either paper; invented). The grid must be co-resident.
 * Variant "nofence": the global barrier without its fences.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_cl[];

struct cl_size {
    unsigned w, h, ctas, threads, iters;
};
static const struct cl_size cl_sizes[WL_NSIZES] = {
    [WL_TINY] = {16, 16, 4, 64, 4},
    [WL_QUICK] = {64, 64, 16, 128, 8},
    [WL_SMALL] = {128, 128, 16, 256, 20}, /* small is paper: larger than the L2 */
    [WL_PAPER] = {128, 128, 16, 256, 20},
};

struct cl_cons {
    uint32_t *ci, *cj, off[9], n;
    float *rest;
};

static void cl_add(struct cl_cons *k, uint32_t i, uint32_t j, float rest)
{
    k->ci[k->n] = i;
    k->cj[k->n] = j;
    k->rest[k->n] = rest;
    k->n++;
}

/* Build the 8 batches: direction (h, v, diag, anti) x parity. */
static void cl_build(struct cl_cons *k, unsigned W, unsigned H)
{
    const float diag = sqrtf(2.0f);
    k->n = 0;
    for (unsigned b = 0; b < 8; b++) {
        k->off[b] = k->n;
        unsigned par = b & 1;
        for (unsigned r = 0; r < H; r++)
            for (unsigned c = 0; c < W; c++) {
                uint32_t p = r * W + c;
                switch (b >> 1) {
                case 0:
                    if (c + 1 < W && (c & 1) == par)
                        cl_add(k, p, p + 1, 1.0f);
                    break;
                case 1:
                    if (r + 1 < H && (r & 1) == par)
                        cl_add(k, p, p + W, 1.0f);
                    break;
                case 2:
                    if (r + 1 < H && c + 1 < W && (r & 1) == par)
                        cl_add(k, p, p + W + 1, diag);
                    break;
                default:
                    if (r + 1 < H && c + 1 < W && (r & 1) == par)
                        cl_add(k, p + 1, p + W, diag);
                    break;
                }
            }
    }
    k->off[8] = k->n;
}

static void cl_ref(float *pos, const float *im, const struct cl_cons *k, unsigned iters)
{
    for (unsigned it = 0; it < iters; it++)
        for (uint32_t c = 0; c < k->n; c++) {
            uint32_t i = k->ci[c], j = k->cj[c];
            float wi = im[i], wj = im[j], w = wi + wj;
            if (w == 0.0f)
                continue;
            float dx = pos[3 * j] - pos[3 * i];
            float dy = pos[3 * j + 1] - pos[3 * i + 1];
            float dz = pos[3 * j + 2] - pos[3 * i + 2];
            float len = sqrtf(dx * dx + dy * dy + dz * dz);
            if (len == 0.0f)
                continue;
            float kk = (len - k->rest[c]) / (len * w);
            pos[3 * i] += wi * kk * dx;
            pos[3 * i + 1] += wi * kk * dy;
            pos[3 * i + 2] += wi * kk * dz;
            pos[3 * j] -= wj * kk * dx;
            pos[3 * j + 1] -= wj * kk * dy;
            pos[3 * j + 2] -= wj * kk * dz;
        }
}

static int cl_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    bool nofence = false;
    if (p->variant && strcmp(p->variant, "nofence") == 0)
        nofence = true;
    else if (p->variant) {
        snprintf(why, why_len, "cl: unknown variant '%s' (known: nofence)", p->variant);
        return 1;
    }
    const struct cl_size *s = &cl_sizes[p->size];
    const unsigned np = s->w * s->h, maxc = 4 * np;
    struct cl_cons k = {0};
    float *pos = malloc(3 * np * sizeof(float)), *got = malloc(3 * np * sizeof(float));
    float *im = malloc(np * sizeof(float));
    k.ci = malloc(maxc * sizeof(uint32_t));
    k.cj = malloc(maxc * sizeof(uint32_t));
    k.rest = malloc(maxc * sizeof(float));
    int rc = 0;
    if (!pos || !got || !im || !k.ci || !k.cj || !k.rest) {
        snprintf(why, why_len, "cl: out of host memory");
        rc = 1;
        goto out;
    }
    struct rng r;
    rng_seed(&r, p->seed, 0xc1);
    for (unsigned i = 0; i < np; i++) {
        float base[3] = {(float)(i % s->w), (float)(i / s->w), 0.0f};
        for (unsigned d = 0; d < 3; d++)
            pos[3 * i + d] = base[d] + (float)((double)rng_below(&r, 1u << 20) / (1u << 21) - 0.25);
        im[i] = 1.0f;
    }
    im[0] = im[s->w - 1] = 0.0f;
    cl_build(&k, s->w, s->h);

    host_load_ptx(h, wl_ptx_cl, "workloads/cl/cl.ptx");
    addr_t dpos = host_malloc(h, 3 * np * sizeof(float)), dim = host_malloc(h, np * sizeof(float));
    addr_t dci = host_malloc(h, k.n * sizeof(uint32_t)),
           dcj = host_malloc(h, k.n * sizeof(uint32_t));
    addr_t drest = host_malloc(h, k.n * sizeof(float)), doff = host_malloc(h, sizeof(k.off));
    addr_t dcount = host_malloc(h, sizeof(uint32_t));
    host_memcpy_to_dev(h, dpos, pos, 3 * np * sizeof(float));
    host_memcpy_to_dev(h, dim, im, np * sizeof(float));
    host_memcpy_to_dev(h, dci, k.ci, k.n * sizeof(uint32_t));
    host_memcpy_to_dev(h, dcj, k.cj, k.n * sizeof(uint32_t));
    host_memcpy_to_dev(h, drest, k.rest, k.n * sizeof(float));
    host_memcpy_to_dev(h, doff, k.off, sizeof(k.off));
    host_memset(h, dcount, 0, sizeof(uint32_t));
    struct karg args[] = {KARG_PTR(dpos),  KARG_PTR(dim),  KARG_PTR(dci),      KARG_PTR(dcj),
                          KARG_PTR(drest), KARG_PTR(doff), KARG_U32(s->iters), KARG_PTR(dcount)};
    host_launch(h, nofence ? "cl_solve_nofence" : "cl_solve", DIM1(s->ctas), DIM1(s->threads), 0,
                args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, got, dpos, 3 * np * sizeof(float));

    cl_ref(pos, im, &k, s->iters);
    for (unsigned i = 0; i < 3 * np && rc == 0; i++) {
        float tol = 1e-3f * (1.0f + fabsf(pos[i]));
        if (!(fabsf(got[i] - pos[i]) <= tol)) {
            snprintf(why, why_len, "cl: particle %u coordinate %u is %g, expected %g", i / 3, i % 3,
                     (double)got[i], (double)pos[i]);
            rc = 1;
        }
    }
out:
    free(pos), free(got), free(im), free(k.ci), free(k.cj), free(k.rest);
    return rc;
}

const struct workload wl_cl = {
    .name = "cl",
    .set = "inter",
    .desc = "cloth distance-constraint solver, coloured batches across CTAs, global barrier",
    .ptx = wl_ptx_cl,
    .ptx_file = "workloads/cl/cl.ptx",
    .run = cl_run,
    .variants = (const char *const[]){"nofence", NULL},
};
