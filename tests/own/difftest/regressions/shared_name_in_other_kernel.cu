// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// A name that is a __shared__ array in one kernel and a float local in
// another: each kernel's names are its own. The launched kernel, second,
// has a local `s0`; P[i] = 2 * N[i] + 0.5. TileScope (when this was found)
// refused the file: "s0 is used here other than as s0[...]", taking the
// local for first's shared array.
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x3f0003c0  (0.50005722)
// expect: P[1] = 0xbfa00000  (-1.25)
// expect: P[2] = 0x3f007169  (0.501730502)
// expect: P[3] = 0xbfa986f7  (-1.3244313)
#include <cuda_runtime.h>

__global__ void first(const float* N, float* P, int width)
{
    __shared__ float s0[32];
    int t = threadIdx.x;
    s0[t] = N[t % width];
    P[t % width] = s0[t];
}

__global__ void second(const float* N, float* P, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s0 = 0.5f;
    if (i < width) P[i] = 2.0f * N[i] + s0;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    second<<<(width + 31) / 32, 32>>>(N, P, width);
}
