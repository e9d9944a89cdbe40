// vec_cpy.cu - spec 000's vec-cpy microbenchmark: dst[i] = src[i], one
// element per thread. Low compute to memory ratio, and its stores fall in
// many bands at once (the paper's pathological case for STC). src and dst
// are page-aligned separate allocations, so src[i] and dst[i] share their
// page offset.
extern "C" __global__ void vec_cpy(int n, const float *src, float *dst)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[i];
}
