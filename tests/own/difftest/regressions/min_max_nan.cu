// difftest: dims=1 width=8 height=1 radius=1 barriers=0 seed=regression
// min and max of two floats are CUDA's fminf and fmaxf (crt/math_functions.h),
// which return the other operand when one is NaN: with x = sqrtf(N[i] - 10)
// a NaN, P[i] = min(x, 1.5f) + max(x, N[i]) = 1.5 + N[i]. TileScope (when
// this was found) computed min and max as `y < x ? y : x`, which keeps a NaN
// first operand: P was NaN, and `run` refused to write it.
// What CUDA gives (nvcc -fmad=false, and the serial C++ build):
// expect: P[0] = 0x3fc000f0  (1.50002861)
// expect: P[1] = 0x3f200000  (0.625)
// expect: P[2] = 0x3fc01c5a  (1.50086522)
// expect: P[3] = 0x3f167909  (0.58778435)
#include <cuda_runtime.h>

__global__ void k(const float* N, float* P, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < width) {
        float x = sqrtf(N[i] - 10.0f);
        P[i] = min(x, 1.5f) + max(x, N[i]);
    }
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    k<<<(width + 31) / 32, 32>>>(N, P, width);
}
