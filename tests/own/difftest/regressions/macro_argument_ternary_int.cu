// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// The conditional operator with an element of a writable array against an
// int, inside a macro's argument (the generator's first find: SQ(c ? in[k] : 0)
// with a non-const input). In CUDA `c ? in[i + 2] : 0` is a float:
// P[i] = N[i + 2]^2, or 0 for the last two. TileScope (when this was found)
// made it an int, truncating the element before squaring it.
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x3548f625  (7.48639934e-07)
// expect: P[1] = 0x3f5506f5  (0.832137406)
// expect: P[2] = 0x3ec80000  (0.390625)
// expect: P[3] = 0x31b4c191  (5.26069543e-09)
#include <cuda_runtime.h>
#define SQ(x) ((x) * (x))

__global__ void k(float* in, float* P, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) {
        P[i] = SQ((i + 2 < width) ? in[i + 2] : 0);
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>((float*)N, P, width);
}
