// lenet.cu - spec 003's LeNet (§4.5; Alsop et al., TACO 2022, §5.2.2, Fig.
// 3(c)): two 5 x 5 convolutions (1 -> 6 and 6 -> 16 maps), each followed by
// a ReLU and a 2 x 2 max-pool, then two fully connected layers (16 P2^2 ->
// 120 with a ReLU, 120 -> 10 logits), over M inputs of S x S pixels (P2 =
// ((S - 4) / 2 - 4) / 2: 5 for the 32 x 32 LeNet-5 input). Quantised with 7
// fraction bits as spandex_app.cuh's app_relu. Weights are stored [out map
// or neuron][in map][5][5] for the convolutions and [in][out] for the fully
// connected layers (neighbouring threads read neighbouring words).
//
// Twelve CTAs either way (the paper's 12 CUs). Data-parallel (variant dp):
// CTA c runs every layer for inputs c, c + 12, ...; features stay in shared
// memory, and the 207 KB of weights cannot stay in the 128 KB L1 from one
// input to the next. Pipelined: CTAs 0-1 are conv1 (3 maps each), 2-7 conv2
// (16 maps split 2 or 3 a CTA), 8-10 the first fully connected layer (40
// neurons each, 64 KB of weights), 11 the last. Every consumer reads all of
// the previous stage's output (several consumers per feature: the paper
// says this is why LeNet's features get no producer-consumer forwarding),
// and conv1 costs the most: the pipeline is as slow as its slowest stage,
// as the paper's is.
#include "../spandex_app.cuh"

#define LENET_K 5
#define LENET_C1 6
#define LENET_C2 16
#define LENET_F1 120
#define LENET_OUT 10
#define LENET_MAX_S 32
#define LENET_CTAS 12

// Output maps [lo, hi) of a convolution of `cin` maps of s x s, ReLU and
// 2 x 2 max-pool: out[(map - lo) * po * po + y * po + x], po = (s - 4) / 2.
__device__ __forceinline__ void lenet_conv_pool(const int *in, int cin, int s, const int *w,
                                                int lo, int hi, int *out)
{
    int po = (s - LENET_K + 1) / 2, n = (hi - lo) * po * po;
    for (int idx = threadIdx.x; idx < n; idx += blockDim.x) {
        int map = lo + idx / (po * po), y = idx / po % po, x = idx % po, best = 0;
        for (int dy = 0; dy < 2; dy++)
            for (int dx = 0; dx < 2; dx++) {
                int acc = 0;
                for (int c = 0; c < cin; c++)
                    for (int ky = 0; ky < LENET_K; ky++)
                        for (int kx = 0; kx < LENET_K; kx++)
                            acc += w[((map * cin + c) * LENET_K + ky) * LENET_K + kx] *
                                   in[(c * s + 2 * y + dy + ky) * s + 2 * x + dx + kx];
                int v = app_relu(acc);
                best = v > best ? v : best;
            }
        out[idx] = best;
    }
}

// Neurons [lo, hi) of a fully connected layer: out[j - lo] (ReLU'd when
// relu, else the logit acc >> 7).
__device__ __forceinline__ void lenet_fc(const int *in, int nin, const int *w, int nout, int lo,
                                         int hi, int *out, bool relu)
{
    for (int j = lo + threadIdx.x; j < hi; j += blockDim.x) {
        int acc = 0;
        for (int k = 0; k < nin; k++)
            acc += w[k * nout + j] * in[k];
        out[j - lo] = relu ? app_relu(acc) : acc >> 7;
    }
}

extern "C" __global__ void lenet_dp(const int *c1, const int *c2, const int *f1, const int *f2,
                                    const int *X, int *Y, int S, int M)
{
    __shared__ int img[LENET_MAX_S * LENET_MAX_S], p1[LENET_C1 * 14 * 14],
        p2[LENET_C2 * 5 * 5], h[LENET_F1];
    int s1 = (S - 4) / 2, s2 = (s1 - 4) / 2, n2 = LENET_C2 * s2 * s2;
    for (int m = blockIdx.x; m < M; m += gridDim.x) {
        for (int k = threadIdx.x; k < S * S; k += blockDim.x)
            img[k] = X[m * S * S + k];
        __syncthreads();
        lenet_conv_pool(img, 1, S, c1, 0, LENET_C1, p1);
        __syncthreads();
        lenet_conv_pool(p1, LENET_C1, s1, c2, 0, LENET_C2, p2);
        __syncthreads();
        lenet_fc(p2, n2, f1, LENET_F1, 0, LENET_F1, h, true);
        __syncthreads();
        lenet_fc(h, LENET_F1, f2, LENET_OUT, 0, LENET_OUT, Y + m * LENET_OUT, false);
        __syncthreads();
    }
}

// The pipeline's stages: first CTA and CTAs of each, and each stage's output
// (words per input; buffer b holds stage b's, two slots).
__constant__ int lenet_first[5] = {0, 2, 8, 11, 12};

extern "C" __global__ void lenet_pipe(const int *c1, const int *c2, const int *f1, const int *f2,
                                      const int *X, int *Y, int *buf, unsigned *full,
                                      unsigned *taken, int S, int M)
{
    // in: an input image or a whole stage's output (conv1's 6 x 14 x 14 is the largest)
    __shared__ int in[LENET_C1 * 14 * 14], out[LENET_C1 * 14 * 14];
    int s1 = (S - 4) / 2, s2 = (s1 - 4) / 2;
    int words[4] = {LENET_C1 * s1 * s1, LENET_C2 * s2 * s2, LENET_F1, LENET_OUT};
    int units[4] = {LENET_C1, LENET_C2, LENET_F1, LENET_OUT};
    int per_unit[4] = {s1 * s1, s2 * s2, 1, 1};
    int cta = blockIdx.x, st = 0;
    while (cta >= lenet_first[st + 1])
        st++;
    int part = cta - lenet_first[st], parts = lenet_first[st + 1] - lenet_first[st];
    int lo = part * units[st] / parts, hi = (part + 1) * units[st] / parts;
    // buffer b: two slots of words[b] after the buffers before it
    int base[3] = {0, 2 * words[0], 2 * (words[0] + words[1])};
    for (int m = 0; m < M; m++) {
        int nin = st == 0 ? S * S : words[st - 1];
        if (st == 0) {
            for (int k = threadIdx.x; k < nin; k += blockDim.x)
                in[k] = X[m * S * S + k];
        } else {
            app_wait_all(full, lenet_first[st - 1], lenet_first[st] - lenet_first[st - 1],
                         (unsigned)m + 1);
            const int *src = buf + base[st - 1] + (m & 1) * nin;
            for (int k = threadIdx.x; k < nin; k += blockDim.x)
                in[k] = src[k];
            app_post(taken, cta);
        }
        __syncthreads();
        if (st == 0)
            lenet_conv_pool(in, 1, S, c1, lo, hi, out);
        else if (st == 1)
            lenet_conv_pool(in, LENET_C1, s1, c2, lo, hi, out);
        else if (st == 2)
            lenet_fc(in, nin, f1, LENET_F1, lo, hi, out, true);
        else
            lenet_fc(in, nin, f2, LENET_OUT, lo, hi, Y + m * LENET_OUT, false);
        if (st < 3) {
            app_wait_all(taken, lenet_first[st + 1], lenet_first[st + 2] - lenet_first[st + 1],
                         m >= 2 ? (unsigned)m - 1 : 0u);
            int *dst = buf + base[st] + (m & 1) * words[st] + lo * per_unit[st];
            for (int k = threadIdx.x; k < (hi - lo) * per_unit[st]; k += blockDim.x)
                dst[k] = out[k];
            app_post(full, cta);
        } else {
            __syncthreads();
        }
    }
}
