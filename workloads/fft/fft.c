/*
 * fft.c - host driver of the fft workload (set stc): an n-point complex FFT
 * as log2(n) radix-2 stage kernels, in place over bit-reversed input, with a
 * read-only twiddle table. 256-thread CTAs.
 *
 * Stands for spec 000's fft (probably HCC's HCFFT; the largest BSQ
 * occupancy, 102 entries): every stage writes the whole array. The paper's
 * size is not given. Sizes: tiny 1024 points, quick 65536, small 262144,
 * paper 1 M; the stages run `reps` times over fresh input (tiny 1, quick 2,
 * small 2, paper 4). Check: the CPU runs the same stages (floats, 1e-3 of
 * the largest magnitude).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_fft[];

#define FFT_THREADS 256u

static uint32_t bitrev(uint32_t x, unsigned bits)
{
    uint32_t r = 0;
    for (unsigned b = 0; b < bits; b++)
        r |= ((x >> b) & 1u) << (bits - 1 - b);
    return r;
}

static int fft_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t points[WL_NSIZES] = {1024, 65536, 262144, 1u << 20};
    static const uint32_t reps[WL_NSIZES] = {1, 2, 2, 4};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = points[p->size];
    unsigned bits = 0;
    while ((1u << bits) < n)
        bits++;
    float *re = malloc(n * 4), *im = malloc(n * 4), *twr = malloc(n / 2 * 4);
    float *twi = malloc(n / 2 * 4), *ore = malloc(n * 4), *oim = malloc(n * 4);
    panic_if(!re || !im || !twr || !twi || !ore || !oim, "out of memory");
    for (uint32_t k = 0; k < n / 2; k++) {
        double a = -2.0 * M_PI * k / n;
        twr[k] = (float)cos(a);
        twi[k] = (float)sin(a);
    }
    struct rng r;
    rng_seed(&r, p->seed, 0);
    host_load_ptx(h, wl_ptx_fft, "workloads/fft/fft.ptx");
    addr_t dtwr = host_malloc(h, n / 2 * 4), dtwi = host_malloc(h, n / 2 * 4);
    addr_t dre = host_malloc(h, n * 4), dim = host_malloc(h, n * 4);
    host_memcpy_to_dev(h, dtwr, twr, n / 2 * 4);
    host_memcpy_to_dev(h, dtwi, twi, n / 2 * 4);
    int rc = 0;
    for (uint32_t rep = 0; rep < reps[p->size] && !rc; rep++) {
        for (uint32_t i = 0; i < n; i++) { /* input, stored bit-reversed */
            uint32_t j = bitrev(i, bits);
            re[j] = (float)rng_below(&r, 1024) / 512.0f - 1.0f;
            im[j] = (float)rng_below(&r, 1024) / 512.0f - 1.0f;
        }
        host_memcpy_to_dev(h, dre, re, n * 4);
        host_memcpy_to_dev(h, dim, im, n * 4);
        for (uint32_t m = 1; m < n; m *= 2) {
            struct karg a[] = {KARG_I32(n),    KARG_I32(m),   KARG_PTR(dtwr),
                               KARG_PTR(dtwi), KARG_PTR(dre), KARG_PTR(dim)};
            host_launch(h, "fft_stage", DIM1((n / 2 + FFT_THREADS - 1) / FFT_THREADS),
                        DIM1(FFT_THREADS), 0, a, ARRAY_LEN(a));
            for (uint32_t t = 0; t < n / 2; t++) { /* the same stage on the CPU */
                uint32_t j = t % m, i1 = (t / m) * 2 * m + j, i2 = i1 + m, k = j * (n / (2 * m));
                float br = re[i2] * twr[k] - im[i2] * twi[k],
                      bi = re[i2] * twi[k] + im[i2] * twr[k];
                float ar = re[i1], ai = im[i1];
                re[i1] = ar + br, im[i1] = ai + bi, re[i2] = ar - br, im[i2] = ai - bi;
            }
        }
        host_memcpy_from_dev(h, ore, dre, n * 4);
        host_memcpy_from_dev(h, oim, dim, n * 4);
        float big = 1.0f;
        for (uint32_t i = 0; i < n; i++)
            big = fmaxf(big, fmaxf(fabsf(re[i]), fabsf(im[i])));
        for (uint32_t i = 0; i < n && !rc; i++)
            if (fabsf(ore[i] - re[i]) > 1e-3f * big || fabsf(oim[i] - im[i]) > 1e-3f * big) {
                snprintf(why, why_len, "X[%u]: expected %.6g%+.6gi, got %.6g%+.6gi", i,
                         (double)re[i], (double)im[i], (double)ore[i], (double)oim[i]);
                rc = 1;
            }
    }
    host_free(h, dtwr), host_free(h, dtwi), host_free(h, dre), host_free(h, dim);
    free(re), free(im), free(twr), free(twi), free(ore), free(oim);
    return rc;
}

const struct workload wl_fft = {
    .name = "fft",
    .set = "stc",
    .desc = "radix-2 FFT, one in-place stage kernel each, every stage writes the whole array "
            "(spec 000)",
    .ptx = wl_ptx_fft,
    .ptx_file = "workloads/fft/fft.ptx",
    .run = fft_run,
};
