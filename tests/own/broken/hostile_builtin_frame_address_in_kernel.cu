// expect-exit: 2
// expect-output: hostile_builtin_frame_address_in_kernel.cu:14: __builtin_frame_address: a kernel file may call only CUDA's and C's documented functions
// expect-output-lines: 1
//
// hostile_builtin_frame_address_in_kernel.cu -- the basic 1D kernel reads its own stack through
// __builtin_frame_address: raw memory that no trace sees. Refused at its line.

#include <cuda_runtime.h>

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= width) return;
    float stack = *(float*)__builtin_frame_address(0);
    if (stack == 1.0f) return;
    float Pvalue = 0.0f;
    for (int j = -r; j <= r; j++)
        if (i + j >= 0 && i + j < width) Pvalue += M[j + r] * N[i + j];
    P[i] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
