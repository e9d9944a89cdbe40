// fcnn.cu - spec 003's FCNN (§4.5; Alsop et al., TACO 2022, §5.2.1, Fig.
// 3(a,b)): L uniform fully connected layers of width N, each a vector times
// a weight matrix and a quantised ReLU, over M independent inputs (batch
// size 1 each). Weights are stored transposed per layer (W[l][j][i] is the
// weight from input j to output i) so that thread i's reads of one j are
// neighbours of the other threads'. One thread per output neuron: N threads
// a CTA.
#include "../spandex_app.cuh"

#define FCNN_MAX_N 256

// Output neuron `i` of one layer: the quantised ReLU of sum_j w[j][i] in[j].
__device__ __forceinline__ int fcnn_neuron(const int *w, const int *in, int N, int i)
{
    int acc = 0;
    for (int j = 0; j < N; j++)
        acc += w[j * N + i] * in[j];
    return app_relu(acc);
}

// Data-parallel (Fig. 3(a)): CTA c runs every layer for inputs c, c + grid,
// ...; the features stay in shared memory, the weights of all L layers pass
// through the L1 once per input. No communication between CTAs.
extern "C" __global__ void fcnn_dp(const int *W, const int *X, int *Y, int N, int L, int M)
{
    __shared__ int feat[2][FCNN_MAX_N];
    int i = threadIdx.x;
    for (int m = blockIdx.x; m < M; m += gridDim.x) {
        feat[0][i] = X[m * N + i];
        __syncthreads();
        for (int l = 0; l < L; l++) {
            feat[(l + 1) & 1][i] = fcnn_neuron(W + l * N * N, feat[l & 1], N, i);
            __syncthreads();
        }
        Y[m * N + i] = feat[L & 1][i];
        __syncthreads();
    }
}

// Pipelined (Fig. 3(b)): CTA l is layer l for every input. Layer l reads
// input m from slot m % 2 of buffer l - 1 (layer 0: X) and writes its
// output to slot m % 2 of buffer l (the last layer: Y); spandex_app.cuh's
// counters hand the slots over. Its weights are the same for every input.
extern "C" __global__ void fcnn_pipe(const int *W, const int *X, int *Y, int *buf, unsigned *full,
                                     unsigned *taken, int N, int L, int M)
{
    __shared__ int in[FCNN_MAX_N];
    int i = threadIdx.x, l = blockIdx.x;
    const int *w = W + l * N * N;
    for (int m = 0; m < M; m++) {
        if (l == 0) {
            in[i] = X[m * N + i];
        } else {
            app_wait_all(full, l - 1, 1, (unsigned)m + 1);
            in[i] = buf[((l - 1) * 2 + (m & 1)) * N + i];
            app_post(taken, l);
        }
        __syncthreads();
        int out = fcnn_neuron(w, in, N, i);
        if (l == L - 1) {
            Y[m * N + i] = out;
        } else {
            app_wait_all(taken, l + 1, 1, m >= 2 ? (unsigned)m - 1 : 0u);
            buf[(l * 2 + (m & 1)) * N + i] = out;
            app_post(full, l);
        }
    }
}
