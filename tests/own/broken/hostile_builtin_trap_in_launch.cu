// expect-exit: 2
// expect-output: hostile_builtin_trap_in_launch.cu:22: __builtin_trap: a kernel file may call only CUDA's and C's documented functions
// expect-output-lines: 1
//
// hostile_builtin_trap_in_launch.cu -- launch() stops the process with __builtin_trap, a compiler builtin
// that is none of CUDA's or C's documented functions: refused at its line.

#include <cuda_runtime.h>

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
    __builtin_trap();
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
