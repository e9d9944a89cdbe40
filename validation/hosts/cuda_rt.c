/*
 * cuda_rt.c - the CUDA runtime calls of the validation hosts (cuda_host.h):
 * each checked, a failure printed with the runtime's message (exit 2).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_host.h"

static void cuda_check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "cuda_host: %s: %s\n", what, cudaGetErrorString(e));
        exit(2);
    }
}

unsigned long long vh_malloc(unsigned long long bytes)
{
    void *p = NULL;
    cuda_check(cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc");
    return (uintptr_t)p;
}

void vh_free(unsigned long long dev)
{
    cuda_check(cudaFree((void *)(uintptr_t)dev), "cudaFree");
}

void vh_copy_to_dev(unsigned long long dst, const void *src, unsigned long long n)
{
    cuda_check(cudaMemcpy((void *)(uintptr_t)dst, src, n, cudaMemcpyHostToDevice),
               "cudaMemcpy to device");
}

void vh_copy_from_dev(void *dst, unsigned long long src, unsigned long long n)
{
    cuda_check(cudaMemcpy(dst, (const void *)(uintptr_t)src, n, cudaMemcpyDeviceToHost),
               "cudaMemcpy from device");
}

void vh_memset(unsigned long long dst, int value, unsigned long long n)
{
    cuda_check(cudaMemset((void *)(uintptr_t)dst, value, n), "cudaMemset");
}

void vh_launch(const char *name, const void *func, const unsigned grid[3], const unsigned block[3],
               unsigned dyn_shmem_bytes, void **args)
{
    dim3 g = {grid[0], grid[1], grid[2]}, b = {block[0], block[1], block[2]};
    cuda_check(cudaLaunchKernel(func, g, b, args, dyn_shmem_bytes, 0), name);
    cuda_check(cudaDeviceSynchronize(), name);
}
