// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// difftest-tags: template-unused
// A __device__ function template declared (a prototype) and neither defined
// nor called: legal C++ and CUDA. P[i] = 2 * N[i]. TileScope (when this was
// found) refused the file at the declaration: "kernel.cu:LINE: this
// declaration is not supported in a kernel file: it may hold __global__ and
// __device__ functions, launch() and the host functions it calls, #define,
// const numbers, and one __constant__ float array".
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x386fff8d  (5.72200406e-05)
// expect: P[1] = 0xbfe00000  (-1.75)
// expect: P[2] = 0x3ae2d143  (0.00173047965)
// expect: P[3] = 0xbfe986f7  (-1.8244313)
#include <cuda_runtime.h>

template <typename T>
__device__ T twice_t(T x);

__global__ void k(const float* N, float* P, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) P[i] = N[i] * 2.0f;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
