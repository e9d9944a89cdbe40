// lineinfo_loop.cu - the kernel of tests/cli/trace.sh, built with -lineinfo
// (make ptx): each thread sums `trips` words of `a`, one per 64-word row, so
// the load runs trips times per warp and the store once: counts a test can
// compute by hand.
extern "C" __global__ void rowsum(const unsigned *a, unsigned *out, int trips)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = 0;
#pragma unroll 1
    for (int k = 0; k < trips; k++)
        s += a[k * 64 + tid];
    out[tid] = s;
}
