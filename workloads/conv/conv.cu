// conv.cu - one 3x3 convolution layer of a quantised CNN (int32 activations,
// small integer weights), channel-parallel: CTA (tile, k) computes output
// channel k over a 16x16 spatial tile, reading every input channel's plane
// around the tile and the C x 9 weights of channel k. Contiguous CTA ids
// share an output channel, so each GPM computes a few output channels over the
// whole image and reads the whole input, which the previous layer wrote on
// every GPM: the read-shared input and weight tensors of Table 5.3's CNN
// class. Padding 1 (zeros); out = min(max(acc, 0) >> shift, 255) (ReLU and
// requantisation).
//
// Launch: block (16, 16), grid (tiles_x * tiles_y, K).
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
