// unsupported.cu - calls a runtime function gpucoh's stand-in does not provide
// (graphs: cudaGraphCreate) and reports the error it gets: the test expects
// cudaErrorNotSupported and a message naming the call, and exit status 1.
#include "common.cuh"

int main()
{
    cudaGraph_t graph;
    cudaError_t e = cudaGraphCreate(&graph, 0);
    std::printf("cudaGraphCreate: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    return e == cudaErrorNotSupported ? 1 : 0;
}
