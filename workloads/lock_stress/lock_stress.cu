// lock_stress.cu - random lock-protected episodes for stress-testing memory
// models (sync set). Each thread runs `episodes` episodes: it draws a
// location k from its xorshift stream, takes k's lock (atomicCAS, then
// __threadfence), reads the location's two words a[k] and b[k] with plain
// loads (they lie far apart, in different sectors), counts an error if they
// differ (a stale or torn read), writes both plus one with plain stores,
// reads a word of a read-only table into its sum and stores the sum to its
// own scratch line, then __threadfence and releases (atomicExch). Locks, a, b,
// the table and the scratch lines are one 128-byte line per element.
extern "C" __global__ void lock_stress(int *locks, int *a, int *b, const int *table, int *scratch,
                                       int *sums, int *errors, int nlocs, int ntable,
                                       int episodes, unsigned seed)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = (seed ^ (tid * 0x9e3779b9u)) | 1u;
    int sum = 0;
    for (int e = 0; e < episodes; e++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        int k = (int)(s % (unsigned)nlocs);
        bool done = false;
        while (!done) {
            if (atomicCAS(&locks[k * 32], 0, 1) == 0) {
                __threadfence();
                int va = a[k * 32], vb = b[k * 32];
                if (va != vb)
                    atomicAdd(errors, 1);
                a[k * 32] = va + 1;
                b[k * 32] = vb + 1;
                sum += table[(int)((s >> 8) % (unsigned)ntable) * 32];
                scratch[tid * 32] = sum;
                __threadfence();
                atomicExch(&locks[k * 32], 0);
                done = true;
            }
        }
    }
    sums[tid] = sum;
}
