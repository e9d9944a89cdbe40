/*
 * halo.c - host driver of halo, Table 5.3's stencil and multigrid class
 * (HPGMG, MiniAMR, Nekbone, CoMD, MiniContact, snap; spec 004b §5.1):
 * V-cycles of a two-level multigrid-shaped integer relaxation, five
 * dependent kernels each (halo.cu), rows banded over the GPMs so that every
 * band's edge rows are a halo read by its neighbour.
 *
 * Cells in [0, 65535] from the seed; the boundary stays fixed. The CPU
 * reference runs the same integer kernels: exact check of the fine grid.
 * Sizes (side N, V-cycles; footprint = 2 N^2 + 2 (N/2)^2 words): tiny 32, 2
 * (10 KB); quick and small 128, 4 (160 KB); paper 256, 8 (640 KB). The
 * thesis's HPC codes are 72 MB-3.4 GB in 3D; this keeps their pattern (own
 * block plus a halo, several kernels per iteration, a coarser level read
 * across partitions) at a footprint the scaled machine's L2s hold.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_halo[];

struct halo_size {
    int side, cycles;
};
static const struct halo_size halo_sizes[WL_NSIZES] = {
    [WL_TINY] = {32, 2},
    [WL_QUICK] = {128, 4},
    [WL_SMALL] = {128, 4},
    [WL_PAPER] = {256, 8},
};

static void halo_ref_smooth(const int *src, int *dst, int n)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int i = y * n + x;
            if (x == 0 || y == 0 || x == n - 1 || y == n - 1)
                dst[i] = src[i];
            else
                dst[i] = (4 * src[i] + src[i - n] + src[i + n] + src[i - 1] + src[i + 1] + 4) >> 3;
        }
}

static void halo_ref_cycle(int *a, int *b, int *c, int *d, int n)
{
    int m = n / 2;
    halo_ref_smooth(a, b, n);
    halo_ref_smooth(b, a, n);
    for (int y = 0; y < m; y++)
        for (int x = 0; x < m; x++) {
            const int *f = a + 2 * y * n + 2 * x;
            c[y * m + x] = (f[0] + f[1] + f[n] + f[n + 1] + 2) >> 2;
        }
    halo_ref_smooth(c, d, m);
    for (int y = 1; y < n - 1; y++)
        for (int x = 1; x < n - 1; x++)
            a[y * n + x] = (a[y * n + x] + d[(y / 2) * m + x / 2]) >> 1;
}

static void halo_launch(struct host *h, const char *kernel, addr_t src, addr_t dst, int n)
{
    struct karg args[] = {KARG_PTR(src), KARG_PTR(dst), KARG_I32(n)};
    uint32_t g = (uint32_t)(n + 15) / 16;
    host_launch(h, kernel, DIM3(g, g, 1), DIM3(16, 16, 1), 0, args, ARRAY_LEN(args));
}

static int halo_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    const struct halo_size *s = &halo_sizes[p->size];
    int n = s->side, m = n / 2;
    size_t fine = (size_t)n * n * sizeof(int), coarse = (size_t)m * m * sizeof(int);
    int *a = malloc(fine), *b = malloc(fine), *c = malloc(coarse), *d = malloc(coarse);
    int *got = malloc(fine);
    if (!a || !b || !c || !d || !got) {
        free(a), free(b), free(c), free(d), free(got);
        snprintf(why, why_len, "halo: out of host memory");
        return 1;
    }
    struct rng r;
    rng_seed(&r, p->seed, 0x4a10);
    for (size_t i = 0; i < (size_t)n * n; i++)
        a[i] = (int)rng_below(&r, 65536);

    host_load_ptx(h, wl_ptx_halo, "workloads/halo/halo.ptx");
    addr_t da = host_malloc(h, fine), db = host_malloc(h, fine);
    addr_t dc = host_malloc(h, coarse), dd = host_malloc(h, coarse);
    host_memcpy_to_dev(h, da, a, fine);
    for (int v = 0; v < s->cycles; v++) {
        halo_launch(h, "halo_smooth", da, db, n);
        halo_launch(h, "halo_smooth", db, da, n);
        halo_launch(h, "halo_restrict", da, dc, n);
        halo_launch(h, "halo_smooth", dc, dd, m);
        halo_launch(h, "halo_prolong", dd, da, n);
    }
    host_memcpy_from_dev(h, got, da, fine);

    for (int v = 0; v < s->cycles; v++)
        halo_ref_cycle(a, b, c, d, n);
    int rc = 0;
    for (int i = 0; i < n * n && rc == 0; i++)
        if (got[i] != a[i]) {
            snprintf(why, why_len, "halo: cell (%d,%d) after %d V-cycles is %d, expected %d", i % n,
                     i / n, s->cycles, got[i], a[i]);
            rc = 1;
        }
    host_free(h, da);
    host_free(h, db);
    host_free(h, dc);
    host_free(h, dd);
    free(a), free(b), free(c), free(d), free(got);
    return rc;
}

const struct workload wl_halo = {
    .name = "halo",
    .set = "mg",
    .desc = "stencil/multigrid: two-level V-cycles of 5 kernels, row bands, halo rows across GPMs",
    .ptx = wl_ptx_halo,
    .ptx_file = "workloads/halo/halo.ptx",
    .run = halo_run,
};
