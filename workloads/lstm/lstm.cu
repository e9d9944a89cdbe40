// lstm.cu - spec 003's LSTM (§4.5; Alsop et al., TACO 2022, §5.2.3, Fig.
// 3(d)): two stacked LSTM layers of H = 50 cells (a 50-entry input, four
// 50 x 100 gate matrices each), then a dense layer with ReLU and a fully
// connected output layer (the paper's softmax: the host takes the argmax of
// its logits), over S sequences of T tokens. Pipelined only (the paper: the
// serial dependences leave no other way to parallelise one sequence): CTA 0
// is layer 1, CTA 1 layer 2, CTA 2 the dense and output layers, handing
// each token's hidden state on through spandex_app.cuh's double buffers.
//
// Quantised, 7 fraction bits (128 = 1.0): z = (W [x; h]) >> 7; the gates
// are hard sigmoids clamp((z >> 2) + 64, 0, 128) (input, forget, output) and
// a hard tanh clamp(z, -128, 128) (candidate); c = clamp((f c + i g) >> 7,
// -512, 512), h = (o tanh(c)) >> 7. A layer's weights are stored as W[k][4H]
// (k: the 2H inputs, x first), 80 KB, so that the 4H threads that compute
// the gate sums read neighbouring words.
#include "../spandex_app.cuh"

#define LSTM_H 50
#define LSTM_G (4 * LSTM_H)
#define LSTM_V 50

__device__ __forceinline__ int lstm_clamp(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

// One step of a layer: in[0..H) is x_t, in[H..2H) h_{t-1} (updated to h_t),
// c the cell state, z scratch for the gate sums.
__device__ __forceinline__ void lstm_step(const int *w, int *in, int *c, int *z)
{
    int t = threadIdx.x;
    if (t < LSTM_G) {
        int acc = 0;
        for (int k = 0; k < 2 * LSTM_H; k++)
            acc += w[k * LSTM_G + t] * in[k];
        z[t] = acc >> 7;
    }
    __syncthreads();
    if (t < LSTM_H) {
        int i = lstm_clamp((z[t] >> 2) + 64, 0, 128);
        int f = lstm_clamp((z[LSTM_H + t] >> 2) + 64, 0, 128);
        int g = lstm_clamp(z[2 * LSTM_H + t], -128, 128);
        int o = lstm_clamp((z[3 * LSTM_H + t] >> 2) + 64, 0, 128);
        c[t] = lstm_clamp((f * c[t] + i * g) >> 7, -512, 512);
        in[LSTM_H + t] = (o * lstm_clamp(c[t], -128, 128)) >> 7;
    }
    __syncthreads();
}

// W: the two layers' gate matrices; D (H x H) and F (H x V): the dense and
// output layers' weights, stored [k][out]; X: S T tokens of H entries; Y:
// S T logits of V entries; buf: two double buffers of H words (after layer
// 1, after layer 2). T tokens make a sequence: the state is reset at each
// sequence's first token.
extern "C" __global__ void lstm_pipe(const int *W, const int *D, const int *F, const int *X,
                                     int *Y, int *buf, unsigned *full, unsigned *taken, int T,
                                     int M)
{
    __shared__ int in[2 * LSTM_H], c[LSTM_H], z[LSTM_G];
    int t = threadIdx.x, stage = blockIdx.x;
    for (int m = 0; m < M; m++) {
        if (m % T == 0 && t < LSTM_H)
            in[LSTM_H + t] = c[t] = 0;
        if (stage == 0) {
            if (t < LSTM_H)
                in[t] = X[m * LSTM_H + t];
        } else {
            app_wait_all(full, stage - 1, 1, (unsigned)m + 1);
            if (t < LSTM_H)
                in[t] = buf[((stage - 1) * 2 + (m & 1)) * LSTM_H + t];
            app_post(taken, stage);
        }
        __syncthreads();
        if (stage < 2) {
            lstm_step(W + stage * 2 * LSTM_H * LSTM_G, in, c, z);
            app_wait_all(taken, stage + 1, 1, m >= 2 ? (unsigned)m - 1 : 0u);
            if (t < LSTM_H)
                buf[(stage * 2 + (m & 1)) * LSTM_H + t] = in[LSTM_H + t];
            app_post(full, stage);
        } else {
            // dense + ReLU into z, then the output layer's logits
            if (t < LSTM_H) {
                int acc = 0;
                for (int k = 0; k < LSTM_H; k++)
                    acc += D[k * LSTM_H + t] * in[k];
                z[t] = app_relu(acc);
            }
            __syncthreads();
            if (t < LSTM_V) {
                int acc = 0;
                for (int k = 0; k < LSTM_H; k++)
                    acc += F[k * LSTM_V + t] * z[k];
                Y[m * LSTM_V + t] = acc >> 7;
            }
            __syncthreads();
        }
    }
}
