// flexvs.cu - spec 003's FlexV/S microbenchmark (workloads/spandex_micro.cuh says how its
// CPU and GPU phases run and synchronise).
#include "../spandex_micro.cuh"

// FlexV/S (§4.1): CPU c densely reads all of A (sync-separated reuse: the
// same data every phase) and partition (c + it) % n of B (no reuse:
// another partition each phase), and writes a checksum; GPU CTA g sparsely
// writes its slice of A (one word in each of a sixteenth of its lines, so
// that the CPUs' copies of A are rarely written remotely, as the paper's
// ReqS choice for them assumes) and densely reads and writes its partition
// of B (the same one every phase). Every CPU reads what
// every GPU CTA wrote and the other way round, so each side waits for all
// of the other's flags (as at the paper's kernel boundaries).
extern "C" __global__ void flexvs_cpu(unsigned *A, unsigned *B, unsigned *out, unsigned *flags,
                                      int P, int it0, int iters)
{
    unsigned n = gridDim.x, c = blockIdx.x;
    for (int it = it0; it < iters; it++) {
        if (it)
            await_side(flags, 1, n, it);
        unsigned sum = 0;
        for (unsigned k = 0; k < n * P; k++)
            sum += A[k];
        unsigned bp = (c + it) % n;
        for (unsigned k = 0; k < (unsigned)P; k++)
            sum += B[bp * P + k];
        out[it * n + c] = sum;
        raise_flag(spx_flag(flags, 0, c, n), it + 1);
    }
}

extern "C" __global__ void flexvs_gpu(unsigned *A, unsigned *B, unsigned *flags, int P, int it0,
                                      int iters)
{
    unsigned n = gridDim.x, g = blockIdx.x;
    for (int it = it0; it < iters; it++) {
        await_side(flags, 0, n, it + 1);
        for (unsigned j = threadIdx.x; j * 256 < (unsigned)P; j += blockDim.x)
            A[g * P + (j * 16 + (it + g) % 16) % (P / 16) * 16 + (it + g) % 16] = it * 1000u + g;
        for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
            B[g * P + k] += 1u;
        raise_flag(spx_flag(flags, 1, g, n), it + 1);
    }
}
