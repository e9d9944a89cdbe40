// cpugpu.cu - launch-spec example: a CPU kernel and a GPU kernel that run at
// the same time and synchronise through memory (spec 003's heterogeneous
// machine; docs/cpu.md). CPU thread t (one per CPU core) fills chunk t of
// `data` and raises ready[t] with a release store; GPU CTA t waits for it
// with acquire loads, doubles the chunk into `out` and raises done[t]; the
// CPU thread waits for that and sums its chunk of `out` into sum[t]. Neither
// kernel can finish unless both run at once.
__device__ static void store_release(int *p, int v)
{
    asm volatile("st.release.sys.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ static int load_acquire(const int *p)
{
    int v;
    asm volatile("ld.acquire.sys.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

extern "C" __global__ void cpu_side(int *data, int *ready, const int *out, const int *done,
                                    int *sum, unsigned n)
{
    unsigned t = blockIdx.x; /* one thread per CPU core */
    for (unsigned i = 0; i < n; i++)
        data[t * n + i] = 3 * (t * n + i) + 1;
    store_release(&ready[t], 1);
    while (load_acquire(&done[t]) == 0)
        ;
    int s = 0;
    for (unsigned i = 0; i < n; i++)
        s += out[t * n + i];
    sum[t] = s;
}

extern "C" __global__ void gpu_side(const int *data, const int *ready, int *out, int *done,
                                    unsigned n)
{
    unsigned t = blockIdx.x;
    if (threadIdx.x == 0)
        while (load_acquire(&ready[t]) == 0)
            ;
    __syncthreads();
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
        out[t * n + i] = 2 * data[t * n + i];
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence_system();
        store_release(&done[t], 1);
    }
}
