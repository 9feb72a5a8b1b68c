// expect-exit: 2
// expect-output: hostile_pragma_clang_debug_crash.cu:11: #pragma clang is not supported in a kernel file (#pragma unroll is)
// expect-output-lines: 1
//
// hostile_pragma_clang_debug_crash.cu -- `#pragma clang __debug crash` makes the C++ parser itself
// crash, and with it the app that reads the file. Pragmas other than loop
// unrolling (and the compilers' warnings) are refused before the parser runs.

#include <cuda_runtime.h>

#pragma clang __debug crash

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= width) return;
    float Pvalue = 0.0f;
    for (int j = -r; j <= r; j++)
        if (i + j >= 0 && i + j < width) Pvalue += M[j + r] * N[i + j];
    P[i] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
