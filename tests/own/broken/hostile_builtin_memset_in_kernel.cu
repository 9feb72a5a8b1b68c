// expect-exit: 2
// expect-output: hostile_builtin_memset_in_kernel.cu:16: __builtin_memset: a kernel file may call only CUDA's and C's documented functions
// expect-output-lines: 1
//
// hostile_builtin_memset_in_kernel.cu -- the basic 1D kernel that clears memory at an address of its
// choosing with the compiler's __builtin_memset: a write that no trace sees.
// Compiler builtins are none of CUDA's or C's documented functions: refused at
// the call's line.

#include <cuda_runtime.h>

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= width) return;
    __builtin_memset((void*)0x10000, 0, 16);
    float Pvalue = 0.0f;
    for (int j = -r; j <= r; j++)
        if (i + j >= 0 && i + j < width) Pvalue += M[j + r] * N[i + j];
    P[i] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
