// common.cuh - the error check the example programs share: any failed CUDA call
// prints the runtime's message and exits 2, as an ordinary CUDA program would.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,             \
                         cudaGetErrorString(e_));                                          \
            std::exit(2);                                                                  \
        }                                                                                  \
    } while (0)
