// conv.cu - one convolution layer of a quantised CNN (int32 activations,
// small integer weights), ks x ks (ks = 1 or 3, padding ks / 2, zeros), C
// input and K output channels. CTA (tile, k) computes output channel k over
// a 16x16 spatial tile, reading every input channel around the tile and the
// C x ks x ks weights of channel k. Contiguous CTA ids share an output
// channel, so with K larger than the GPM count each GPM computes K / GPMs
// channels over the whole image and reads the whole input that many times;
// the input was written by every GPM in the previous layer: the read-shared
// input and weight tensors of Table 5.3's CNN class. out = min(max(acc, 0)
// >> shift, 255) (ReLU and requantisation).
//
// Launch: block (16, 16), grid (tiles_x * tiles_y, K); conv3_layer for 3x3,
// conv1_layer for 1x1 (the kernel size a template constant, so the taps unroll).
template <int KS>
__device__ void conv_body(const int *in, const int *w, int *out, int C, int H, int W, int shift)
{
    const int r = KS / 2;
    int tiles_x = (W + 15) / 16;
    int x = (blockIdx.x % tiles_x) * 16 + threadIdx.x;
    int y = (blockIdx.x / tiles_x) * 16 + threadIdx.y;
    int k = blockIdx.y;
    if (x >= W || y >= H)
        return;
    const int *wk = w + k * C * KS * KS;
    int acc = 0;
    for (int c = 0; c < C; c++) {
        const int *plane = in + c * H * W;
        const int *wc = wk + c * KS * KS;
#pragma unroll
        for (int dy = -r; dy <= r; dy++) {
            int yy = y + dy;
#pragma unroll
            for (int dx = -r; dx <= r; dx++) {
                int xx = x + dx;
                if (yy >= 0 && yy < H && xx >= 0 && xx < W)
                    acc += wc[(dy + r) * KS + dx + r] * plane[yy * W + xx];
            }
        }
    }
    int v = acc > 0 ? acc >> shift : 0;
    out[(k * H + y) * W + x] = v > 255 ? 255 : v;
}

extern "C" __global__ void conv3_layer(const int *in, const int *w, int *out, int C, int H, int W,
                                       int shift)
{
    conv_body<3>(in, w, out, C, H, W, shift);
}

extern "C" __global__ void conv1_layer(const int *in, const int *w, int *out, int C, int H, int W,
                                       int shift)
{
    conv_body<1>(in, w, out, C, H, W, shift);
}

// The first form of conv (variant `first`; repro/hmg's [calibration
// conv-input] undone): a chain of 3x3 layers that keep C channels, CTA (tile,
// k) computing output channel k, so that with C output channels each GPM
// computes about one channel and reads the input once. Kept as it was first
// written, loops not unrolled, so that the undone calibration runs the same
// instructions as the first results did.
extern "C" __global__ void conv_layer(const int *in, const int *w, int *out, int C, int H, int W,
                                      int shift)
{
    int tiles_x = (W + 15) / 16;
    int x = (blockIdx.x % tiles_x) * 16 + threadIdx.x;
    int y = (blockIdx.x / tiles_x) * 16 + threadIdx.y;
    int k = blockIdx.y;
    if (x >= W || y >= H)
        return;
    const int *wk = w + k * C * 9;
    int acc = 0;
    for (int c = 0; c < C; c++) {
        const int *plane = in + c * H * W;
        const int *wc = wk + c * 9;
        for (int dy = -1; dy <= 1; dy++) {
            int yy = y + dy;
            if (yy < 0 || yy >= H)
                continue;
            for (int dx = -1; dx <= 1; dx++) {
                int xx = x + dx;
                if (xx < 0 || xx >= W)
                    continue;
                acc += wc[(dy + 1) * 3 + dx + 1] * plane[yy * W + xx];
            }
        }
    }
    int v = acc > 0 ? acc >> shift : 0;
    out[(k * H + y) * W + x] = v > 255 ? 255 : v;
}
