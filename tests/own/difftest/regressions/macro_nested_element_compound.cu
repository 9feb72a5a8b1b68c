// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// A float copied with auto from an element named by one macro and passed
// through another, then added to: `auto v = ID(SH(t)); v += 1.0f;` is
// P[i] = 3 * N[i] + 1 in CUDA. TileScope (when this was found) refused the
// file: "no matching function for call to '+=(float&&, float, int)'".
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x3f8002d0  (1.00008583)
// expect: P[1] = 0xbfd00000  (-1.625)
// expect: P[2] = 0x3f80550e  (1.00259566)
// expect: P[3] = 0xbfde4a72  (-1.73664689)
#include <cuda_runtime.h>
#define ID(x) (x)
#define SH(i) s[(i)]

__global__ void k(const float* N, float* P, int width)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < width) ? N[i] * 3.0f : 0.0f;
    if (i < width) {
        auto v = ID(SH(t));
        v += 1.0f;
        P[i] = v;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
