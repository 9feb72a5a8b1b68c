// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// Two __shared__ arrays in one declaration, as C++ allows:
// `__shared__ float a[32], b[32];` P[i] = 2 * N[i] + 1.
// TileScope (when this was found) refused the file: "declare one __shared__
// array per declaration", a limit docs/own-kernel.md does not list.
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x3f8001e0  (1.00005722)
// expect: P[1] = 0xbf400000  (-0.75)
// expect: P[2] = 0x3f8038b4  (1.00173044)
// expect: P[3] = 0xbf530dee  (-0.8244313)
#include <cuda_runtime.h>

__global__ void k(const float* N, float* P, int width)
{
    __shared__ float a[32], b[32];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    a[t] = (i < width) ? N[i] : 0.0f;
    b[t] = 1.0f;
    if (i < width) P[i] = 2.0f * a[t] + b[t];
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
