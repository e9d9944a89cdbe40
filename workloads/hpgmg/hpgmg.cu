// hpgmg.cu - kernels shaped like a geometric multigrid V-cycle (HPGMG) for
// spec 000: on each level a damped Jacobi smoother (ping-pong between u and
// t), the residual, restriction to the next coarser level and, on the way
// up, interpolation and correction. The operator's coefficients a are
// read-only and re-read by every smoother and residual launch; u, t, r and
// the right-hand sides are read and written.
// Level l has n points; point i's neighbours are i-1 and i+1 (zero outside).
extern "C" __global__ void mg_smooth(int n, const float *a, const float *b, const float *u,
                                     float *t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float l = i > 0 ? u[i - 1] : 0.0f, r = i < n - 1 ? u[i + 1] : 0.0f;
        t[i] = u[i] + 0.6f * (b[i] - (a[i] * u[i] - 0.25f * (l + r))) / a[i];
    }
}

extern "C" __global__ void mg_residual(int n, const float *a, const float *b, const float *u,
                                       float *res)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float l = i > 0 ? u[i - 1] : 0.0f, r = i < n - 1 ? u[i + 1] : 0.0f;
        res[i] = b[i] - (a[i] * u[i] - 0.25f * (l + r));
    }
}

// coarse[i] = average of fine 2i and 2i+1; the coarse solution starts at 0
extern "C" __global__ void mg_restrict(int nc, const float *res, float *bc, float *uc)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nc) {
        bc[i] = 0.5f * (res[2 * i] + res[2 * i + 1]);
        uc[i] = 0.0f;
    }
}

// u_fine[i] += u_coarse[i / 2]
extern "C" __global__ void mg_correct(int n, const float *uc, float *u)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        u[i] += uc[i / 2];
}
