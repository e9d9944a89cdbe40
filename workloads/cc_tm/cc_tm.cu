// cc_tm.cu - CC of the TM benchmarks: push-relabel on an image grid, one
// push or relabel per critical section (spec 004a Table 4.3, CudaCuts; GETM
// set). The TC study's cc (workloads/cc) runs push-relabel with atomics and
// global relabels; this version makes each pixel's step a critical section.
//
// Pixel u holds its excess e[u], height h[u], the residual capacity to the
// sink t[u] and to each of its 4 neighbours cap[4u + d] (d: 0 left, 1 right,
// 2 up, 3 down; cap[4v + (d ^ 1)] is the reverse edge). One round (one
// launch) visits every pixel with excess once. A step: push what it can to
// the sink; then, with excess left, push along the first admissible edge
// (residual capacity and h[u] == h[v] + 1), else relabel to 1 + the lowest
// height among residual neighbours (CC_HMAX with none: the pixel stops).
//
//   cc_tx    the step is one transaction: it reads the pixel, its four
//            neighbours' heights and capacities, and writes the pixel and
//            the neighbour it pushes to.
//   cc_lock  the twin: the step is planned from plain reads, then the pixel
//            and the chosen neighbour are locked in index order (try-locks in
//            a loop on a volatile flag, as atm.cu), the plan is checked again
//            under the locks and carried out (heights only grow, so a
//            relabel from heights read without their locks stays valid).
#include "../../include/gpucoh_tx.cuh"

#define CC_HMAX 1000000

__device__ int cc_neighbour(int u, int d, int w)
{
    return d == 0 ? u - 1 : d == 1 ? u + 1 : d == 2 ? u - w : u + w;
}

extern "C" __global__ void cc_tx(int *ge, int *gh, int *gt, int *gcap, int w, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int u = blockIdx.x * blockDim.x + threadIdx.x; u < n; u += stride) {
        if (((volatile int *)ge)[u] == 0 || ((volatile int *)gh)[u] >= CC_HMAX)
            continue;
        gpucoh_tx_begin();
        int e = ge[u], h = gh[u], t = gt[u];
        int sink = e < t ? e : t;
        e -= sink;
        int lowest = CC_HMAX - 1, to = -1, d, v = 0;
        for (d = 0; e > 0 && d < 4; d++) {
            int c = gcap[4 * u + d];
            if (c == 0)
                continue;
            v = cc_neighbour(u, d, w);
            int hv = gh[v];
            if (h == hv + 1) {
                to = d;
                break;
            }
            lowest = hv < lowest ? hv : lowest;
        }
        if (sink) {
            gt[u] = t - sink;
            ge[u] = e;
        }
        if (to >= 0) {
            int c = gcap[4 * u + to], push = e < c ? e : c;
            ge[u] = e - push;
            gcap[4 * u + to] = c - push;
            ge[v] += push;
            gcap[4 * v + (to ^ 1)] += push;
        } else if (e > 0) {
            gh[u] = lowest + 1;
        }
        gpucoh_tx_commit();
    }
}

// Both locks in index order (u == v: one); true when held.
__device__ bool cc_lock2(int *locks, int u, int v)
{
    int outer = u > v ? u : v, inner = u > v ? v : u;
    if (atomicCAS(&locks[outer], 0, 1) != 0)
        return false;
    if (inner != outer && atomicCAS(&locks[inner], 0, 1) != 0) {
        atomicExch(&locks[outer], 0);
        return false;
    }
    __threadfence();
    return true;
}

extern "C" __global__ void cc_lock(int *ge, int *gh, int *gt, int *gcap, int *locks, int w,
                                   int n)
{
    int stride = gridDim.x * blockDim.x;
    volatile int *ve = ge, *vh = gh, *vt = gt, *vc = gcap;
    for (int u = blockIdx.x * blockDim.x + threadIdx.x; u < n; u += stride) {
        volatile bool done = false; // volatile: nvcc may not turn the retry into an inner spin
        while (!done) {
            if (ve[u] == 0 || vh[u] >= CC_HMAX)
                break;
            // the plan, from plain reads: the neighbour to push to, or none
            int h = vh[u], to = -1, v = u;
            for (int d = 0; d < 4; d++)
                if (vc[4 * u + d] && h == vh[cc_neighbour(u, d, w)] + 1) {
                    to = d;
                    v = cc_neighbour(u, d, w);
                    break;
                }
            if (!cc_lock2(locks, u, v))
                continue;
            int e = ve[u], t = vt[u], sink = e < t ? e : t;
            e -= sink;
            vt[u] = t - sink;
            ve[u] = e;
            h = vh[u];
            int c = to >= 0 ? vc[4 * u + to] : 0;
            if (e > 0 && to >= 0 && c > 0 && h == vh[v] + 1) { // the plan still holds
                int push = e < c ? e : c;
                ve[u] = e - push;
                vc[4 * u + to] = c - push;
                ve[v] = ve[v] + push;
                vc[4 * v + (to ^ 1)] = vc[4 * v + (to ^ 1)] + push;
                done = true;
            } else if (e > 0 && to < 0) { // relabel (u's capacities are stable under its lock)
                int lowest = CC_HMAX - 1, admissible = 0;
                for (int d = 0; d < 4; d++)
                    if (vc[4 * u + d]) {
                        int hv = vh[cc_neighbour(u, d, w)];
                        admissible |= h == hv + 1;
                        lowest = hv < lowest ? hv : lowest;
                    }
                if (!admissible) {
                    vh[u] = lowest + 1;
                    done = true;
                }
            } else if (e == 0) {
                done = true;
            }
            __threadfence();
            atomicExch(&locks[u], 0);
            if (v != u)
                atomicExch(&locks[v], 0);
        }
    }
}
