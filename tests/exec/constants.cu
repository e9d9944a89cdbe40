// constants.cu - kernels that read __constant__ memory, for the launch spec's
// `symbol` line (tests/cli/exec-constants.sh): a cubic whose coefficients the
// host sets, a table the source initialises, and an array the host sets in
// two parts (at element offsets); and __device__ variables, initialised, set
// by the host, and left to their zeros (a counter).
// Build: nvcc -ptx -arch=sm_75 -O3 constants.cu  (make ptx)

__constant__ float coef[4];                       // set by the host
__constant__ int table[4] = {10, 20, 30, 40};     // initialised here
__constant__ unsigned int bias[8];                // set by the host

// y[i] = coef[0] + coef[1] x + coef[2] x^2 + coef[3] x^3
extern "C" __global__ void cubic(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = ((coef[3] * v + coef[2]) * v + coef[1]) * v + coef[0];
    }
}

// out[i] = table[i % 4]: needs nothing from the host
extern "C" __global__ void lookup(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = table[i % 4];
}

// out[i] = table[i % 4] + bias[i % 8]
extern "C" __global__ void biased(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = table[i % 4] + (int)bias[i % 8];
}

__device__ float dscale[4] = {0.5f, 1.5f, 2.5f, 3.5f};   // initialised here
__device__ int doffset[2];                             // set by the host
__device__ unsigned int dcount;                        // zero, counted up by atomics

// out[i] = dscale[i % 4] * x[i] + doffset[i % 2]; every thread counts itself
extern "C" __global__ void scaled(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = dscale[i % 4] * x[i] + (float)doffset[i % 2];
        atomicAdd(&dcount, 1u);
    }
}

// *out = dcount
extern "C" __global__ void count(unsigned int *out)
{
    *out = dcount;
}
