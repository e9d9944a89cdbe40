/*
 * bh.cu - BH: Barnes-Hut octree build with CAS-locked child slots and
 * fence-published cells, bottom-up summarisation with flag waits, and a
 * force traversal.
 *
 * Stands for Barnes Hut of the Temporal Coherence study and the RCC thesis
 * (after Burtscher and Pingali's CUDA BH, GPU Computing Gems 2011); the TC
 * paper reports the tree-building kernel. bh_build: each thread inserts its
 * bodies from the root; an empty slot (-1) is claimed by CAS; a slot holding
 * a body is locked by CAS to -2, the thread allocates new cells from a shared
 * counter (bottom, counting down) until the two bodies separate, fences, then
 * stores the first new cell into the slot, which publishes and unlocks it.
 * Others spin on locked slots and descend through published cells (child
 * slots read with ld.acquire). bh_summarize: cells, in allocation order,
 * wait until every child cell's mass is set (mass < 0 = not yet), fence,
 * then compute mass and centre of mass, fence, and publish the mass (a
 * thread sweeps its cells repeatedly, skipping cells not ready yet).
 * bh_force: per body, a depth-first walk with the opening test
 * side^2 < theta^2 * dist^2 (read-only tree).
 * Variant nofence: no publish fences and relaxed slot loads.
 * Node numbering: bodies 0..nbodies-1, cells nbodies..nnodes-1, root
 * nnodes-1; child[(cell - nbodies) * 8 + octant].
 * INVARIANT: bh_summarize's grid is co-resident (it spins on other CTAs).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cuda/atomic>

typedef cuda::atomic_ref<int, cuda::thread_scope_device> bh_islot;
typedef cuda::atomic_ref<float, cuda::thread_scope_device> bh_fslot;

#define BH_STACK 192
enum { BH_BOTTOM, BH_ERROR };

__device__ int bh_octant(float x, float y, float z, float cx, float cy, float cz)
{
    return (x >= cx) | (y >= cy) << 1 | (z >= cz) << 2;
}

template <bool FENCE>
__device__ void bh_build_body(float *px, float *py, float *pz, float *mass, int *child, int *glob,
                              int nbodies, int nnodes, float rx, float ry, float rz, float radius)
{
    const int root = nnodes - 1;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nbodies; i += gridDim.x * blockDim.x) {
        const float x = px[i], y = py[i], z = pz[i];
        int n = root;
        float r = radius, cx = rx, cy = ry, cz = rz;
        int j = bh_octant(x, y, z, cx, cy, cz);
        bool done = false;
        while (!done) {
            int *slot = &child[(n - nbodies) * 8 + j];
            int ch = FENCE ? bh_islot(*slot).load(cuda::memory_order_acquire)
                           : bh_islot(*slot).load(cuda::memory_order_relaxed);
            if (ch >= nbodies) {            /* a published cell: descend */
                n = ch;
                r *= 0.5f;
                cx += (j & 1) ? r : -r;
                cy += (j & 2) ? r : -r;
                cz += (j & 4) ? r : -r;
                j = bh_octant(x, y, z, cx, cy, cz);
            } else if (ch == -1) {          /* empty: claim it */
                if (atomicCAS(slot, -1, i) == -1)
                    done = true;
            } else if (ch >= 0) {           /* a body: lock, split, publish */
                if (atomicCAS(slot, ch, -2) == ch) {
                    const float ox = px[ch], oy = py[ch], oz = pz[ch];
                    int patch = -1, cn = n, cj = j;
                    float cr = r, ccx = cx, ccy = cy, ccz = cz;
                    bool ok = true;
                    for (;;) {
                        int cell = atomicSub(&glob[BH_BOTTOM], 1) - 1;
                        if (cell < nbodies) {
                            atomicExch(&glob[BH_ERROR], 1);
                            ok = false;
                            break;
                        }
                        if (patch < 0)
                            patch = cell;
                        else
                            child[(cn - nbodies) * 8 + cj] = cell;
                        cr *= 0.5f;
                        ccx += (cj & 1) ? cr : -cr;
                        ccy += (cj & 2) ? cr : -cr;
                        ccz += (cj & 4) ? cr : -cr;
                        px[cell] = ccx, py[cell] = ccy, pz[cell] = ccz;
                        mass[cell] = -1.0f;
#pragma unroll 1
                        for (int k = 0; k < 8; k++)
                            child[(cell - nbodies) * 8 + k] = -1;
                        int jo = bh_octant(ox, oy, oz, ccx, ccy, ccz);
                        child[(cell - nbodies) * 8 + jo] = ch;
                        cn = cell;
                        cj = bh_octant(x, y, z, ccx, ccy, ccz);
                        if (cj != jo)
                            break;
                    }
                    if (ok) {
                        child[(cn - nbodies) * 8 + cj] = i;
                        if (FENCE)
                            __threadfence();    /* the new cells before the pointer */
                        bh_islot(*slot).store(patch, cuda::memory_order_relaxed);
                    } else {
                        bh_islot(*slot).store(ch, cuda::memory_order_relaxed);
                    }
                    done = true;
                }
            }
            /* ch == -2: locked by another thread; look again */
        }
    }
}

/* Passes over the thread's cells until all are summarised; a cell whose
 * child cells are not all published yet is skipped and retried next pass.
 * No lane ever spins on another lane of its own warp (the loop always
 * advances), so this also terminates on SIMT-stack hardware, where a lane
 * spinning in place would keep a ready lane of its warp from running. */
template <bool FENCE>
__device__ void bh_summarize_body(float *px, float *py, float *pz, float *mass, const int *child,
                                  const int *glob, int nbodies, int nnodes)
{
    const int bottom = glob[BH_BOTTOM];
    const int first = bottom + (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int stride = (int)(gridDim.x * blockDim.x);
    bool again = true;
    while (again) {
        again = false;
        for (int k = first; k < nnodes; k += stride) {
            if (bh_fslot(mass[k]).load(cuda::memory_order_relaxed) >= 0.0f)
                continue;                   /* done in an earlier pass */
            const int *c = &child[(k - nbodies) * 8];
            bool all = true;
#pragma unroll 1
            for (int o = 0; o < 8; o++) {
                int ch = c[o];
                if (ch >= nbodies && bh_fslot(mass[ch]).load(cuda::memory_order_relaxed) < 0.0f)
                    all = false;
            }
            if (!all) {
                again = true;
                continue;
            }
            if (FENCE)
                __threadfence();            /* acquire the children's summaries */
            float m = 0.0f, sx = 0.0f, sy = 0.0f, sz = 0.0f;
#pragma unroll 1
            for (int o = 0; o < 8; o++) {
                int ch = c[o];
                if (ch < 0)
                    continue;
                float cm = bh_fslot(mass[ch]).load(cuda::memory_order_relaxed);
                m += cm;
                sx += cm * px[ch];
                sy += cm * py[ch];
                sz += cm * pz[ch];
            }
            px[k] = sx / m, py[k] = sy / m, pz[k] = sz / m;
            if (FENCE)
                __threadfence();            /* the centre before the mass that flags it */
            bh_fslot(mass[k]).store(m, cuda::memory_order_relaxed);
        }
    }
}

/* side0 = 2 * root radius; the side of a cell at depth d is side0 / 2^d. */
__device__ void bh_force_body(const float *px, const float *py, const float *pz,
                              const float *mass, const int *child, int *glob, float *ax,
                              float *ay, float *az, int nbodies, int nnodes, float side0,
                              float theta2, float eps2)
{
    int stack[BH_STACK];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nbodies; i += gridDim.x * blockDim.x) {
        const float x = px[i], y = py[i], z = pz[i];
        float fx = 0.0f, fy = 0.0f, fz = 0.0f;
        int sp = 0;
        stack[sp++] = (nnodes - 1) << 5;
        while (sp > 0) {
            int e = stack[--sp], n = e >> 5, d = e & 31;
            float dx = px[n] - x, dy = py[n] - y, dz = pz[n] - z;
            float d2 = dx * dx + dy * dy + dz * dz;
            bool far = n < nbodies;
            if (!far) {
                float side = side0 / (float)(1 << d);
                far = side * side < theta2 * d2;
            }
            if (far) {
                if (n != i) {
                    float inv = rsqrtf(d2 + eps2);
                    float f = mass[n] * inv * inv * inv;
                    fx += dx * f, fy += dy * f, fz += dz * f;
                }
            } else {
    #pragma unroll 1
            for (int o = 0; o < 8; o++) {
                    int ch = child[(n - nbodies) * 8 + o];
                    if (ch < 0)
                        continue;
                    if (sp == BH_STACK || d == 30) {
                        atomicExch(&glob[BH_ERROR], 2);
                        continue;
                    }
                    stack[sp++] = ch << 5 | (d + 1);
                }
            }
        }
        ax[i] = fx, ay[i] = fy, az[i] = fz;
    }
}

extern "C" __global__ void bh_build(float *px, float *py, float *pz, float *mass, int *child,
                                    int *glob, int nbodies, int nnodes, float rx, float ry,
                                    float rz, float radius)
{
    bh_build_body<true>(px, py, pz, mass, child, glob, nbodies, nnodes, rx, ry, rz, radius);
}

extern "C" __global__ void bh_build_nofence(float *px, float *py, float *pz, float *mass,
                                            int *child, int *glob, int nbodies, int nnodes,
                                            float rx, float ry, float rz, float radius)
{
    bh_build_body<false>(px, py, pz, mass, child, glob, nbodies, nnodes, rx, ry, rz, radius);
}

extern "C" __global__ void bh_summarize(float *px, float *py, float *pz, float *mass,
                                        const int *child, const int *glob, int nbodies,
                                        int nnodes)
{
    bh_summarize_body<true>(px, py, pz, mass, child, glob, nbodies, nnodes);
}

extern "C" __global__ void bh_summarize_nofence(float *px, float *py, float *pz, float *mass,
                                                const int *child, const int *glob, int nbodies,
                                                int nnodes)
{
    bh_summarize_body<false>(px, py, pz, mass, child, glob, nbodies, nnodes);
}

extern "C" __global__ void bh_force(const float *px, const float *py, const float *pz,
                                    const float *mass, const int *child, int *glob, float *ax,
                                    float *ay, float *az, int nbodies, int nnodes, float side0,
                                    float theta2, float eps2)
{
    bh_force_body(px, py, pz, mass, child, glob, ax, ay, az, nbodies, nnodes, side0, theta2,
                  eps2);
}
