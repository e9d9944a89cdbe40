// fft.cu - one radix-2 decimation-in-time stage of an n-point complex FFT
// (the input is in bit-reversed order), in place: every stage reads and
// writes the whole array, the store-heavy pattern spec 000 reports for fft
// (the largest BSQ occupancy). The twiddle table is read-only and re-read by
// every stage.
extern "C" __global__ void fft_stage(int n, int m, const float *tw_re, const float *tw_im,
                                     float *re, float *im)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n / 2) {
        int j = t % m, i1 = (t / m) * 2 * m + j, i2 = i1 + m, k = j * (n / (2 * m));
        float wr = tw_re[k], wi = tw_im[k];
        float br = re[i2] * wr - im[i2] * wi, bi = re[i2] * wi + im[i2] * wr;
        float ar = re[i1], ai = im[i1];
        re[i1] = ar + br;
        im[i1] = ai + bi;
        re[i2] = ar - br;
        im[i2] = ai - bi;
    }
}
