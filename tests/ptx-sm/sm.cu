// sm.cu - kernels for the SM timing-model tests (tests/unit/21N-sm-*.c).
// Each kernel isolates one behaviour: coalescing, release/acquire ordering,
// CTA placement, occupancy, scheduling order, barriers, atomics.
// Regenerate: nvcc -ptx -arch=sm_75 -O3 -o sm.ptx sm.cu

// out[i] = in[i] + 1: one line per warp for loads and for stores.
extern "C" __global__ void add1(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1;
}

// out[i] = in[32 * i]: lanes 128 bytes apart, one line per lane.
extern "C" __global__ void stride32(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[32 * i];
}

// Lane 0 stores data[0..3] (weak, four lines), then flag with st.release.
extern "C" __global__ void release_store(int *data, int *flag)
{
    if (threadIdx.x == 0) {
        data[0] = 1;
        data[32] = 2;
        data[64] = 3;
        data[96] = 4;
        asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(1) : "memory");
    }
}

// Lane 0 loads flag with ld.acquire, then data weakly; out = flag + data.
extern "C" __global__ void acquire_load(const int *flag, const int *data, int *out)
{
    if (threadIdx.x == 0) {
        int f;
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(f) : "l"(flag) : "memory");
        out[0] = f + data[0];
    }
}

// Thread 0 of each CTA records the SM it runs on.
extern "C" __global__ void where(int *out)
{
    if (threadIdx.x == 0) {
        unsigned smid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        out[blockIdx.x] = (int)smid;
    }
}

// 20 KB of shared memory per CTA: at most 2 CTAs fit in 48 KB.
extern "C" __global__ void bigshmem(int *out)
{
    __shared__ int buf[5120];
    int t = threadIdx.x;
    buf[t] = t + (int)blockIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = buf[(t + 1) % blockDim.x];
}

// Independent integer work per thread, no memory until the end.
extern "C" __global__ void alu(int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int a = t, b = 1;
    for (int k = 0; k < n; k++) {
        a = a * 3 + b;
        b ^= a;
    }
    out[t] = a + b;
}

// Warp 0 works longer before the barrier; everyone then reads what warp 0
// wrote to shared memory.
extern "C" __global__ void barrier(int *out, int n)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    if (t < 32) {
        int a = t;
        for (int k = 0; k < n; k++)
            a = a * 5 + 1;
        s[t] = a;
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[t % 32];
}

// Every thread adds 1 to a counter and records the old value.
extern "C" __global__ void count(int *counter, int *old)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    old[i] = atomicAdd(counter, 1);
}

// Lane 0 stores to two lines, then reads its second store back whole and a
// word of which it wrote one byte (volatile: the compiler keeps every access).
// Under TSO with a store buffer the second store waits in the buffer, the
// first load is served from it and the second waits for it to drain.
extern "C" __global__ void store_forward(volatile int *a, int *out)
{
    if (threadIdx.x == 0) {
        a[0] = 7;
        a[32] = 8;
        ((volatile char *)a)[256] = 5;
        out[0] = a[32];
        out[1] = a[64];
    }
}

// Each lane stores to its own line, then to shared memory, fences, and reads
// another lane's shared word after a barrier. Under TSO and SC the shared
// store and the barrier wait for the warp's global stores; under SC the fence
// is not sent.
extern "C" __global__ void shared_after_global(int *data, int *out)
{
    __shared__ int s[32];
    data[threadIdx.x * 32] = threadIdx.x;
    s[threadIdx.x] = threadIdx.x + 1;
    __threadfence();
    __syncthreads();
    out[threadIdx.x] = s[31 - threadIdx.x];
}
