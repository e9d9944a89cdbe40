// sr.cu - SRAD, speckle-reducing anisotropic diffusion (after Rodinia's
// srad), two kernels per iteration.
//
// sr_coeff reads each pixel and its four neighbours (clamped at the image
// border; neighbouring threads re-read the same lines), writes the four
// directional derivatives and the diffusion coefficient once. sr_update
// reads those, including the coefficients of the south and east neighbours,
// which a different CTA may have written in the first kernel, and updates
// the image in place. The host reads the image back between iterations to
// compute the speckle statistic q0^2 over a region of interest.

extern "C" __global__ void sr_coeff(const float *J, float *C, float *dN, float *dS, float *dW,
                                    float *dE, int cols, int rows, float q0sqr)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    int p = y * cols + x;
    float jc = J[p];
    float n = J[(y > 0 ? y - 1 : 0) * cols + x];
    float s = J[(y < rows - 1 ? y + 1 : y) * cols + x];
    float w = J[y * cols + (x > 0 ? x - 1 : 0)];
    float e = J[y * cols + (x < cols - 1 ? x + 1 : x)];
    float dn = n - jc, ds = s - jc, dw = w - jc, de = e - jc;

    float g2 = fmaf(de, de, fmaf(dw, dw, fmaf(ds, ds, dn * dn))) / (jc * jc);
    float l = (((dn + ds) + dw) + de) / jc;
    float num = fmaf(-0.0625f * l, l, 0.5f * g2);
    float den = fmaf(0.25f, l, 1.0f);
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);
    c = c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);

    C[p] = c;
    dN[p] = dn;
    dS[p] = ds;
    dW[p] = dw;
    dE[p] = de;
}

extern "C" __global__ void sr_update(float *J, const float *C, const float *dN, const float *dS,
                                     const float *dW, const float *dE, int cols, int rows,
                                     float lambda)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cols || y >= rows)
        return;
    int p = y * cols + x;
    float cn = C[p];
    float cs = C[(y < rows - 1 ? y + 1 : y) * cols + x];
    float cw = cn;
    float ce = C[y * cols + (x < cols - 1 ? x + 1 : x)];
    float d = fmaf(ce, dE[p], fmaf(cw, dW[p], fmaf(cs, dS[p], cn * dN[p])));
    J[p] = fmaf(0.25f * lambda, d, J[p]);
}
