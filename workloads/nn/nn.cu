// nn.cu - Rodinia's nearest-neighbour distance kernel: the Euclidean
// distance of every (latitude, longitude) record to one query point; the
// host then picks the nearest. A streaming read of the records and one
// write per record.
extern "C" __global__ void nn_dist(int n, float lat, float lng, const float *rlat,
                                   const float *rlng, float *d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float a = rlat[i] - lat, b = rlng[i] - lng;
        d[i] = sqrtf(a * a + b * b);
    }
}
