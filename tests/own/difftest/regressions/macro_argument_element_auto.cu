// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// An element passed to a macro (#define ID(x) (x)) and copied with auto: in
// CUDA `auto v = ID(s[t])` is a float, a copy: P[i] = 3 * N[i]. TileScope
// (when this was found) kept v a reference to s[t], so the store after it
// showed through (P[i] = 1).
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x38b3ffaa  (8.58300627e-05)
// expect: P[1] = 0xc0280000  (-2.625)
// expect: P[2] = 0x3b2a1cf2  (0.00259571942)
// expect: P[3] = 0xc02f2539  (-2.73664689)
#include <cuda_runtime.h>
#define ID(x) (x)

__global__ void k(const float* N, float* P, int width)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < width) ? N[i] * 3.0f : 0.0f;
    if (i < width) {
        auto v = ID(s[t]);
        s[t] = 1.0f;
        P[i] = v;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
