// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// auto deduced from the value of an assignment to an element: in CUDA
// `auto v = (P[i] *= 2.5f)` is a float, a copy of the new value, so
// P[i] = 1 + 2.5 * N[i]. TileScope (when this was found) kept v a reference
// to P[i], so the stores after it showed through (P[i] = 1 + 1 = 2).
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x3f800258  (1.00007153)
// expect: P[1] = 0xbf980000  (-1.1875)
// expect: P[2] = 0x3f8046e1  (1.00216305)
// expect: P[3] = 0xbfa3e8b4  (-1.28053904)
#include <cuda_runtime.h>

__global__ void k(const float* N, float* P, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) {
        P[i] = N[i];
        auto v = (P[i] *= 2.5f);
        P[i] = 1.0f;
        P[i] += v;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
