// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// A kernel declared by a prototype, launched by launch(), and defined after
// launch(): what a prototype is for. P[i] = 2 * N[i]. TileScope (when this
// was found) refused the file: "launch() may launch only a __global__ kernel
// defined above it in this file".
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x386fff8d  (5.72200406e-05)
// expect: P[1] = 0xbfe00000  (-1.75)
// expect: P[2] = 0x3ae2d143  (0.00173047965)
// expect: P[3] = 0xbfe986f7  (-1.8244313)
#include <cuda_runtime.h>

__global__ void twice(const float* N, float* P, int width);

void launch(const float* N, const float* M, float* P, int r, int width)
{
    twice<<<(width + 31) / 32, 32>>>(N, P, width);
}

__global__ void twice(const float* N, float* P, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) P[i] = 2.0f * N[i];
}
