/*
 * heartwall.c - host driver of the heartwall workload (order set, spec 001
 * §4): the tracking step of Rodinia's heartwall reduced to its memory
 * pattern. A sequence of frames (bytes, width x height) in which a set of
 * points is tracked: per frame one launch of track, one thread block per
 * point and one thread per displacement in a (2r+1)^2 search window, each
 * summing absolute differences between the point's template (tsize^2
 * bytes) and the frame, row by row, into its entry of the block's
 * partial-result array in global memory; thread 0 moves the point to the
 * best displacement. Frames are random bytes; each point's template is cut
 * from the next frame at a known offset, so the search has a clear answer.
 * Check: every point's position after every frame, and the last frame's sums,
 * equal the CPU's (integers: exact).
 * Sizes (frames, points, template, radius, frame side): tiny 2, 8, 8, 3, 64;
 * quick 4, 32, 12, 4, 256; small 4, 64, 16, 4, 384; paper 8, 51, 16, 6, 512
 * (Rodinia tracks 51 points over 104 frames of 609 x 590; scaled).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_heartwall[];

struct hw_size {
    uint32_t frames, points, tsize, radius, side;
};

static int heartwall_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const struct hw_size sizes[WL_NSIZES] = {
        {2, 8, 8, 3, 64}, {4, 32, 12, 4, 256}, {4, 64, 16, 4, 384}, {8, 51, 16, 6, 512}};
    const struct hw_size *s = &sizes[p->size];
    uint32_t side = s->side, ts = s->tsize, rad = s->radius, np = s->points;
    uint32_t win = 2 * rad + 1, nd = win * win, threads = (nd + 31) / 32 * 32;
    size_t fbytes = (size_t)side * side;
    uint8_t *frame = malloc(fbytes), *templ = malloc((size_t)np * ts * ts);
    int32_t *px = malloc(np * sizeof(int32_t)), *py = malloc(np * sizeof(int32_t)),
            *gx = malloc(np * sizeof(int32_t)), *gy = malloc(np * sizeof(int32_t));
    uint32_t *sad = malloc((size_t)np * nd * sizeof(uint32_t)),
             *got = malloc((size_t)np * nd * sizeof(uint32_t));
    panic_if(!frame || !templ || !px || !py || !gx || !gy || !sad || !got, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0x48575254); /* "HWRT" */
    /* points start where every displacement of every frame stays inside */
    uint32_t margin = rad * (s->frames + 1), span = side - 2 * margin - ts;
    for (uint32_t i = 0; i < np; i++) {
        px[i] = (int32_t)(margin + rng_below(&r, span));
        py[i] = (int32_t)(margin + rng_below(&r, span));
    }

    host_load_ptx(h, wl_ptx_heartwall, "workloads/heartwall/heartwall.ptx");
    addr_t dframe = host_malloc(h, fbytes), dtempl = host_malloc(h, (size_t)np * ts * ts),
           dpx = host_malloc(h, np * sizeof(int32_t)), dpy = host_malloc(h, np * sizeof(int32_t)),
           dsad = host_malloc(h, (size_t)np * nd * sizeof(uint32_t));
    host_memcpy_to_dev(h, dpx, px, np * sizeof(int32_t));
    host_memcpy_to_dev(h, dpy, py, np * sizeof(int32_t));
    int rc = 0;
    for (uint32_t f = 0; f < s->frames && !rc; f++) {
        for (size_t k = 0; k < fbytes; k++)
            frame[k] = (uint8_t)rng_below(&r, 256);
        /* the template: the frame around the point's next position, with noise */
        for (uint32_t i = 0; i < np; i++) {
            int32_t mx = (int32_t)rng_below(&r, win) - (int32_t)rad,
                    my = (int32_t)rng_below(&r, win) - (int32_t)rad;
            for (uint32_t y = 0; y < ts; y++)
                for (uint32_t x = 0; x < ts; x++) {
                    int v = frame[(size_t)(py[i] + my + (int32_t)y) * side +
                                  (size_t)(px[i] + mx + (int32_t)x)] +
                            (int)rng_below(&r, 9) - 4;
                    templ[((size_t)i * ts + y) * ts + x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
                }
        }
        host_memcpy_to_dev(h, dframe, frame, fbytes);
        host_memcpy_to_dev(h, dtempl, templ, (size_t)np * ts * ts);
        struct karg args[] = {KARG_PTR(dframe), KARG_I32(side), KARG_I32(side),
                              KARG_PTR(dtempl), KARG_I32(ts),   KARG_I32(rad),
                              KARG_PTR(dpx),    KARG_PTR(dpy),  KARG_PTR(dsad)};
        host_launch(h, "track", (struct dim3){np, 1, 1}, (struct dim3){threads, 1, 1}, 0, args,
                    ARRAY_LEN(args));
        /* the CPU's step */
        for (uint32_t i = 0; i < np; i++) {
            uint32_t best = 0;
            for (uint32_t d = 0; d < nd; d++) {
                int32_t dx = (int32_t)(d % win) - (int32_t)rad,
                        dy = (int32_t)(d / win) - (int32_t)rad;
                uint32_t sum = 0;
                for (uint32_t y = 0; y < ts; y++)
                    for (uint32_t x = 0; x < ts; x++) {
                        int fv = frame[(size_t)(py[i] + dy + (int32_t)y) * side +
                                       (size_t)(px[i] + dx + (int32_t)x)];
                        int tv = templ[((size_t)i * ts + y) * ts + x];
                        sum += (uint32_t)(fv > tv ? fv - tv : tv - fv);
                    }
                sad[(size_t)i * nd + d] = sum;
                if (sum < sad[(size_t)i * nd + best])
                    best = d;
            }
            px[i] += (int32_t)(best % win) - (int32_t)rad;
            py[i] += (int32_t)(best / win) - (int32_t)rad;
        }
        host_memcpy_from_dev(h, gx, dpx, np * sizeof(int32_t));
        host_memcpy_from_dev(h, gy, dpy, np * sizeof(int32_t));
        for (uint32_t i = 0; i < np; i++)
            if (gx[i] != px[i] || gy[i] != py[i]) {
                snprintf(why, why_len, "frame %u, point %u: expected (%d, %d), got (%d, %d)", f, i,
                         px[i], py[i], gx[i], gy[i]);
                rc = 1;
                break;
            }
    }
    if (!rc) {
        host_memcpy_from_dev(h, got, dsad, (size_t)np * nd * sizeof(uint32_t));
        if (memcmp(got, sad, (size_t)np * nd * sizeof(uint32_t))) {
            snprintf(why, why_len, "the last frame's sums of absolute differences differ");
            rc = 1;
        }
    }
    host_free(h, dframe);
    host_free(h, dtempl);
    host_free(h, dpx);
    host_free(h, dpy);
    host_free(h, dsad);
    free(frame);
    free(templ);
    free(px);
    free(py);
    free(gx);
    free(gy);
    free(sad);
    free(got);
    return rc;
}

const struct workload wl_heartwall = {
    .name = "heartwall",
    .set = "order",
    .desc = "template tracking: per point, sums of absolute differences over a search window "
            "accumulated in memory (Rodinia heartwall's pattern; spec 001)",
    .ptx = wl_ptx_heartwall,
    .ptx_file = "workloads/heartwall/heartwall.ptx",
    .run = heartwall_run,
};
