// rnn.cu - one time step of a quantised recurrent layer,
// h_t[i] = clamp((sum_j W[i][j] h_{t-1}[j]) >> 7 + x_t[i], -128, 127).
// for every element b of a batch (h and x are B x H, row b = element b).
// W is stored transposed (wt[j * H + i]) so that neighbouring threads read
// neighbouring words. CTA (x, b) computes rows [64 x, 64 x + 64) of element
// b; contiguous CTA ids share b, so a GPM works on one element and reads its
// share of the columns of all of W, whose pages live on whichever GPM touched
// them first. One launch per time step: the weights are read-only and reused
// by every step; an element's h is written by the GPMs that compute it and
// read whole by each of them at the next step (Table 5.3's RNN/LSTM class).
//
// Launch: block 64, grid (H / 64, B).
extern "C" __global__ void rnn_step(const int *wt, const int *h_prev, const int *x_t, int *h_next,
                                    int H)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.y;
    const int *hp = h_prev + b * H;
    int acc = 0;
    for (int j = 0; j < H; j++)
        acc += wt[j * H + i] * hp[j];
    int v = (acc >> 7) + x_t[b * H + i];
    h_next[b * H + i] = v < -128 ? -128 : (v > 127 ? 127 : v);
}
