// atomics.cu - global and shared atomics, atomicCAS loops, float atomics.
extern "C" __global__ void atomics(int *ctr, unsigned *u, float *f, unsigned long long *l)
{
    __shared__ int s;
    int t = threadIdx.x;
    if (t == 0)
        s = 0;
    __syncthreads();
    atomicAdd(&s, t);
    int old = atomicAdd(&ctr[0], 1);
    atomicMax(&ctr[1], t * 7 % 23);
    atomicMin(&ctr[2], -t);
    atomicOr((unsigned *)&ctr[3], 1u << (t & 31));
    atomicXor(&u[0], (unsigned)t);
    atomicAnd(&u[1], ~(1u << (t % 8)));
    atomicInc(&u[2], 10u);
    atomicDec(&u[3], 5u);
    atomicExch(&u[4 + (t & 1)], (unsigned)t);
    atomicAdd(&f[0], 0.5f);
    atomicAdd(&l[0], (unsigned long long)t);
    // CAS loop: multiply-accumulate that has no hardware atomic
    int cur = ctr[4], prev;
    do {
        prev = cur;
        cur = atomicCAS(&ctr[4], prev, prev + t + 1);
    } while (cur != prev);
    __syncthreads();
    if (t == 0)
        ctr[5] = s;
    u[8 + t] = (unsigned)old;
}

extern "C" __global__ void generic_atom(int *p, int sel)
{
    __shared__ int sh[32];
    int t = threadIdx.x;
    sh[t & 31] = 0;
    __syncthreads();
    int *q = (t & sel) ? &sh[t & 31] : &p[t & 31];
    atomicAdd(q, t);
    __syncthreads();
    if (t < 32)
        p[32 + t] = sh[t];
}
