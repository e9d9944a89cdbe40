// diverge.cu - divergent loop nests, early exit and per-lane trip counts.
extern "C" __global__ void nest(int *out, int k)
{
    int t = threadIdx.x;
    if (t % 5 == 4)
        return;                      // early exit for some lanes
    int acc = 0;
    for (int i = 0; i < t % 7; i++) {
        if ((i + t) & 1) {
            for (int j = 0; j <= i; j++)
                acc += j * k;
        } else {
            acc ^= i << 3;
            if (acc > 100)
                break;
        }
    }
    if (t & 2)
        acc = -acc;
    out[blockIdx.x * blockDim.x + t] = acc;
}

extern "C" __global__ void collatz(unsigned *out, unsigned base)
{
    unsigned x = base + blockIdx.x * blockDim.x + threadIdx.x;
    unsigned steps = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = steps;
}

extern "C" __global__ void votes(unsigned *out)
{
    int t = threadIdx.x;
    unsigned b = __ballot_sync(0xffffffffu, t & 1);
    int all = __all_sync(0xffffffffu, t < 100);
    int any = __any_sync(0xffffffffu, t == 7);
    unsigned am = 0;
    if (t & 4)
        am = __activemask();
    out[t] = b ^ (all << 1) ^ (any << 2) ^ am ^ __shfl_xor_sync(0xffffffffu, t * 3, 5);
}
