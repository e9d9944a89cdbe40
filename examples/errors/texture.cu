// texture.cu - a kernel that reads through a texture object: gpucoh models no
// texture path, so loading its PTX must fail with file:line and exit 2
// (tests/cli/exec-errors.sh).
extern "C" __global__ void sample(cudaTextureObject_t tex, float *out, int w)
{
    int x = threadIdx.x;
    out[x] = tex2D<float>(tex, x + 0.5f, 0.5f) * w;
}
