/*
 * props.c - a host program as CUDA 12's headers build it, for the libcudart
 * stand-in's libcudart.so.12 (no nvcc 12 on the development machine, so it is
 * built with the C compiler and written against CUDA 12's API by hand): its
 * cuda_runtime_api.h turns cudaGetDeviceProperties into
 * cudaGetDeviceProperties_v2, and its struct cudaDeviceProp has clockRate,
 * deviceOverlap and three more fields that CUDA 13 removed, so every field
 * after them sits further on. The program reads the properties at CUDA 12's
 * offsets (src/cudart/runtime.c) and checks them against the machine that
 * tests/cli/cuda12.sh gives it; the bytes after the struct's last named field
 * (its reserved tail, where CUDA 12's is 1032 bytes) must stay untouched.
 * Exit 0 and one line of values, or 1 with what is wrong.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>

int cudaGetDeviceProperties_v2(void *prop, int device);
int cudaRuntimeGetVersion(int *version);

static int at(const unsigned char *p, unsigned off)
{
    int v;
    memcpy(&v, p + off, sizeof v);
    return v;
}

int main(void)
{
    unsigned char prop[1032 + 64];
    memset(prop, 0xa5, sizeof prop);
    int version = 0;
    if (cudaRuntimeGetVersion(&version) || version / 1000 != 12) {
        printf("cudaRuntimeGetVersion: %d, expected 12xxx\n", version);
        return 1;
    }
    if (cudaGetDeviceProperties_v2(prop, 0)) {
        printf("cudaGetDeviceProperties_v2 failed\n");
        return 1;
    }
    for (unsigned i = 780; i < sizeof prop; i++)
        if (prop[i] != 0xa5) {
            printf("byte %u, past the last named field (780), was written\n", i);
            return 1;
        }
    printf("name '%s' warpSize %d clockRate %d major %d minor %d multiProcessorCount %d "
           "l2CacheSize %d maxThreadsPerMultiProcessor %d regsPerMultiprocessor %d\n",
           (const char *)prop, at(prop, 308), at(prop, 348), at(prop, 360), at(prop, 364),
           at(prop, 388), at(prop, 616), at(prop, 624), at(prop, 648));
    return 0;
}
