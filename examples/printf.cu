// printf.cu - launch-spec example: device printf. Two warps; lanes 0 and 16
// of each print a line holding every conversion gpucoh formats (the values
// come from a buffer in device memory and from the thread's registers), and
// thread 0 prints a second line with strings of device memory.
// Run: gpucoh exec examples/printf.spec
#include <cstdio>

__device__ const char who[] = "gpucoh";

extern "C" __global__ void say(const int *v, double scale)
{
    int t = threadIdx.x;
    int x = v[t];
    if (t % 16 == 0)
        printf("t=%d i=%i u=%u x=%x X=%X o=%o c=%c w=[%5d|%-4d] f=%.3f e=%e g=%g "
               "ld=%ld lld=%lld lu=%lu llu=%llu h=%hd\n",
               t, -x, (unsigned)-x, x * 4099, x * 4099, x, 'A' + t / 16, x, x, scale * x,
               scale * x, scale / (x + 1), -(long)x << 33, (long long)x * 1000000007LL,
               (unsigned long)x << 34, ~0ull - x, (short)(x * 70000));
    if (t == 0)
        printf("%s says %s%% of %p is %08.2f [%*d] [%.2s]\n", who, "100", (void *)0x1234,
               scale, 6, x, who);
}
