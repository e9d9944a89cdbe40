// mutex_backoff.cu - an atomicCAS spin mutex with exponential backoff
// (HeteroSync's spinMutexEBO shape), contended by thread 0 of every CTA.
// A failed CAS waits `backoff` iterations of a spin delay loop, then doubles
// backoff up to max_backoff. __threadfence() after the acquiring CAS and
// before the releasing atomicExch, as pre-libcu++ CUDA code does.
// The delay loop computes a value that is stored to sink[blockIdx.x] so the
// compiler keeps it; it has no other use.
// Critical section as in mutex_spin: per-thread plain increments of `nldst`
// lines, and thread 0 logs its CTA id at order[old value of word 0].
__device__ void cs_body(unsigned *data, unsigned *order, int nldst)
{
    unsigned t = threadIdx.x;
    if (t == 0)
        order[data[0]] = blockIdx.x;
    for (int j = 0; j < nldst; j++) {
        unsigned *p = data + j * blockDim.x + t;
        *p = *p + 1u;
    }
}

__device__ unsigned spin_delay(unsigned n, unsigned x)
{
    for (unsigned i = 0; i < n; i++)
        x = x * 1664525u + 1013904223u;
    return x;
}

extern "C" __global__ void mutex_backoff(int *lock, unsigned *data, unsigned *order,
                                         unsigned *sink, int iters, int nldst,
                                         unsigned min_backoff, unsigned max_backoff)
{
    unsigned junk = blockIdx.x;
    for (int it = 0; it < iters; it++) {
        if (threadIdx.x == 0) {
            unsigned backoff = min_backoff;
            while (atomicCAS(lock, 0, 1) != 0) {
                junk = spin_delay(backoff, junk);
                backoff = backoff * 2u < max_backoff ? backoff * 2u : max_backoff;
            }
            __threadfence();
        }
        __syncthreads();
        cs_body(data, order, nldst);
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            atomicExch(lock, 0);
        }
    }
    if (threadIdx.x == 0)
        sink[blockIdx.x] = junk;
}
