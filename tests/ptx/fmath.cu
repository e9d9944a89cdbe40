// fmath.cu - float and double arithmetic, conversions and special functions.
extern "C" __global__ void fmath(const float *x, float *y, double *d, int *iv)
{
    int t = threadIdx.x;
    float a = x[t];
    float b = a * 1.5f + 2.0f;
    y[t * 8 + 0] = sqrtf(fabsf(a));
    y[t * 8 + 1] = 1.0f / (b + 3.0f);
    y[t * 8 + 2] = __expf(a * 0.1f);
    y[t * 8 + 3] = __sinf(a) + __cosf(a);
    y[t * 8 + 4] = fminf(a, b) - fmaxf(a, -b);
    y[t * 8 + 5] = rsqrtf(fabsf(b) + 1.0f);
    y[t * 8 + 6] = __log2f(fabsf(a) + 1.0f);
    y[t * 8 + 7] = a / (b + 0.25f);
    double da = (double)a;
    d[t * 4 + 0] = da * da - 3.0 * da;
    d[t * 4 + 1] = sqrt(fabs(da) + 2.0);
    d[t * 4 + 2] = da / 7.0;
    d[t * 4 + 3] = fma(da, 2.0, (double)t);
    iv[t * 4 + 0] = (int)(a * 10.0f);
    iv[t * 4 + 1] = __float2int_rn(b);
    iv[t * 4 + 2] = (int)(unsigned char)(t * 37);
    iv[t * 4 + 3] = (a < b) ? t : -t;
}

extern "C" __global__ void imath(const int *x, int *y, long long *z)
{
    int t = threadIdx.x;
    int a = x[t];
    unsigned u = (unsigned)a;
    y[t * 8 + 0] = a / 7 + a % 5;
    y[t * 8 + 1] = __popc(u) + __clz(u);
    y[t * 8 + 2] = __brev(u);
    y[t * 8 + 3] = (u >> 3) & 0x3f;
    y[t * 8 + 4] = __byte_perm(u, u * 3, 0x5140);
    y[t * 8 + 5] = __funnelshift_l(u, u * 5, t);
    y[t * 8 + 6] = max(a, -t) - min(a, t) + abs(a);
    y[t * 8 + 7] = __mulhi(a, 123456789) + __umulhi(u, 3000000000u);
    long long w = (long long)a * 1000003LL;
    z[t * 2 + 0] = w / 13 + (w >> 5);
    z[t * 2 + 1] = (long long)((unsigned long long)w % 1000ULL);
}
