// snapc.cu - kernels shaped like SNAP's discrete-ordinates transport step
// for spec 000 (SNAP-C launches 2,992 kernels): per energy group, one sweep
// kernel per angle computing the angular flux of every cell from the
// cross-section tables (read-only, re-read by every launch) and the group's
// scalar flux, then one kernel summing the angles into the scalar flux.
extern "C" __global__ void snap_sweep(int n, int g, float mu, const float *q, const float *sig_s,
                                      const float *sig_t, const float *phi, float *psi)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        psi[i] = (q[i] + sig_s[g] * phi[g * n + i]) / (sig_t[g * n + i] + mu);
}

extern "C" __global__ void snap_phi(int n, int g, int angles, const float *w, const float *psi,
                                    float *phi)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0.0f;
        for (int a = 0; a < angles; a++)
            s += w[a] * psi[a * n + i];
        phi[g * n + i] = s;
    }
}
