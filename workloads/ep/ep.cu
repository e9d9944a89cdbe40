// ep.cu - spec 003 §4.5's EP (evolutionary programming, Alsop et al., TACO
// 2022, §5.2.4): a population of P individuals of EP_GENES fp32 genes evolves
// for G generations. As in HeteroMark's split, the GPU evaluates every
// individual and mutates the children (centre inverse mutation, rate 1/2);
// the CPU cores select parents (two-way tournaments) and cross them over
// (one cut point, rate 1/2). ep_cpu runs on the CPU cores (one thread each,
// island t of the population) at the same time as ep_gpu (CTA c: island c),
// and the two hand each generation over through two counters in memory: a
// CPU thread waits with acquire loads until every CTA has evaluated the
// generation, a CTA until every CPU thread has written its children
// (`sync`). Without CPU cores the host runs one generation at a time, ep_cpu
// as one-thread CTAs on the GPU, kernel boundaries in place of the counters
// (`sync` = 0). Random choices are a hash of (generation, individual,
// purpose), which the host's replay (ep.c) computes alike.
#define EP_GENES 32

__device__ static unsigned load_acquire(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

__device__ static void add_release(unsigned *p)
{
    asm volatile("red.release.sys.global.add.u32 [%0], 1;" ::"l"(p) : "memory");
}

__device__ static unsigned ep_hash(unsigned g, unsigned i, unsigned what)
{
    unsigned h = g * 0x9e3779b1u ^ (i + 0x7f4a7c15u) * 0x85ebca6bu ^ what * 0xc2b2ae35u;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

// Generations g0..g1 of the GPU side: mutate the children of generation
// g - 1 into the population (g > 0), then evaluate it. `count` holds the
// CTAs' counter (count[0]) and the CPU threads' (count[64]), a line apart.
extern "C" __global__ void ep_gpu(float *pop, const float *kids, float *fit, const float *target,
                                  unsigned *count, unsigned P, unsigned g0, unsigned g1,
                                  unsigned sync)
{
    unsigned T = gridDim.x, c = blockIdx.x, lo = c * P / T, hi = (c + 1) * P / T;
    for (unsigned g = g0; g <= g1; g++) {
        if (g > 0) {
            if (sync && threadIdx.x == 0)
                while (load_acquire(&count[64]) < T * g)
                    ;
            __syncthreads();
            for (unsigned e = lo * EP_GENES + threadIdx.x; e < hi * EP_GENES; e += blockDim.x) {
                unsigned i = e / EP_GENES, k = e % EP_GENES, from = k;
                if (ep_hash(g, i, 3) & 1) { // centre inverse mutation: each side reversed
                    unsigned cut = 1 + ep_hash(g, i, 4) % (EP_GENES - 1);
                    from = k < cut ? cut - 1 - k : cut + EP_GENES - 1 - k;
                }
                pop[e] = kids[i * EP_GENES + from];
            }
            __syncthreads();
        }
        for (unsigned i = lo + threadIdx.x; i < hi; i += blockDim.x) {
            float s = 0.0f;
            for (unsigned k = 0; k < EP_GENES; k++) {
                float d = __fsub_rn(pop[i * EP_GENES + k], target[k]);
                s = __fmaf_rn(d, d, s);
            }
            fit[i] = s;
        }
        __syncthreads();
        if (sync && threadIdx.x == 0) {
            __threadfence_system();
            add_release(&count[0]);
        }
    }
}

// The fitter of two individuals of island [lo, hi) drawn for (g, j, what).
__device__ static unsigned tournament(const float *fit, unsigned lo, unsigned hi, unsigned g,
                                      unsigned j, unsigned what)
{
    unsigned x = lo + ep_hash(g, j, what) % (hi - lo), y = lo + ep_hash(g, j, what + 1) % (hi - lo);
    return fit[y] < fit[x] ? y : x;
}

// Generations g0..g1 of the CPU side, thread t (of T) on island t: wait for
// the evaluation, then each child of the island from two parents of the
// island; best[g * T + t] is the island's best fitness.
extern "C" __global__ void ep_cpu(const float *pop, float *kids, const float *fit, float *best,
                                  unsigned *count, unsigned P, unsigned g0, unsigned g1,
                                  unsigned sync)
{
    unsigned T = gridDim.x, t = blockIdx.x, lo = t * P / T, hi = (t + 1) * P / T;
    for (unsigned g = g0; g <= g1; g++) {
        if (sync)
            while (load_acquire(&count[0]) < T * (g + 1))
                ;
        float b = fit[lo];
        for (unsigned i = lo + 1; i < hi; i++)
            b = fit[i] < b ? fit[i] : b;
        best[g * T + t] = b;
        for (unsigned j = lo; j < hi; j++) {
            unsigned a = tournament(fit, lo, hi, g, j, 5), m = tournament(fit, lo, hi, g, j, 7);
            unsigned cut = ep_hash(g, j, 9) & 1 ? 1 + ep_hash(g, j, 10) % (EP_GENES - 1)
                                                : EP_GENES;
            for (unsigned k = 0; k < EP_GENES; k++)
                kids[j * EP_GENES + k] = pop[(k < cut ? a : m) * EP_GENES + k];
        }
        if (sync) {
            __threadfence_system();
            add_release(&count[64]);
        }
    }
}
