// fig1b.cu - spec 001 §2.5.6, the worked example of type-aware SC (Fig. 1b
// with every location in global memory): X and Y are unsafe, Z is SM-safe;
// T1 and T2 are warps of one CTA, T3 runs on another SM.

// Both CTAs (on SM 0 and SM 1) write x and y: their sectors become shared and
// written, the only unsafe state.
extern "C" __global__ void fig1b_warm(volatile int *x, volatile int *y)
{
    if (threadIdx.x == 0) {
        *x = 0;
        *y = 0;
    }
}

// T1 (CTA 0, warp 0): x = 1; z = 1.  T2 (CTA 0, warp 1): wait for z == 1;
// y = 1.  T3 (CTA 1): wait for y == 1; out = x.  SC forbids out == 0.
// T1 first waits `delay` cycles, so that T2 is already polling z from its L1
// when T1's store to z passes the pending store to x.
extern "C" __global__ void fig1b(volatile int *x, volatile int *y, volatile int *z, int *out,
                                 long long delay)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) {
            long long t0 = clock64();
            while (clock64() - t0 < delay)
                ;
            *x = 1;
            *z = 1;
        } else if (threadIdx.x == 32) {
            while (*z != 1)
                ;
            *y = 1;
        }
    } else if (threadIdx.x == 0) {
        while (*y != 1)
            ;
        out[0] = *x;
    }
}
