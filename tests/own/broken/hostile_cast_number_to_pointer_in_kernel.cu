// expect-exit: 2
// expect-output: hostile_cast_number_to_pointer_in_kernel.cu:15: a cast of int to float * makes a pointer out of a number
// expect-output-lines: 1
//
// hostile_cast_number_to_pointer_in_kernel.cu -- the basic 1D kernel reads a float at an address it makes
// from a number, (float*)0x1000: memory that no trace sees. A cast that makes a
// pointer out of a number is refused at its line.

#include <cuda_runtime.h>

__global__ void conv1d_basic(const float* N, const float* M, float* P, int r, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= width) return;
    float peek = *(float*)0x1000;
    if (peek == 1.0f) return;
    float Pvalue = 0.0f;
    for (int j = -r; j <= r; j++)
        if (i + j >= 0 && i + j < width) Pvalue += M[j + r] * N[i + j];
    P[i] = Pvalue;
}

void launch(const float* N, const float* M, float* P, int r, int width)
{
    conv1d_basic<<<(width + 63) / 64, 64>>>(N, M, P, r, width);
}
