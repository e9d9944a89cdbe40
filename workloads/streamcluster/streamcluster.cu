// streamcluster.cu - the gain computation of Rodinia's streamcluster
// (pgain, kernel_compute_cost): for a candidate centre x, every point
// computes its weighted squared distance to x over dim coordinates
// (structure-of-arrays: its own coordinates coalesced, the centre's
// broadcast, the same few blocks for every warp of every SM) and compares it
// with its current cost. The points' weight, assigned centre and cost are
// Rodinia's array of structures (Point: float weight; long assign; float
// cost; 24 bytes), so a warp's three independent loads of p[tid].weight,
// p[tid].cost and p[tid].assign go to the same few lines and the second and
// third merge into the first's MSHR (spec 001 §4, Fig. 7). A point that
// would switch records it in switch_membership; each point writes the cost
// change it contributes to gain (the host sums them, as Rodinia's host sums
// the per-block work memory).
struct point {
    float weight;
    long long assign;
    float cost;
};

extern "C" __global__ void pgain(int num, int dim, int x, const float *coord,
                                 const struct point *p, const int *center_table,
                                 unsigned char *switch_membership, float *gain,
                                 int *gain_center)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= num)
        return;
    float dist = 0.0f;
    for (int d = 0; d < dim; d++) {
        float diff = coord[d * num + tid] - coord[d * num + x];
        dist += diff * diff;
    }
    float x_cost = dist * p[tid].weight;
    float current = p[tid].cost;
    if (x_cost < current) {
        switch_membership[tid] = 1;
        gain[tid] = x_cost - current;
        gain_center[tid] = -1;
    } else {
        gain[tid] = current - x_cost;
        gain_center[tid] = center_table[p[tid].assign];
    }
}
