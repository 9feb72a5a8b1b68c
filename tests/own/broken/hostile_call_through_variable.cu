// expect-exit: 2
// expect-output: hostile_call_through_variable.cu:27: a call through the variable go
// expect-output-lines: 1
//
// hostile_call_through_variable.cu -- a helper's address kept in a
// variable, then called through it: once a call may go through a variable,
// any number the file can make is a function it can call. A kernel file
// calls functions by their name: refused at the call.

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

int blocks(int width) { return (width + 63) / 64; }

void launch(const float* N, const float* M, float* P, int r, int width)
{
    auto go = blocks;
    conv1d_basic<<<go(width), 64>>>(N, M, P, r, width);
}
