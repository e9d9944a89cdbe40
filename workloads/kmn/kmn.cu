// kmn.cu - k-means clustering (after Rodinia's kmeans).
//
// kmn_invert transposes the point-major feature array into feature-major
// order once, so that in kmn_assign consecutive threads (points) read
// consecutive words. kmn_assign runs once per iteration: each thread reads
// its point's features (a large array re-read by every launch), the small
// centre array (read by every thread), and writes its point's membership
// once. The host recomputes the centres between launches.
//
// kmn_assign_cmem (variant `cmem`) is kmn_assign with the centres in constant
// memory, as Rodinia's kmeansPoint keeps them (`__constant__ float
// c_clusters[ASSUMED_NR_CLUSTERS * 34]`, ASSUMED_NR_CLUSTERS = 32; the host
// writes them with cudaMemcpyToSymbol before each launch). Rodinia also reads
// the features through a texture (tex1Dfetch); gpucoh has no texture path, so
// the features stay global loads in both kernels.

extern "C" __global__ void kmn_invert(const float *pts, float *feat, int npoints, int nfeat)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    for (int f = 0; f < nfeat; f++)
        feat[f * npoints + p] = pts[p * nfeat + f];
}

// Index of the centre nearest point p (first minimum wins), the distances
// summed with fmaf. Inlined into both kernels, where nvcc sees which memory
// `centres` points into and loads from that space (ld.global in kmn_assign,
// ld.const in kmn_assign_cmem).
static __device__ __forceinline__ int kmn_nearest(const float *feat, const float *centres, int p,
                                                  int npoints, int nfeat, int nclusters)
{
    int best = 0;
    float best_dist = 3.0e38f;
    for (int c = 0; c < nclusters; c++) {
        float dist = 0.0f;
        // Not unrolled: gpucoh sizes a thread's registers by the PTX virtual
        // registers, which unrolling multiplies (a 256-thread CTA would not
        // fit a 32 K-register SM). The loads are the same either way.
#pragma unroll 1
        for (int f = 0; f < nfeat; f++) {
            float d = feat[f * npoints + p] - centres[c * nfeat + f];
            dist = fmaf(d, d, dist);
        }
        if (dist < best_dist) {
            best_dist = dist;
            best = c;
        }
    }
    return best;
}

extern "C" __global__ void kmn_assign(const float *feat, const float *centres, int *membership,
                                      int npoints, int nfeat, int nclusters)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    membership[p] = kmn_nearest(feat, centres, p, npoints, nfeat, nclusters);
}

#define KMN_CMEM_FLOATS (32 * 34)
__constant__ float kmn_centres_c[KMN_CMEM_FLOATS];

extern "C" __global__ void kmn_assign_cmem(const float *feat, int *membership, int npoints,
                                           int nfeat, int nclusters)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    membership[p] = kmn_nearest(feat, kmn_centres_c, p, npoints, nfeat, nclusters);
}
