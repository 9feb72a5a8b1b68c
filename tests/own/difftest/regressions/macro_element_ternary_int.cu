// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// An element named through a macro's definition against an int in the
// conditional operator: in CUDA `c ? SH(t) : 0` is a float (P[i] = 3 * N[i]
// for odd i, 0 for even i). TileScope (when this was found) made it an int,
// truncating the element: 0 where |3 * N[i]| < 1.
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x00000000  (0)
// expect: P[1] = 0xc0280000  (-2.625)
// expect: P[2] = 0x00000000  (0)
// expect: P[3] = 0xc02f2539  (-2.73664689)
#include <cuda_runtime.h>
#define SH(i) s[(i)]

__global__ void k(const float* N, float* P, int width)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < width) ? N[i] * 3.0f : 0.0f;
    if (i < width) {
        P[i] = (t % 2) ? SH(t) : 0;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
