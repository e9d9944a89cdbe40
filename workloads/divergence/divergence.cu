// divergence.cu - a divergent loop nest: each thread's trip counts and branch
// directions depend on its own input word, so lanes of a warp split and
// reconverge at every level (outer loop, if/else with continue, inner loop).
extern "C" __global__ void divergence(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = in[i];
    unsigned acc = v;
    unsigned outer = v & 15u;
    for (unsigned j = 0; j < outer; j++) {
        if ((v >> j) & 1u) {
            unsigned inner = ((v >> 8) + j) & 7u;
            for (unsigned k = 0; k <= inner; k++)
                acc = acc * 31u + (k ^ j);
        } else {
            acc ^= j * v;
            if (acc & 1u)
                continue;
            acc += 7u;
        }
        if (acc > 0xf0000000u)
            break;
    }
    out[i] = acc;
}
