// cl_tm.cu - CL and CLto: cloth physics with one critical section per edge
// (spec 004a Table 4.3, Cloth Physics; GETM set). The TC study's cloth
// solver (workloads/cl) colours its constraints so that no two of a batch
// share a particle; the TM benchmark does not: every edge of the mesh is
// solved in parallel, and an edge's update of its two vertex records is the
// critical section, so neighbouring edges conflict.
//
// A vertex record is {x, y, n, pad}: the position in fixed point (1/256 of
// the mesh spacing) and how many edge updates it received. An edge update
// reads both records, moves them towards the edge's rest length by equal and
// opposite integer amounts, and adds one to both counts: the sums of x and y
// never change, and every count ends at the vertex's degree times the
// passes, in every serial order.
//
//   cl_tx     CL: the transaction reads the edge and both records, computes
//             the correction and writes both records.
//   clto_tx   CLto, the transaction-optimised version (INFERRED: the thesis
//             does not say how CLto differs): the edge and a snapshot of the
//             two positions are read and the correction computed outside;
//             the transaction only adds it to both records.
//   cl_lock, clto_lock: the fine-grained-lock twins, the two vertices'
//             locks taken in index order with try-locks in a loop on a
//             volatile per-thread flag (no SIMT deadlock; see atm.cu).
#include "../../include/gpucoh_tx.cuh"

struct cl_vertex {
    int x, y, n, pad;
};

// The correction that moves u and v towards rest (u gets +c, v gets -c).
__device__ void cl_correct(int xu, int yu, int xv, int yv, int rest, int *cx, int *cy)
{
    float dx = (float)(xv - xu), dy = (float)(yv - yu);
    float len = sqrtf(dx * dx + dy * dy);
    float k = len > 0.5f ? 0.25f * (len - (float)rest) / len : 0.0f;
    *cx = (int)(dx * k);
    *cy = (int)(dy * k);
}

// Add the correction: +c to u, -c to w, one update each. V is cl_vertex
// (transactional accesses) or volatile cl_vertex (under the locks).
template <typename V> __device__ void cl_apply(V *v, int u, int w, int cx, int cy)
{
    v[u].x = v[u].x + cx;
    v[u].y = v[u].y + cy;
    v[u].n = v[u].n + 1;
    v[w].x = v[w].x - cx;
    v[w].y = v[w].y - cy;
    v[w].n = v[w].n + 1;
}

extern "C" __global__ void cl_tx(cl_vertex *v, const int4 *edges, int nedges, int passes)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (int e = t; e < nedges; e += stride) {
            gpucoh_tx_begin();
            int4 ed = edges[e];
            cl_vertex a = v[ed.x], b = v[ed.y];
            int cx, cy;
            cl_correct(a.x, a.y, b.x, b.y, ed.z, &cx, &cy);
            v[ed.x].x = a.x + cx;
            v[ed.x].y = a.y + cy;
            v[ed.x].n = a.n + 1;
            v[ed.y].x = b.x - cx;
            v[ed.y].y = b.y - cy;
            v[ed.y].n = b.n + 1;
            gpucoh_tx_commit();
        }
}

extern "C" __global__ void clto_tx(cl_vertex *v, const int4 *edges, int nedges, int passes)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (int e = t; e < nedges; e += stride) {
            int4 ed = edges[e];
            volatile cl_vertex *vv = v;
            int cx, cy;
            cl_correct(vv[ed.x].x, vv[ed.x].y, vv[ed.y].x, vv[ed.y].y, ed.z, &cx, &cy);
            gpucoh_tx_begin();
            cl_apply(v, ed.x, ed.y, cx, cy);
            gpucoh_tx_commit();
        }
}

// Both vertices' locks, in index order; true when both are held.
__device__ bool cl_lock2(int *locks, int u, int w)
{
    int outer = u > w ? u : w, inner = u > w ? w : u;
    if (atomicCAS(&locks[outer], 0, 1) != 0)
        return false;
    if (atomicCAS(&locks[inner], 0, 1) != 0) {
        atomicExch(&locks[outer], 0);
        return false;
    }
    __threadfence();
    return true;
}

__device__ void cl_unlock2(int *locks, int u, int w)
{
    __threadfence();
    atomicExch(&locks[u], 0);
    atomicExch(&locks[w], 0);
}

extern "C" __global__ void cl_lock(cl_vertex *v, const int4 *edges, int *locks, int nedges,
                                   int passes)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (int e = t; e < nedges; e += stride) {
            int4 ed = edges[e];
            volatile bool done = false; // volatile: nvcc may not turn the retry into an inner spin
            while (!done) {
                if (cl_lock2(locks, ed.x, ed.y)) {
                    volatile cl_vertex *vv = v;
                    int ax = vv[ed.x].x, ay = vv[ed.x].y, bx = vv[ed.y].x, by = vv[ed.y].y;
                    int cx, cy;
                    cl_correct(ax, ay, bx, by, ed.z, &cx, &cy);
                    vv[ed.x].x = ax + cx;
                    vv[ed.x].y = ay + cy;
                    vv[ed.x].n = vv[ed.x].n + 1;
                    vv[ed.y].x = bx - cx;
                    vv[ed.y].y = by - cy;
                    vv[ed.y].n = vv[ed.y].n + 1;
                    cl_unlock2(locks, ed.x, ed.y);
                    done = true;
                }
            }
        }
}

extern "C" __global__ void clto_lock(cl_vertex *v, const int4 *edges, int *locks, int nedges,
                                     int passes)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (int e = t; e < nedges; e += stride) {
            int4 ed = edges[e];
            volatile cl_vertex *vv = v;
            int cx, cy;
            cl_correct(vv[ed.x].x, vv[ed.x].y, vv[ed.y].x, vv[ed.y].y, ed.z, &cx, &cy);
            volatile bool done = false;
            while (!done) {
                if (cl_lock2(locks, ed.x, ed.y)) {
                    cl_apply(vv, ed.x, ed.y, cx, cy);
                    cl_unlock2(locks, ed.x, ed.y);
                    done = true;
                }
            }
        }
}
