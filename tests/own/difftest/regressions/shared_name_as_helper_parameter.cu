// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// A __device__ helper, declared ahead of the kernel and defined after it,
// whose parameter has the name of the kernel's __shared__ array: the
// helper's `tile` is its own float. P[i] = N[i] * 3. TileScope (when this
// was found) refused the file: "tile is used here other than as tile[...]".
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x38b3ffaa  (8.58300627e-05)
// expect: P[1] = 0xc0280000  (-2.625)
// expect: P[2] = 0x3b2a1cf2  (0.00259571942)
// expect: P[3] = 0xc02f2539  (-2.73664689)
#include <cuda_runtime.h>

__device__ float triple(float tile);

__global__ void k(const float* N, float* P, int width)
{
    __shared__ float tile[32];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    tile[t] = (i < width) ? N[i] : 0.0f;
    if (i < width) P[i] = triple(tile[t]);
}

__device__ float triple(float tile) { return tile * 3.0f; }

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
