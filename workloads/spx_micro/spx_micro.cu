// spx_micro.cu - the microbenchmarks of spec 003 §4 (Alsop et al., TACO
// 2022, §5.1, Fig. 2), one kernel each. The paper runs their "CPU" phases
// on 16 CPU cores and their "GPU" phases on 16 GPU CUs; gpucoh has no CPU
// cores yet, so the first half of the CTAs plays the CPU cores and the
// second half the GPU CUs, each CTA on an SM of its own (16 CTAs on 16
// SMs: CTA i runs on SM i). The phases are separated by a grid barrier
// (a release and an acquire at gpu scope), not by kernel boundaries, so
// that what an SM owns survives from one phase to the next as it does
// between the paper's phases. Every access pattern follows the spec's
// synthetic re-creation (§4.1-4.4); "sparse" is one word per 64-byte line.
//
// The CTAs must all be resident at once (the barrier spins): the host
// launches at most as many as the machine holds.

// A grid barrier: thread 0 of each CTA arrives on `count`; the last one
// starts the next generation. __threadfence is fence.sc.gpu: a release
// before arriving and an acquire after leaving.
__device__ void grid_sync(unsigned *count, volatile unsigned *gen, unsigned n)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned g = *gen;
        __threadfence();
        if (atomicAdd(count, 1u) == n - 1) {
            *count = 0;
            __threadfence();
            atomicExch((unsigned *)gen, g + 1);
        } else {
            while (*gen == g)
                ;
        }
        __threadfence();
    }
    __syncthreads();
}

// FlexV/S (§4.1): "CPU" c densely reads all of A (sync-separated reuse:
// the same data every phase) and partition (c + it) % half of B (no
// reuse: another partition each phase), and writes a checksum per thread;
// "GPU" g sparsely writes its slice of A (one word per line) and densely
// reads and writes its partition of B (the same one every phase).
extern "C" __global__ void flexvs(unsigned *A, unsigned *B, unsigned *out, unsigned *bar,
                                  int P, int iters)
{
    unsigned half = gridDim.x / 2, c = blockIdx.x;
    for (int it = 0; it < iters; it++) {
        if (c < half) {
            unsigned sum = 0;
            for (unsigned k = threadIdx.x; k < half * P; k += blockDim.x)
                sum += A[k];
            unsigned bp = (c + it) % half;
            for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
                sum += B[bp * P + k];
            out[(it * gridDim.x + c) * blockDim.x + threadIdx.x] = sum;
        }
        grid_sync(bar, bar + 32, gridDim.x);
        if (c >= half) {
            unsigned g = c - half;
            for (unsigned j = threadIdx.x; j < (unsigned)P / 16; j += blockDim.x)
                A[g * P + j * 16 + (it + g) % 16] = it * 1000u + g;
            for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
                B[g * P + k] += 1u;
        }
        grid_sync(bar, bar + 32, gridDim.x);
    }
}

// FlexO/WT (§4.2): "CPU" c densely reads and writes its partition of A
// (the same every phase) and sparsely writes partition (c + it) % half of
// B; "GPU" g densely reads and writes its partition of B and sparsely
// writes partition (g + it) % half of A.
extern "C" __global__ void flexowt(unsigned *A, unsigned *B, unsigned *bar, int P, int iters)
{
    unsigned half = gridDim.x / 2, c = blockIdx.x;
    for (int it = 0; it < iters; it++) {
        if (c < half) {
            for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
                A[c * P + k] += 1u;
            unsigned bp = (c + it) % half;
            for (unsigned j = threadIdx.x; j < (unsigned)P / 16; j += blockDim.x)
                B[bp * P + j * 16 + it % 16] = 7u * it + c;
        }
        grid_sync(bar, bar + 32, gridDim.x);
        if (c >= half) {
            unsigned g = c - half;
            for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
                B[g * P + k] += 1u;
            unsigned ap = (g + it) % half;
            for (unsigned j = threadIdx.x; j < (unsigned)P / 16; j += blockDim.x)
                A[ap * P + j * 16 + it % 16] = 5u * it + g;
        }
        grid_sync(bar, bar + 32, gridDim.x);
    }
}

// FlexOa/WTa (§4.3; GPU only in the paper too): every CTA atomically adds
// 1 to every word of its partition and, concurrently with that partition's
// owner, to one word per line of partition (i + 1 + it) % n.
extern "C" __global__ void flexoawta(unsigned *A, unsigned *bar, int P, int iters)
{
    unsigned n = gridDim.x, i = blockIdx.x;
    for (int it = 0; it < iters; it++) {
        for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
            atomicAdd(&A[i * P + k], 1u);
        unsigned q = (i + 1 + it) % n;
        for (unsigned j = threadIdx.x; j < (unsigned)P / 16; j += blockDim.x)
            atomicAdd(&A[q * P + j * 16 + (it + i) % 16], 1u);
        grid_sync(bar, bar + 32, gridDim.x);
    }
}

// Prod-Cons (§4.4): "CPU" c consumes partition c of A and produces
// partition c of B; "GPU" c consumes partition c of B and produces
// partition c of A.
extern "C" __global__ void prodcons(unsigned *A, unsigned *B, unsigned *bar, int P, int iters)
{
    unsigned half = gridDim.x / 2, c = blockIdx.x;
    for (int it = 0; it < iters; it++) {
        if (c < half)
            for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
                B[c * P + k] = A[c * P + k] + 1u;
        grid_sync(bar, bar + 32, gridDim.x);
        if (c >= half) {
            unsigned g = c - half;
            for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
                A[g * P + k] = B[g * P + k] * 3u;
        }
        grid_sync(bar, bar + 32, gridDim.x);
    }
}
