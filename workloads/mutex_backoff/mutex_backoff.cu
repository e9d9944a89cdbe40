// mutex_backoff.cu - an atomicCAS spin mutex with exponential backoff
// (HeteroSync's spinMutexEBO shape), contended by thread 0 of every CTA.
// A failed CAS waits `backoff` iterations of a spin delay loop, then doubles
// backoff up to max_backoff. __threadfence() after the acquiring CAS and
// before the releasing atomicExch, as pre-libcu++ CUDA code does.
// The delay loop computes a value that is stored to sink[blockIdx.x] so the
// compiler keeps it; it has no other use.
// Critical section and its self-check as in mutex_spin.cu.
__device__ void cs_body(unsigned *total, unsigned *percta, unsigned *order, unsigned *errs)
{
    unsigned t = threadIdx.x, bt = blockDim.x;
    unsigned s = total[t];
    if (t == 0)
        order[s] = blockIdx.x;
    unsigned sum = 0;
    for (unsigned c = 0; c < gridDim.x; c++)
        sum += percta[c * bt + t];
    if (sum != s)
        atomicAdd(errs, 1u);
    percta[blockIdx.x * bt + t] += 1u;
    total[t] = s + 1u;
}

__device__ unsigned spin_delay(unsigned n, unsigned x)
{
    for (unsigned i = 0; i < n; i++)
        x = x * 1664525u + 1013904223u;
    return x;
}

extern "C" __global__ void mutex_backoff(int *lock, unsigned *total, unsigned *percta,
                                         unsigned *order, unsigned *errs, unsigned *sink, int iters,
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
        cs_body(total, percta, order, errs);
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            atomicExch(lock, 0);
        }
    }
    if (threadIdx.x == 0)
        sink[blockIdx.x] = junk;
}
