// vecadd_workload.cu - the vecadd workload's kernel (workloads/vecadd/vecadd.cu) with an
// ordinary host main doing what its gpucoh driver does at size tiny (workloads/vecadd/
// vecadd.c): three allocations, two copies in, a memset, one launch of 4 x 256 threads.
// Run through the stand-in it must take the cycles `gpucoh run --workload vecadd --size
// tiny` takes (tests/cli/cuda.sh).
#include "common.cuh"
#include "../../workloads/vecadd/vecadd.cu"

int main()
{
    const int n = 1000;
    float *a = (float *)std::malloc(n * sizeof(float)), *b = (float *)std::malloc(n * sizeof(float));
    float *c = (float *)std::malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        a[i] = (float)(i % 11) * 0.25f - 1.0f;
        b[i] = (float)(i % 7) * 0.125f;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, n * sizeof(float)));
    CHECK(cudaMalloc(&db, n * sizeof(float)));
    CHECK(cudaMalloc(&dc, n * sizeof(float)));
    CHECK(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dc, 0, n * sizeof(float)));
    vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (c[i] != a[i] + b[i] && bad++ < 5)
            std::printf("c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
    std::printf("vecadd_workload: %d elements, %s\n", n, bad ? "FAILED" : "ok");
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    std::free(a);
    std::free(b);
    std::free(c);
    return bad ? 1 : 0;
}
