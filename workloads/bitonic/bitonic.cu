// bitonic.cu - one compare-exchange step (j, k) of a bitonic sort of n
// unsigned keys, in place (HCC's BitonicSort example): log2(n) (log2(n)+1)/2
// launches, each reading and writing the whole array.
extern "C" __global__ void bitonic_step(int n, int j, int k, unsigned *a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = i ^ j;
    if (i < n && p > i) {
        unsigned x = a[i], y = a[p];
        bool up = (i & k) == 0;
        if ((x > y) == up) {
            a[i] = y;
            a[p] = x;
        }
    }
}
