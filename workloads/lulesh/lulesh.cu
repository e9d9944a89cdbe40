// lulesh.cu - kernels shaped like LULESH's time step for spec 000 (which
// launches LULESH's kernels 3,380 times): two short kernels per step over an
// unstructured mesh of hexahedral elements. The read-only arrays - node
// coordinates, element connectivity (8 nodes an element) and element mass -
// are re-read by every kernel; each kernel writes its own output array.
//   force:  f[e] = m[e] * sum over its 8 nodes of x[node] * (1 + v[e])
//   update: v[e] = 0.5 v[e] + dt * f[e]
extern "C" __global__ void lulesh_force(int ne, const float *x, const int *conn, const float *m,
                                        const float *v, float *f)
{
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e < ne) {
        float s = 0.0f;
        for (int j = 0; j < 8; j++)
            s += x[conn[8 * e + j]];
        f[e] = m[e] * s * (1.0f + v[e]);
    }
}

extern "C" __global__ void lulesh_update(int ne, float dt, const float *f, float *v)
{
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e < ne)
        v[e] = 0.5f * v[e] + dt * f[e];
}
