// half_atomics.cu - atomicAdd on __half, __half2, __nv_bfloat16 and
// __nv_bfloat162, and atomicCAS on 16 bits, for tests/cli/exec-half-atomics.sh.
// sm_75 has no bf16 atomic add: nvcc emits a 16-bit CAS loop there
// (atom.cas.b16); sm_90 emits atom.add.noftz.bf16 and .bf16x2.
// Regenerate: nvcc -ptx -arch=sm_75 -o half_atomics.ptx half_atomics.cu
//             nvcc -ptx -arch=sm_90 -o half_atomics.sm90.ptx half_atomics.cu
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Every thread adds exact values (the sums never round) into a few slots, so
// the totals do not depend on the order the atomics are performed in.
// Thread 0 then adds the smallest increments that tie: 1 + 2^-11 (f16) and
// 1 + 2^-8 (bf16) round to even, back to 1, and 1 + 3*2^-11 rounds up to
// 1 + 2^-9, so the roundings are checked too.
extern "C" __global__ void half_atomics(__half *h, __half2 *h2, __nv_bfloat16 *b,
                                        __nv_bfloat162 *b2, unsigned short *ticket,
                                        unsigned short *old)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&h[i & 3], __float2half(1.0f));
    atomicAdd(&h2[i & 1], __floats2half2_rn(1.0f, 0.5f));
    atomicAdd(&b[i & 3], __float2bfloat16(1.0f));
    atomicAdd(&b2[i & 1], __floats2bfloat162_rn(2.0f, 0.25f));
    // a ticket counter taken with 16-bit compare-and-swap: every thread gets a
    // distinct old value
    unsigned short cur = ticket[0], seen;
    do {
        seen = cur;
        cur = atomicCAS(ticket, seen, (unsigned short)(seen + 1));
    } while (cur != seen);
    old[i] = seen;
    if (i == 0) {
        atomicAdd(&h[4], __float2half(0.00048828125f));  // 1 + 2^-11: tie, stays 1
        atomicAdd(&h[5], __float2half(0.00146484375f));  // 1 + 3*2^-11: up to 1 + 2^-9
        atomicAdd(&b[4], __float2bfloat16(0.00390625f)); // 1 + 2^-8: tie, stays 1
        atomicAdd(&b[5], __float2bfloat16(0.01171875f)); // 1 + 3*2^-8: up to 1 + 2^-6
    }
}
